"""What `redact --out-dir` shows on stderr: a progress bar while inputs run, one summary table after.

Only the CLI imports rich. The bar counts files, megabytes of input and findings so far; it is drawn
only on a terminal (piped or captured stderr gets the table and the plain lines alone). Nothing here
shows input text: file names, counts, statuses and the errors' one-line diagnostics.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Self

from rich.console import Console
from rich.progress import BarColumn, TextColumn, TimeElapsedColumn
from rich.progress import Progress as RichProgress
from rich.table import Table
from rich.text import Text

from redact.batch import BAD, BUG, LEAK, SKIPPED, WRITTEN, Outcome, Task
from redact.cli.common import printable

_STYLE = {WRITTEN: "green", LEAK: "yellow", BAD: "red", BUG: "red", SKIPPED: "dim"}


def _console() -> Console:
    console = Console(stderr=True, highlight=False, soft_wrap=False)
    if not console.is_terminal:  # a log file or a pipe: wide enough that names and reasons fit
        console = Console(stderr=True, highlight=False, soft_wrap=False, width=max(console.width, 132))
    return console


def _problem(outcome: Outcome) -> str:
    """The error line without the place it names (the input column shows it), cut short."""
    what = outcome.message
    if what.startswith(outcome.input):
        what = what[len(outcome.input):].lstrip(":0123456789 ")
    return what if len(what) <= 60 else what[:57] + "..."


class Progress:
    """A progress bar over `tasks`, advanced once per outcome (files, MB, findings so far)."""

    def __init__(self, tasks: Sequence[Task]) -> None:
        self.console = _console()
        self.files_total = len(tasks)
        self.mb_total = sum(t.size for t in tasks) / 1e6
        self.files = 0
        self.mb = 0.0
        self.findings = 0
        self.failed = 0
        self.bar = RichProgress(
            TextColumn("[bold]redacting"), BarColumn(),
            TextColumn("{task.fields[files]}"), TextColumn("{task.fields[mb]}"),
            TextColumn("{task.fields[findings]}"), TimeElapsedColumn(),
            console=self.console, transient=True, disable=not self.console.is_terminal,
        )
        files, mb, findings = self._fields()
        self.task = self.bar.add_task("redact", total=self.mb_total or self.files_total, files=files, mb=mb,
                                      findings=findings)

    def _fields(self) -> tuple[str, str, str]:
        return (f"{self.files}/{self.files_total} files", f"{self.mb:,.1f}/{self.mb_total:,.1f} MB",
                f"{self.findings} finding(s), {self.failed} failed")

    def __enter__(self) -> Self:
        return self

    def start(self) -> None:
        """Draw the bar from now on (called once the worker processes exist)."""
        self.bar.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.bar.stop()

    def advance(self, outcome: Outcome) -> None:
        self.files += 1
        self.mb += outcome.size / 1e6
        self.findings += len(outcome.findings)
        self.failed += outcome.status != WRITTEN
        files, mb, findings = self._fields()
        self.bar.update(self.task, completed=self.mb if self.mb_total else self.files, files=files, mb=mb,
                        findings=findings)


def summary(outcomes: Sequence[Outcome]) -> None:
    """One table: each input's status, size, events, findings and output (or what went wrong)."""
    console = _console()
    table = Table(title=f"{len(outcomes)} input(s)", title_justify="left", show_edge=False, pad_edge=False)
    for name, justify in (("status", "left"), ("input", "left"), ("MB", "right"), ("events", "right"),
                          ("findings", "right"), ("output / problem", "left")):
        table.add_column(name, justify=justify, overflow="fold")  # type: ignore[arg-type]
    written = mb = events = findings = 0
    for o in outcomes:
        written += o.status == WRITTEN
        mb += o.size
        events += o.events
        findings += len(o.findings)
        detail = Path(o.output).name if o.status == WRITTEN and o.output else _problem(o)
        # file names and messages as plain Text: `[x]name.jsonl` is a name, not rich markup
        table.add_row(f"[{_STYLE[o.status]}]{o.status}[/]", Text(printable(Path(o.input).name)),
                      f"{o.size / 1e6:,.1f}", str(o.events) if o.status == WRITTEN else "",
                      str(len(o.findings)) if o.findings else "", Text(printable(detail)))
    table.add_section()
    table.add_row(f"{written} written", "", f"{mb / 1e6:,.1f}", str(events), str(findings), "")
    console.print(table)
