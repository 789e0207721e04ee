"""One error root. Only the CLI turns these into exit codes.

Messages name places (file, line, JSON pointer, rule), never values: an input's text or a key must
not reach a terminal, a log or a report through an error.
"""
from __future__ import annotations


class RedactError(Exception):
    """Base of every error this package raises on purpose."""

    exit_code = 2

    def __init__(self, what: str, *, where: str | None = None) -> None:
        super().__init__(what)
        self.what = what
        self.where = where

    def diagnostic(self) -> str:
        """One line for a person: `where: what`."""
        return f"{self.where}: {self.what}" if self.where else self.what


class BadInput(RedactError):
    """The input cannot be read or is not a valid instance of its format."""


class NoSession(BadInput):
    """A session store this build reads, holding no session (an agent installed, never used). Asked
    for alone, it is refused like any input that gives no map; in a batch it is passed over and
    named (`skipped`), not counted as a failure: there was nothing to redact."""


class UsageError(RedactError):
    """The command line or the policy asks for something impossible or unsafe."""


class KeyError_(RedactError):
    """A key file is missing, unsafe or malformed."""


class PolicyError(RedactError):
    """A policy file is invalid."""


class LeakFound(RedactError):
    """The scanner found something in an output: nothing was written."""

    exit_code = 1

    def __init__(self, what: str, *, where: str | None = None, report: object = None,
                 session_map: dict[str, object] | None = None) -> None:
        super().__init__(what, where=where)
        self.report = report  # the RedactionReport, with verdicts and masked findings
        # the map as redacted, never written: only the report's picture draws it (its closed fields)
        self.session_map = session_map
