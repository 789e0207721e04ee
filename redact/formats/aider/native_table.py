"""Aider has no native output (`native.py`): its table drops every record."""
from __future__ import annotations

from redact.tables.spec import DROP, Table

TABLE = Table("aider", DROP)
