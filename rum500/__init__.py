"""rum500: Rummy 500 (Michigan rum) over the local network, in the terminal."""

__version__ = "0.1.0"
