"""The table screen's modes: the table itself (:mod:`.table`) and the overlays over it, one
file each (help, quit, confirm, choose, sheet, scores, final, chat).

Each file holds the overlay's keys (one list, read by both the key bar and the key bindings),
its body, where it floats, and the line said for a key it does not use. :mod:`.registry`
lists them; adding an overlay is one file plus one line there.
"""
