"""Regressions, each named after the bug it guards."""
from __future__ import annotations

import subprocess
import sys

from redact.verbs import extract
from redact.verbs.parse import masked

# Inputs that made tree-sitter-bash 0.25 crash the whole process (found by test_properties).
_CRASHERS = ["{\U0010e51b", "{\U000d7185", "\u0314${\U0010e51b`x", "[\u059d<<<<<esac\n\u048eQ\u0245{\U000d7185H"]


def test_tree_sitter_segfault_on_supplementary_plane_characters() -> None:
    """Run in a child process: a regression must fail this test, not kill the test run."""
    code = (
        "import sys\n"
        "from redact.verbs import extract\n"
        f"for text in {_CRASHERS!r}:\n"
        "    assert extract(text).verb in ('<unparsed>', '<script>'), text\n"
        "print('survived')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr[-500:]
    assert "survived" in done.stdout


def test_masking_keeps_byte_offsets_and_values() -> None:
    for text in ["git log", "echo 'h\u00e9llo \U0001f916' | wc", "./d\u00e9ploy.sh --x=\u4e2d", "\ud800x"]:
        assert len(masked(text)) == len(text.encode("utf-8", "surrogatepass"))
        assert masked(text).isascii() or not text.isascii()


def test_non_ascii_names_are_hashed_from_the_original_text() -> None:
    seen: list[str] = []

    def hasher(name: str) -> str:
        seen.append(name)
        return "0123456789"

    extract("./d\u00e9ploy.sh && ./d\u00e8ploy.sh", hasher=hasher)
    assert seen == ["d\u00e9ploy.sh", "d\u00e8ploy.sh"]


def test_unterminated_heredoc_from_codex_apply_patch() -> None:
    """Codex sends `apply_patch <<'PATCH'` without the closing line; bash accepts it, so do we."""
    command = "apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: a.py\n+x = 1\n*** End Patch"
    assert extract(command).verb == "apply_patch"
    assert extract("cat <<EOF\nno end").verb == "cat"
