"""Module boundaries (STYLE.md principle 5), enforced on the source rather than hoped for.

The layers, lowest first. A module imports its own layer or a lower one, never a higher one
(every import counts: at the top, inside a function, under TYPE_CHECKING):

    0 shared      redact/errors.py, moved.py (the old import paths), model/, contract/, io/, tables/
                  (pure: the field classes and their grammar, the detectors both sides use, the
                  declarative tables and the names a report may show, errors, reading and writing bytes)
    1 redactor    every other module of redact/, one folder a pipeline step: formats/ (read, detect),
                  build/ (raw log -> map), native/ (scrub a raw log in its own format), policy/,
                  apply/ (the policy over a map), verbs/, keys/, and report.py, options.py, blocked.py
    1 scanner     audit/ (the leak scanner and its reports)
    2 library     redact/api.py, api_native.py, redact/__init__.py, batch/ (many inputs),
                  share/ (receipts, explain, reveal), sweep/ (secrets already in the logs)
    3 CLI         redact/cli/, redact/__main__.py

    CLI ──> library ──> redactor ──> shared
      │        │                       ^
      │        └──────> scanner ───────┘  (+ the verb vocabulary and the format registry)
      └───────────────> scanner           (rendering reports, `scan`, `audit`)

- The scanner and the redactor are siblings: the scanner never imports the redactor's transforms
  (STYLE.md principle 4: one bug cannot hide a leak from both). Besides the shared layer it reads
  only declarative tables: the verb vocabulary and its grammar (`redact/verbs/vocab.py`,
  `vocab_data.py`, `grammar.py`, `classify.py`, not the engine), and the format registry (the list of
  formats) with each format's one table (`redact/formats/<name>/native_table.py`, written in the
  node vocabulary of `redact/tables/`, which is in the shared layer).
- The redactor never imports the scanner: running the scanner after a redaction happens in one
  place, the library API (`redact/api.py`: `scan_output` for maps; `redact/api_native.py`:
  `scan_native_output` for `--to native`). Other callers of the scanner scan a map they were given (`redact.scan`,
  `receipt verify`, the `scan` and `audit` commands); none of them also redacts.
- No import cycle between modules.
- Banned APIs: only redact/contract/secrets/plugins.py imports detect-secrets (its plugins can send a secret over the
  network); only redact/keys/material.py holds key material (it alone imports hmac or cryptography); only
  the CLI (redact/cli/, and the terminal renderer it alone imports) imports typer or rich.

ruff enforces the banned APIs and the scanner's rule too (pyproject.toml, audit/ruff.toml).
"""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("redact", "audit")

RULES = {
    "detect_secrets": {"redact/contract/secrets/plugins.py"},
    "hmac": {"redact/keys/material.py"},
    "cryptography": {"redact/keys/material.py"},
    "typer": {"redact/cli/"},
    "rich": {"redact/cli/", "audit/render/terminal.py"},
}

SHARED = ("redact.errors", "redact.moved", "redact.model", "redact.contract", "redact.io", "redact.tables")
LIBRARY = ("redact", "redact.api", "redact.api_native")
LIBRARY_PACKAGES = ("redact.batch", "redact.share", "redact.sweep")
CLI = ("redact.cli", "redact.__main__")
#: What the scanner reads besides the shared layer: declarative tables, never a transform. Exact
#: module names (a package listed here is its `__init__`, not its other modules).
SCANNER_READS = {
    "redact",  # the package: its __init__ imports nothing at run time but the old-path aliases
    "redact.verbs", "redact.verbs.vocab", "redact.verbs.vocab_data", "redact.verbs.grammar", "redact.verbs.classify",
    "redact.formats", "redact.formats.registry", "redact.formats.tables", "redact.formats.toolnames",
    "redact.formats.tooltable",
    "redact.formats.gemini_record_table",  # the chat record's table parts (Gemini CLI, Qwen Code)
    "redact.formats.kiro_tool_table",  # the Kiro IDE agent's tool names (Kiro IDE store and log)
    "redact.blocked",  # the text of a blocked run's advice (the command that passes): no transform
}
#: Reads up from a lower layer allowed as exceptions: none (the closed list of names a report may
#: show is data the tables produce, redact/tables/vocabulary.txt, not an import of the tables).
UPWARD_READS: set[tuple[str, str]] = set()
#: A format's folder (its registry entry) and its field tables, which the native proof reads.
FORMAT_FOLDERS = sorted(p.parent.name for p in (ROOT / "redact" / "formats").glob("*/__init__.py"))
FORMAT_TABLE = re.compile(rf"redact\.formats\.(?:{'|'.join(FORMAT_FOLDERS)})(?:\.table|\.native_table|\.tool_table)?")


