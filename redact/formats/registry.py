"""The one list of raw input formats, and the protocol each of them answers.

A format is a folder `redact/formats/<name>/` whose `__init__.py` exposes `FORMAT`, and one line in
`PACKAGES` below. Detection (`redact/formats/detect.py`), the `formats` command, batch discovery
(`redact/batch/inputs.py`), the API's reader and companion lookup (`redact/api.py`), `--to native`
(`redact/native/`), the native tables and proof (`redact/formats/tables.py`, `audit/native.py`) and the
taint source reader (`audit/source_text.py`) all iterate `formats()`; none keeps its own list.

The folder's modules, by convention (`FormatFolder` finds them there, imported on first use, so
listing the formats costs nothing at start-up):

    native_table.py  TABLE: the format's one table (redact/tables/spec.py): every field with its
                     class, and on each node the reader reads, `use` (what it keeps of it, via
                     `used(...)`); a record type the reader maps says so on its layout's node, and
                     name sets such as RECORD_TYPES are read off the tree (`handling(switch)`)
    table.py         sniff(records) -> bool, sniff_doc(doc) -> bool for a one-document format,
                     sniff_bytes(head) -> bool for a format that is not JSON (Markdown), and
                     optionally markdown() -> its name tables (record types, tools) for the docs
    store.py         for a SQLite store: sniff(db), sessions(db), export(db, session) -> JSONL bytes
                     (redact/io/store.py opens the store read-only; redact/formats/stores.py hands the
                     export to the reader)
    keys.py          every key the folder's modules read, as constants named by their place in TABLE
                     (redact/formats/slots.py: an unclassified place fails the import); no other
                     module of the folder spells a key (tests/formats/test_slots.py)
    reader.py        read_session(data, where, *, report, companions, skip_bad_lines, file_stem);
                     it reads only fields TABLE classifies (tests/formats/test_tables.py runs it
                     over tests/fixtures/<name>/, the inputs tests/formats/table_inputs.py builds
                     for the format and its corpus folder, with every read logged)
    native.py        scrub(data, *, name, policy, key, mode, report, skip_bad_lines, **options) -> bytes

docs/formats.md shows each format's tables between `<!-- <name>-tables:begin/end -->` markers,
written by scripts/gen_format_docs.py from the table (redact/formats/fieldtable.py). A folder in the
older shape, with a hand-written `table.FIELDS` list and a `table.markdown()` that renders it, is
still read as it is (its FIELDS are the docs' rows) until it moves its use texts onto its tree.

A format whose modules differ subclasses `FormatFolder` in its `__init__.py` (see claude_code/).

A folder imports no other format's folder, and adding a format touches none: what readers share is
at the shared level of redact/formats/, one job a module (`common.py`: times, numbers, labels, URL
hosts, byte counts; `ids.py`: session and lane ids; `wording.py`: error classes from a harness's
wording; `patches.py`: the apply_patch envelope; `toolnames.py`: the shared tool table;
`chatlog.py`: the chat-store readers' calls and results), which imports no folder either
(tests/test_boundaries.py).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Protocol, runtime_checkable

if TYPE_CHECKING:
    from redact.build.facts import SessionFacts
    from redact.tables.spec import Table
    from redact.report import RedactionReport

#: The format folders under redact/formats/, in the order their sniffers are asked (Qwen Code's first:
#: its records look like Claude Code's and its chat record like Gemini CLI's, and its sniffers claim
#: only what neither writes).
PACKAGES: tuple[str, ...] = ("qwen_code", "claude_code", "codex", "session_record", "teaagent", "agent_replay",
                             "opencode", "crush", "cursor", "aider", "openhands", "openhands_v0", "amp",
                             "zed", "factory_droid", "kiro_ide", "continue_dev", "gemini_cli", "copilot_cli", "copilot_vscode", "cline",
                             "kiro", "kiro_ide_log", "kiro_legacy", "pi", "kimi", "goose", "hermes")


#: The start of a `homes` entry that lies inside a project folder rather than at a fixed place.
PROJECT = "{project}"


def app_data(app: str, *tail: str) -> tuple[str, ...]:
    """The places of a desktop application's folder `app` (`Code`, `Cursor`), then `tail`, on Linux
    (`~/.config`), macOS (`~/Library/Application Support`) and Windows (`AppData/Roaming`)."""
    rest = "/".join(tail)
    return tuple(f"{base}/{app}" + (f"/{rest}" if rest else "")
                 for base in ("~/.config", "~/Library/Application Support", "~/AppData/Roaming"))


#: The VS Code builds whose `User` folder holds the same extensions' storage.
VSCODE_APPS = ("Code", "Code - Insiders", "VSCodium")


@runtime_checkable
class Format(Protocol):
    """What a raw input format answers. Methods import the format's modules on first use."""

    @property
    def name(self) -> str:
        """The --format value and the report's input_format: `claude-code`."""

    @property
    def description(self) -> str:
        """One line for `agentplay-redact formats`."""

    @property
    def package(self) -> str:
        """The folder's module (`redact.formats.claude_code`): its `table` module's name tables add to
        the closed list of known names (redact/formats/vocabulary.py), beside the names of its one table."""

    @property
    def jsonl(self) -> bool:
        """The taint source reader reads a source of this format line by line, never parsed whole
        (False: it decides by the content, as for a one-document trace)."""

    @property
    def has_sessions(self) -> bool:
        """list_sessions() can find this format's sessions in a folder (batch, --out-dir)."""

    @property
    def native(self) -> bool:
        """`--to native` is offered (False for a SQLite store or a Markdown history: maps only)."""

    @property
    def homes(self) -> tuple[str, ...]:
        """Where the agent keeps its sessions, relative to the home (`~/.claude/projects`)."""

    def sniff(self, records: list[dict[str, Any]]) -> bool:
        """Whether the first records (parsed JSONL objects) are this format's."""

    def sniff_doc(self, doc: Any) -> bool:
        """Whether one parsed JSON document is this format's (False for JSONL-only formats)."""

    def sniff_bytes(self, head: bytes) -> bool:
        """Whether the head of an input that is not JSON is this format's (a Markdown history)."""

    def store(self) -> Any | None:
        """The store module (sniff, sessions, export) of a SQLite store format, or None."""

    def assemble(self, path: Path) -> bytes | None:
        """A session spread over several files (opencode's pre-1.x tree), given by the file at `path`:
        the bytes the reader reads, assembled from them; None when `path` is a whole session."""

    def table(self) -> Table:
        """The format's one table: every field with its class and what the reader keeps of it."""

    def read(self, data: bytes | BinaryIO, name: str, *, report: RedactionReport,
             companions: list[Any] | None, skip_bad_lines: bool, file_stem: str | None) -> SessionFacts:
        """The raw log (and its companion files) read into facts for the map builder."""

    def discover(self, path: Path) -> list[Any]:
        """The companion files of the session at `path` (Claude Code's subagent transcripts)."""

    def list_sessions(self, folder: Path) -> list[Path]:
        """The sessions of this format right in `folder` ([] when the format has no session folders)."""

    def scrubber(self) -> Callable[..., bytes]:
        """The native scrubber `scrub(data, *, name, policy, key, mode, report, skip_bad_lines, ...)`."""


