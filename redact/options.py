"""The flag rules of a `redact` run, in the library: checked when the options object is made.

    RunOptions(to="native", mode="hashed", receipt=Path("r.json"))   # UsageError: --receipt and
                                                                     # --vault are for maps, ...

The CLI parses flags into a `RunOptions` and renders what the library returns; it holds no rule
of its own. The library API builds the same object from its keywords (`redact.api.redact_file`,
`redact.api_native.scrub_file`), so a bad combination is refused with the same one-line `UsageError` (exit 2) by
either, before anything is read or written. The messages name flags, as the CLI spells them: they
are what a user of either sees. Values are never part of a message.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from redact.errors import UsageError
from redact.model.grammar import PATH_MODES

MODES = PATH_MODES  # the one list (redact/model/grammar.py)
TARGETS = ("map", "native")
#: How many inputs a run names: one file (or `-`), one folder of sessions, or several inputs / a glob.
ONE, FOLDER, MANY = "one", "folder", "many"


def _formats() -> tuple[str, ...]:
    from redact.formats.detect import FORMATS  # the registry's formats and `agentplay`

    return tuple(sorted(FORMATS))


@dataclass(frozen=True)
class RunOptions:
    """What one run is asked to do. Paths are only looked at for being given (None or not).

    `inputs`: ONE, FOLDER or MANY. `output`: `-o` (None or `-`: stdout). `keyed`: a key was given
    (a `Key`, or the CLI loaded one). `chain_key`, `receipt`, `signing_key`, `vault`, `report`,
    `out_dir`: given or not.
    """

    to: str = "map"
    mode: str | None = None
    input_format: str | None = None
    inputs: str = ONE
    output: str | None = None
    out_dir: Any = None
    report: Any = None
    level: str | None = None
    chain_key: Any = None
    receipt: Any = None
    signing_key: Any = None
    vault: Any = None
    keyed: bool = False

    def __post_init__(self) -> None:
        if self.mode is not None and self.mode not in MODES:
            raise UsageError("--mode must be relative, dirs_only or hashed")
        if self.input_format is not None and self.input_format not in _formats():
            raise UsageError(f"--format must be one of: {', '.join(_formats())}")
        if self.to not in TARGETS:
            raise UsageError("--to must be map or native")
        if self.inputs not in (ONE, FOLDER, MANY):
            raise ValueError(f"inputs must be {ONE}, {FOLDER} or {MANY}")  # a caller's bug, not a flag
        if self.inputs != ONE:
            self._check_many()
        elif self.to == "native":
            self._check_native()
        else:
            self._check_map()

    @property
    def extras(self) -> bool:
        """A side output of one map (a receipt or a vault) was asked for."""
        return self.receipt is not None or self.signing_key is not None or self.vault is not None

    def _check_many(self) -> None:
        if self.to != "map" or self.extras:
            raise UsageError("--to native, --receipt and --vault are for one input")
        if self.out_dir is None:
            if self.inputs == FOLDER:
                raise UsageError("INPUT is a folder: give --out-dir DIR for the maps (one per session)")
            raise UsageError("several inputs (or a glob): give --out-dir DIR for the maps (one per input)")
        if self.output not in (None, "-"):
            raise UsageError("-o names one output file; with several inputs or a folder, use --out-dir")
        if self.report is not None:
            raise UsageError("--report is for one input; `agentplay-redact audit MAP` reports on each map")

    def _check_one(self) -> None:
        if self.out_dir is not None:
            raise UsageError("--out-dir is for several inputs, a folder or a glob; for one file use -o")

    def _check_native(self) -> None:
        self._check_one()
        if self.extras:
            raise UsageError("--receipt and --vault are for maps, not --to native")

    def _check_map(self) -> None:
        self._check_one()
        if self.level is not None or self.chain_key is not None:
            raise UsageError("--level and --chain-key-file go with --to native")
        if (self.receipt is None) != (self.signing_key is None):
            raise UsageError("--receipt and --signing-key go together")
        if self.vault is not None and not self.keyed:
            raise UsageError("--vault needs a key (--key-file): the vault is encrypted under it")


__all__ = ["FOLDER", "MANY", "MODES", "ONE", "TARGETS", "RunOptions"]
