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

from redact.batch.inputs import BAD, BUG, LEAK, SKIPPED, WRITTEN, Outcome, Survey, Task
from redact.cli.common import err, printable

_STYLE = {WRITTEN: "green", LEAK: "yellow", BAD: "red", BUG: "red", SKIPPED: "dim"}


WIDTH = 100  # the summary fits this many columns (a terminal narrower than that gets its own width)
_NAME = 33  # longer file names are shown with their middle cut out


def _console() -> Console:
    console = Console(stderr=True, highlight=False, soft_wrap=False)
    width = min(console.width, WIDTH) if console.is_terminal else WIDTH
    return Console(stderr=True, highlight=False, soft_wrap=False, width=width)


def _problem(outcome: Outcome) -> str:
    """The error line without the place it names (the input column shows it); the table cuts it
    short, the whole line is printed above the table."""
    what = outcome.message
    if what.startswith(outcome.input):
        what = what[len(outcome.input):].lstrip(":0123456789 ")
    return what


def _short(name: str) -> str:
    """`name`, or its start and end around an ellipsis when longer than _NAME (a Codex rollout's
    name is 70 characters): the end keeps the id's last digits and the extension."""
    if len(name) <= _NAME:
        return name
    keep = _NAME - 1
    return name[: keep - keep // 2] + "\u2026" + name[len(name) - keep // 2:]


def _output(outcome: Outcome) -> str:
    """The output's name, or `=` and its extension when it is the input's name (the id shown once)."""
    out, src = Path(outcome.output or ""), Path(outcome.input)
    out_stem, src_stem = out.name.split(".", 1)[0], src.name.split(".", 1)[0]
    if out_stem == src_stem:
        return "= " + out.name[len(out_stem):]
    return _short(out.name)


def _home(place: str) -> str:
    """A place with the user's home written `~` (the lines are for the user, on their screen)."""
    home = str(Path.home())
    return "~" + place[len(home):] if place == home or place.startswith(home + "/") else place


def found(survey: Survey, tasks: Sequence[Task]) -> None:
    """Before the progress bar: one line per agent found in the folders given (how many sessions,
    in how many stores, where), the places looked in that held nothing, and the inputs given by
    name. Counts are the sessions found; `--skip-existing` may leave some of them."""
    for arg, what in survey.folders:
        agents = what.agents()
        width = max((len(a) for a in agents), default=0)
        for agent, (n, stores, places) in agents.items():
            count = f"{stores} store(s), {n} session(s)" if stores else f"{n} session(s)"
            err(f"{agent:<{width}}  {count} in {', '.join(_home(p) for p in places)}")
        if what.empty:
            err("looked in, nothing there: " + "; ".join(f"{a} {_home(p)}" for a, p in what.empty))
        if what.unreadable:
            err(f"{len(what.unreadable)} file(s) or folder(s) that look like sessions cannot be read "
                "(named below)")
        if what.other:
            err(f"{len(what.other)} other file(s) in {_home(arg)} match no session format this build reads")
        if what.absent:
            err(f"{what.absent} other place(s) where agents keep sessions do not exist here "
                "(`agentplay-redact formats --homes` lists them)")
        for line in what.truncated:
            err(f"warning: {line}")
    by_name = sum(1 for t in tasks if t.input not in survey.agent)
    if survey.folders and by_name:
        err(f"and {by_name} input(s) given by name or pattern")


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
    """One table, at most WIDTH columns: each input's status, size, events, findings and output (`=`
    and the extension when the output is named after the input), or what went wrong."""
    from redact.cli.common import Say

    if Say.quiet:
        return
    console = _console()
    table = Table(title=f"{len(outcomes)} input(s)", title_justify="left", box=None, pad_edge=False,
                  header_style="bold")
    # (name, justify, width): the input column takes names up to _NAME, the last one what is left
    # (given outright: rich, left to shrink a long problem, dropped the other columns instead)
    fixed = (("status", "left", 9), ("input", "left", _NAME), ("MB", "right", 6), ("events", "right", 6),
             ("findings", "right", 8))
    rest = max(12, console.width - sum(w for _, _, w in fixed) - 2 * len(fixed))
    for name, justify, width in (*fixed, ("output / problem", "left", rest)):
        table.add_column(name, justify=justify, no_wrap=True, overflow="ellipsis",  # type: ignore[arg-type]
                         min_width=width, max_width=width)
    written = mb = events = findings = 0
    for o in outcomes:
        written += o.status == WRITTEN
        mb += o.size
        events += o.events
        findings += len(o.findings)
        detail = _output(o) if o.status == WRITTEN and o.output else _problem(o)
        # file names and messages as plain Text: `[x]name.jsonl` is a name, not rich markup
        table.add_row(f"[{_STYLE[o.status]}]{o.status}[/]", Text(printable(_short(Path(o.input).name))),
                      f"{o.size / 1e6:,.1f}", str(o.events) if o.status == WRITTEN else "",
                      str(len(o.findings)) if o.findings else "", Text(printable(detail)))
    table.add_section()
    table.add_row(f"{written} written", "", f"{mb / 1e6:,.1f}", str(events), str(findings), "")
    console.print(table)