def scanner_may_read(module: str) -> bool:
    return _in(module, SHARED) or module in SCANNER_READS or FORMAT_TABLE.fullmatch(module) is not None


#: The scanner's entry points: whoever imports one runs the scanner.
SCANNER_ENTRIES = ("audit.scan", "audit.native", "audit.report_of_map", "audit.selftest")
#: Who may run the scanner, and why: after a redaction (only the API), or on a map it was given.
#: `redact.api_native` is the `--to native` half of the API (split from api.py to keep modules short).
SCANS_AFTER_REDACTION = {"redact.api", "redact.api_native"}
SCANS_A_GIVEN_MAP = {"redact", "redact.share.receipt", "redact.cli.scan_cmd", "redact.cli.audit_cmd",
                     "redact.cli.precommit_cmd"}  # the pre-commit entry scans staged maps and native scrubs


def _in(module: str, prefixes: tuple[str, ...] | set[str]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def layer(module: str) -> int:
    if _in(module, CLI):
        return 3
    if module in LIBRARY or _in(module, LIBRARY_PACKAGES):
        return 2
    if _in(module, SHARED):
        return 0
    return 1  # the redactor and the scanner


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


MODULES = _modules()


def _resolve(name: str) -> str | None:
    """The project module an import names (`redact.model.grammar.EMAIL_RE` -> `redact.model.grammar`)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def project_imports(module: str) -> set[str]:
    """Every project module `module` imports, wherever the import statement is."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(parts + ([node.module] if node.module else []))
            # `from pkg import sub` imports the submodule; `from mod import name` the module
            names = [f"{base}.{alias.name}" for alias in node.names]
        for name in names:
            target = _resolve(name)
            if target is not None and target != module:
                found.add(target)
    return found


GRAPH = {module: project_imports(module) for module in MODULES}


def package_diagram() -> dict[str, set[str]]:
    """Which package imports which (first two name parts: `redact.formats`, `audit.render`)."""
    def pkg(module: str) -> str:
        return ".".join(module.split(".")[:2])

    edges: dict[str, set[str]] = {}
    for src, targets in GRAPH.items():
        for dst in targets:
            if pkg(src) != pkg(dst):
                edges.setdefault(pkg(src), set()).add(pkg(dst))
    return edges


def _third_party(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_banned_imports_stay_in_their_module() -> None:
    offenders = []
    for package in ("redact", "audit", "policies"):
        for path in (ROOT / package).rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            for name in _third_party(path) & RULES.keys():
                if not any(rel == allowed or (allowed.endswith("/") and rel.startswith(allowed))
                           for allowed in RULES[name]):
                    offenders.append(f"{rel} imports {name}")
    assert not offenders, offenders


def test_imports_go_down_the_layers() -> None:
    upward = [f"{src} (layer {layer(src)}) imports {dst} (layer {layer(dst)})"
              for src, targets in GRAPH.items() for dst in targets
              if layer(dst) > layer(src) and (src, dst) not in UPWARD_READS]
    assert not upward, upward


def test_the_scanner_never_imports_the_redactor() -> None:
    reached = [f"{src} imports {dst}" for src, targets in GRAPH.items() if src.startswith("audit")
               for dst in targets if dst.startswith("redact") and not scanner_may_read(dst)]
    assert not reached, reached


def test_the_redactor_never_imports_the_scanner() -> None:
    reached = [f"{src} imports {dst}" for src, targets in GRAPH.items()
               if src.startswith("redact") and layer(src) < 2 for dst in targets if dst.startswith("audit")]
    assert not reached, reached


def test_the_scanner_runs_after_a_redaction_in_one_place() -> None:
    runs = {src for src, targets in GRAPH.items() if not src.startswith("audit")
            and any(_in(dst, SCANNER_ENTRIES) for dst in targets)}
    assert runs <= SCANS_AFTER_REDACTION | SCANS_A_GIVEN_MAP, sorted(runs - SCANS_AFTER_REDACTION - SCANS_A_GIVEN_MAP)
    # a module that scans a given map does not redact one: it neither transforms nor calls the API
    redacts = {"redact.api", "redact.api_native", "redact.apply.walk", "redact.native", "redact.build", "redact.batch.run"}
    both = [m for m in SCANS_A_GIVEN_MAP if m in GRAPH and GRAPH[m] & redacts - {"redact.api", "redact.api_native"}]
    assert not both, both
    assert "redact.api" in runs  # the one place exists


def test_the_scanner_loads_no_transform_when_it_runs() -> None:
    """At run time too: a package's `__init__` runs when one of its modules is imported, and a
    table may import a reader, so the static rules alone would not see `redact/native/__init__.py`
    (or a format's native table) pulling in the redactor. Import every scanner module, then scan a
    map and each format's native output, in a fresh interpreter."""
    code = f"""
import importlib, json, sys
for m in {sorted(m for m in MODULES if m.startswith("audit"))!r}:
    importlib.import_module(m)
print(" ".join(sorted(m for m in sys.modules if m.startswith("redact"))))
from audit.native import scan_native
from audit.scan import scan_map
from redact.formats.tables import formats
scan_map(json.loads(open("examples/session-map.json").read()))
for fmt in formats():
    scan_native(b"{{}}\\n", fmt, path_mode="relative")
print(" ".join(sorted(m for m in sys.modules if m.startswith("redact"))))
"""
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    imported, ran = (line.split() for line in out.stdout.splitlines())
    assert "redact.model.grammar" in imported and "redact.tables.spec" in ran  # the probe works
    assert [m for m in imported if not scanner_may_read(m)] == []
    assert [m for m in ran if not scanner_may_read(m)] == []


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, list[str]]] = [(start, sorted(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, todo = work[-1]
            if todo:
                nxt = todo.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(graph.get(nxt, ()))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles() -> None:
    assert _cycles(GRAPH) == []


def test_the_graph_sees_every_kind_of_import() -> None:
    """The rules above are only as good as the graph: relative, function-level and TYPE_CHECKING
    imports all count."""
    assert "redact.formats.codex.state" in GRAPH["redact.formats.codex.calls"]  # under TYPE_CHECKING
    assert "redact.api" in GRAPH["redact.batch.run"]  # inside a function
    assert "audit.scan" in GRAPH["redact.api"]
    assert package_diagram()["redact.cli"] >= {"redact.share", "redact.api_native", "audit.render"}


def test_the_scanner_takes_the_shared_detectors_from_the_contract_layer() -> None:
    """audit/ asks redact/contract/ for words, language, phrases and shapes: one copy of each, so the
    redactor's fallback (redact/apply/pathguard.py) and the proof ask the same question."""
    assert not (ROOT / "audit" / "words.py").exists() and not (ROOT / "audit" / "language.py").exists()
    for module, wanted in (("audit.scan", "redact.contract.language"), ("audit.native", "redact.contract.language"),
                           ("audit.taint", "redact.contract.phrases"), ("audit.values", "redact.contract.shapes")):
        assert any(dst == wanted or dst.startswith(wanted + ".") for dst in GRAPH[module]), (module, wanted)


def _format_folder(module: str) -> str | None:
    """The format folder a module lies in (`redact.formats.codex.tools` -> `codex`); None for a
    module of the shared level (`redact.formats.common`) or outside redact/formats/."""
    parts = module.split(".")
    return parts[2] if len(parts) >= 3 and parts[:2] == ["redact", "formats"] and parts[2] in FORMAT_FOLDERS else None


def test_no_format_folder_imports_another() -> None:
    """A format is one folder (adding or changing one touches no other): readers share only the
    shared level of redact/formats/ (common.py, ids.py, wording.py, patches.py, toolnames.py,
    chatlog.py, ...), never another format's folder, and the shared level reaches into no folder
    either (else a reader would reach another folder through it). Every import counts, inside a
    function too."""
    crossing = [f"{src} imports {dst}" for src, targets in sorted(GRAPH.items()) if (a := _format_folder(src))
                for dst in sorted(targets) if (b := _format_folder(dst)) and b != a]
    assert not crossing, crossing
    shared = [f"{src} imports {dst}" for src, targets in sorted(GRAPH.items())
              if src.startswith("redact.formats.") and _format_folder(src) is None
              for dst in sorted(targets) if _format_folder(dst)]
    assert not shared, shared
