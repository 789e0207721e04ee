"""The tool names of Kiro's IDE agent, as one table part: its chat store (`kiro_ide/`) and its
session log (`kiro_ide_log/`) write the same tools, so both tables take their aliases from here
(a format folder imports no other, tests/test_boundaries.py). Declarative only: the native proof
reads it."""
from __future__ import annotations

#: The IDE agent's tool names -> the shared tool table's spelling
IDE_ALIASES: dict[str, str] = {
    "executeBash": "bash", "readFile": "read", "readMultipleFiles": "read", "fsWrite": "write",
    "fsAppend": "edit_file", "strReplace": "edit_file", "deleteFile": "delete_file",
    "listDirectory": "list_directory", "fileSearch": "file_search", "grepSearch": "grep",
}
