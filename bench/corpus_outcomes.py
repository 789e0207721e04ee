"""Every real session of the shared corpus under default, internal and public: written or refused?

Run: PYTHONPATH=. .venv/bin/python bench/corpus_outcomes.py [--corpus ../shared/corpus] [--policy P]
     [--with-notes]   (adds the generated notes-style vault of tests/formats/notesfix.py)

Every session of every agent folder (claude-code, codex, gemini-cli, copilot-cli, copilot-vscode,
cline, opencode, cursor, crush, aider, openhands, amp, continue), found as batch mode finds them
(`redact.batch.inputs.expand`: a SQLite store's sessions one by one, credential and auxiliary files skipped
by name and counted as such), is redacted with `redact_file` (companions found next to it, the leak
scanner run with the raw log as taint source, as the CLI does) under each policy;
`public` needs a key, so a random one is made for the run (never written anywhere). Prints, per
policy: written / refused (the scanner blocked: exit 1) / bad input (exit 2), the scanner rules of
the refusals, and the redactor's fallbacks summed by class and rule (issue 14: a value the scanner
would flag is replaced instead of kept). Prints counts and rule ids only, never a value or a name.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from redact.api import redact_file  # noqa: E402  (after the sys.path insert)
from redact.errors import LeakFound, RedactError  # noqa: E402  (after the sys.path insert)
from redact.keys.material import Key  # noqa: E402  (after the sys.path insert)

POLICIES = ("default", "internal", "public")
NOT_SESSIONS = ("commands",)  # the shell command datasets


def run(corpus: Path, policies: tuple[str, ...], extra: tuple[Path, ...] = ()) -> dict[str, dict[str, Counter[str]]]:
    from redact.batch.inputs import expand

    key = Key(os.urandom(32), source="<temporary key>")
    files: list[Path] = []
    skipped = 0
    for folder in sorted(p for p in corpus.iterdir() if p.is_dir() and p.name not in NOT_SESSIONS):
        found, unusable = expand([str(folder)])
        if not found or not any(p.is_dir() for p in folder.iterdir()):
            # the corpus keeps most agents' files flat, under flattened names, where batch discovery
            # (which looks for each agent's own layout) finds some or none: then each file is an input
            # of its own, as `agentplay-redact FILE` takes it (a store's sessions one by one, skips by name)
            found, unusable = [], []
            for path in sorted(p for p in folder.rglob("*") if p.is_file()):
                more, why = expand([str(path)])
                found += more
                unusable += why
        files += found
        skipped += sum(1 for o in unusable if o.status == "skipped")
    files += list(extra)
    out: dict[str, dict[str, Counter[str]]] = {}
    for policy in policies:
        outcome: Counter[str] = Counter()
        refused_rules: Counter[str] = Counter()
        fallbacks: Counter[str] = Counter()
        for path in files:
            try:
                result = redact_file(path, policy=policy, key=key if policy == "public" else None)
            except LeakFound as err:
                outcome["refused"] += 1
                report = getattr(err, "report", None)
                for finding in getattr(report, "findings", None) or ():
                    refused_rules[str(finding.get("rule"))] += 1
                continue
            except RedactError:
                outcome["bad input"] += 1
                continue
            outcome["written"] += 1
            for name, count in (getattr(result.report, "fallbacks", None) or {}).items():
                fallbacks[name] += count
        out[policy] = {"outcome": outcome, "refused rules": refused_rules, "fallbacks": fallbacks,
                       "files": Counter({"total": len(files), "skipped": skipped})}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--policy", action="append", choices=POLICIES)
    parser.add_argument("--with-notes", action="store_true",
                        help="also the generated notes-style vault of tests/formats/notesfix.py")
    args = parser.parse_args(argv)
    if not args.corpus.is_dir():
        print(f"no corpus at {args.corpus}; nothing to measure", file=sys.stderr)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        extra: tuple[Path, ...] = ()
        if args.with_notes:
            from tests.formats.notesfix import transcript

            notes = Path(tmp) / "notes-vault.jsonl"
            notes.write_bytes(transcript())
            extra = (notes,)
        results = run(args.corpus, tuple(args.policy or POLICIES), extra)
    for policy, parts in results.items():
        o = parts["outcome"]
        print(f"{policy}: {parts['files']['total']} sessions: written {o['written']}, "
              f"refused {o['refused']}, bad input {o['bad input']} "
              f"(and {parts['files']['skipped']} files that are not sessions, skipped by name)")
        for title in ("refused rules", "fallbacks"):
            for name, count in sorted(parts[title].items()):
                print(f"  {title}: {name} {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
