"""The game log: every match and action in SQLite, resume, history, stats, export/import.

See docs/storage.md for the schema and the export file format."""

from rum500.store.db import SCHEMA_VERSION, StoreError, db_path, home, open_db
from rum500.store.journal import Journal
from rum500.store.log import load_for_resume

__all__ = [
    "SCHEMA_VERSION",
    "Journal",
    "StoreError",
    "db_path",
    "home",
    "load_for_resume",
    "open_db",
]