@dataclass(frozen=True)
class FormatFolder:
    """A `Format` whose parts are the folder's modules named as the module docstring says."""

    name: str
    description: str
    package: str                 # the folder's module name: pass `__name__`
    jsonl: bool = True
    document: bool = False       # table.sniff_doc recognises the format as one JSON document
    companions: str | None = None  # "module:function" finding companion files, None: there are none
    sessions: str | None = None    # "module:function" listing a folder's sessions, None: no folders
    text: bool = False           # table.sniff_bytes recognises the format from the head of its bytes
    sqlite: bool = False         # a SQLite store: store.py answers sniff, sessions and export
    native: bool = True          # --to native is offered (native.py scrubs it in its own format)
    assembles: str | None = None  # "module:function" assembling a session spread over files
    # "module:function" listing the files under a folder that are the format's but not sessions,
    # with why ([(path, reason)]): batch mode skips them and says so (Gemini CLI's checkpoints)
    skips: str | None = None
    # Where this agent keeps its sessions, relative to the user's home (`~/.claude/projects`), one
    # entry per place and OS; `*` globs one segment; `{project}/...` is a place inside a project
    # folder (a bounded walk of the home's folders finds them: PROJECT). Each place is given to
    # `list_sessions`. Home-wide discovery (`agentplay-redact ~`, redact/formats/discover.py)
    # searches each that exists; `agentplay-redact formats` and docs/formats.md list them.
    homes: tuple[str, ...] = ()
    # "module:function" splitting a log that holds one session per run of the agent into its runs,
    # [(run id, bytes)] (redact/formats/runs.py); None: a log is one session
    runs: str | None = None

    @property
    def has_sessions(self) -> bool:
        return self.sessions is not None

    def part(self, spec: str) -> Any:
        """`module:attribute` of this folder, imported now."""
        module, _, attr = spec.partition(":")
        return getattr(import_module(f"{self.package}.{module}"), attr)

    def sniff(self, records: list[dict[str, Any]]) -> bool:
        return bool(self.part("table:sniff")(records))

    def sniff_doc(self, doc: Any) -> bool:
        return self.document and bool(self.part("table:sniff_doc")(doc))

    def sniff_bytes(self, head: bytes) -> bool:
        return self.text and bool(self.part("table:sniff_bytes")(head))

    def store(self) -> Any | None:
        return import_module(f"{self.package}.store") if self.sqlite else None

    def assemble(self, path: Path) -> bytes | None:
        found: bytes | None = self.part(self.assembles)(path) if self.assembles else None
        return found

    def table(self) -> Table:
        found: Table = self.part("native_table:TABLE")
        return found

    def read(self, data: bytes | BinaryIO, name: str, *, report: RedactionReport,
             companions: list[Any] | None, skip_bad_lines: bool, file_stem: str | None) -> SessionFacts:
        facts: SessionFacts = self.part("reader:read_session")(
            data, name, report=report, companions=companions, skip_bad_lines=skip_bad_lines,
            file_stem=file_stem)
        return facts

    def discover(self, path: Path) -> list[Any]:
        return list(self.part(self.companions)(path)) if self.companions else []

    def list_sessions(self, folder: Path) -> list[Path]:
        return list(self.part(self.sessions)(folder)) if self.sessions else []

    def scrubber(self) -> Callable[..., bytes]:
        found: Callable[..., bytes] = self.part("native:scrub")
        return found

    def auxiliary(self, folder: Path) -> list[tuple[Path, str]]:
        """The files under `folder` that are this format's but not sessions, each with why."""
        return list(self.part(self.skips)(folder)) if self.skips else []


@cache
def formats() -> tuple[Format, ...]:
    """Every raw format, in sniffing order."""
    found: list[Format] = []
    for package in PACKAGES:
        fmt: Format = import_module(f"redact.formats.{package}").FORMAT
        found.append(fmt)
    return tuple(found)


#: The session map's name among the input formats (`--input-format agentplay`).
MAP = "agentplay"


def input_formats() -> dict[str, str]:
    """Every input format this tool reads, name -> one line: the session map, then the raw formats
    (`redact.formats.detect.FORMATS`; here, so that the command line lists them without importing
    detection and the readers it needs)."""
    return {MAP: "agentplay/v1 session map (.json, .json.gz); also its earlier name entelligence.session-map/v1",
            **{fmt.name: fmt.description for fmt in formats()}}


def raw_format(name: str) -> Format | None:
    """The format called `name` (`claude-code`), or None."""
    for fmt in formats():
        if fmt.name == name:
            return fmt
    return None


def homes_markdown() -> str:
    """The table of where each agent keeps its sessions, as docs/formats.md shows it (from `homes`)."""
    lines = ["| format | where its agent keeps sessions (searched by `agentplay-redact ~`) |", "|---|---|"]
    for fmt in formats():
        shown = ", ".join(f"`{h.replace(PROJECT, '<project>')}`" for h in fmt.homes) or \
            "no fixed place: give the files or their folder"
        lines.append(f"| `{fmt.name}` | {shown} |")
    return "\n".join(lines) + "\n"


def raw_formats() -> tuple[str, ...]:
    """The names of the raw formats, in sniffing order."""
    return tuple(fmt.name for fmt in formats())
