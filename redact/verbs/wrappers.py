"""Transparent wrappers: programs whose verb is the command they run.

`sudo`, `env`, `timeout 30`, `nice -n 5`, `xargs`, `nohup`, `watch STRING`, ... are seen through: the
wrapped command's verb stands in their place. Each wrapper is described by its option table: which
options take a value, which stop it from running anything, and which carry a command string. A
wrapper with nothing to run emits its own name (`sudo -v`, `env`, `command -v node`). Hosts that
keep their own verb are in `hosts.py`; shells and other command-string programs in `shells.py`.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from redact.verbs import parse
from redact.verbs.ctx import INNER, Ctx, Dyn, script_text
from redact.verbs.resolve import RULES, is_assignment, program_hit, run, skip_opts


def _set(*names: str) -> frozenset[str]:
    return frozenset(names)


@dataclass(frozen=True, slots=True)
class Wrap:
    opts: frozenset[str] = frozenset()  # options that take a value
    stop: frozenset[str] = frozenset()  # options after which nothing is run: the verb is the wrapper
    strings: frozenset[str] = frozenset()  # options whose value is a command string
    split: frozenset[str] = frozenset()  # options whose value is split into words (env -S)
    positional: int = 0  # values between the options and the command (timeout DURATION)
    assignments: bool = False  # NAME=value words may come before the command
    host: bool = False  # keep the wrapper's own verb; the command runs at the INNER level
    joined: bool = False  # the remaining words form one command string (watch, ssh)


def option_name(word: str) -> tuple[str, str | None]:
    """(`-c`, glued value or None) for `-cVALUE`/`--opt=VALUE`; clusters are handled by callers."""
    if word.startswith("--"):
        name, eq, value = word.partition("=")
        return name, (value if eq else None)
    return word[:2], (word[2:] or None)


_EMPTY: frozenset[str] = frozenset()


def scan_option(words: Sequence[str], j: int, opts: frozenset[str], strings: frozenset[str] = _EMPTY,
                stop: frozenset[str] = _EMPTY) -> tuple[str, int, str | None]:
    """Read the option at `words[j]` the way getopt does.

    Returns (kind, width, value): kind is "stop" (an option after which nothing runs), "string" (its
    value, glued or the next word, is a command string) or "opt"; width is how many words it spans.
    """
    word = words[j]
    following = words[j + 1] if j + 1 < len(words) else None
    if word.startswith("--"):
        name, eq, value = word.partition("=")
        if name in stop:
            return "stop", 1, None
        if name in strings:
            return ("string", 1, value) if eq else ("string", 2, following)
        return "opt", (1 if eq or name not in opts else 2), None
    if word in stop:
        return "stop", 1, None
    if word in strings:
        return "string", 2, following
    if word in opts:
        return "opt", 2, None
    for k in range(1, len(word)):
        short = "-" + word[k]
        rest = word[k + 1:]
        if short in stop:
            return "stop", 1, None
        if short in strings:
            return ("string", 1, rest) if rest else ("string", 2, following)
        if short in opts:
            return "opt", (1 if rest else 2), None
    return "opt", 1, None


def wrap(spec: Wrap, words: Sequence[str], i: int, ctx: Ctx, level: int, stdin: str | None,
         name: str) -> None:
    n = len(words)
    j = i
    inner = max(level, INNER) if spec.host else level
    strings = spec.strings | spec.split
    while j < n:
        word = words[j]
        if word == "--":
            j += 1
            break
        if not (len(word) > 1 and word[0] == "-"):
            break
        if type(word) is Dyn:
            j += 1
            continue
        kind, width, value = scan_option(words, j, spec.opts, strings, spec.stop)
        if kind == "stop":
            ctx.add(program_hit(name, ctx, level))
            return
        if kind == "string":
            if value is None:
                break
            if spec.host:
                ctx.add(program_hit(name, ctx, level))
            if option_name(word)[0] in spec.split or (word[:2] in spec.split):
                _run_split(value, words[j + width:], ctx, inner, name)
            elif not parse.parse_script(script_text(value), ctx, inner) and not spec.host:
                ctx.add(program_hit(name, ctx, level))
            return
        j += width
    j += spec.positional
    if spec.assignments:
        while j < n and is_assignment(words[j]):
            j += 1
    if j >= n:
        ctx.add(program_hit(name, ctx, level))
        if spec.host and spec.joined and stdin is not None:  # ssh host <<EOF ... EOF
            ctx.stdin_used = True
            parse.parse_script(script_text(stdin), ctx, inner)
        return
    if spec.host:
        ctx.add(program_hit(name, ctx, level))
    if spec.joined:
        text = " ".join(script_text(w) for w in words[j:])
        if not parse.parse_script(text, ctx, inner) and not spec.host:
            ctx.add(program_hit(name, ctx, level))
        return
    run(words, j, ctx, inner, stdin)


def _run_split(value: str, rest: Sequence[str], ctx: Ctx, level: int, name: str) -> None:
    """env -S 'python3 -u' x.py: the string is split into words, then the rest follows."""
    if type(value) is Dyn:
        ctx.add(program_hit(name, ctx, level))
        return
    run([*value.split(), *rest], 0, ctx, level, None)


def _register(names: str, spec: Wrap) -> None:
    def rule(words: Sequence[str], i: int, ctx: Ctx, level: int, stdin: str | None, name: str) -> None:
        wrap(spec, words, i, ctx, level, stdin, name)

    for name in names.split():
        RULES[name] = rule


# -- the wrapper tables -------------------------------------------------------------------------------
_register("sudo", Wrap(
    opts=_set("-u", "--user", "-g", "--group", "-h", "--host", "-p", "--prompt", "-C", "--close-from",
              "-D", "--chdir", "-r", "--role", "-t", "--type", "-T", "--command-timeout", "-U",
              "--other-user", "-R", "--chroot"),
    stop=_set("-v", "--validate", "-k", "--reset-timestamp", "-K", "--remove-timestamp", "-l",
              "--list", "-V", "--version", "-e", "--edit", "--help"),
    assignments=True))
_register("doas", Wrap(opts=_set("-u", "-C"), assignments=True))
_register("pkexec run0", Wrap(opts=_set("--user", "-u", "--unit", "--property", "--description",
                                        "--slice", "--chdir", "-D", "--setenv", "--nice"),
                              assignments=True))
_register("env genv", Wrap(
    opts=_set("-u", "--unset", "-C", "--chdir", "-P", "-a", "--argv0", "--block-signal",
              "--default-signal", "--ignore-signal"),
    split=_set("-S", "--split-string"), assignments=True))
_register("time gtime", Wrap(opts=_set("-f", "--format", "-o", "--output")))
_register("timeout gtimeout", Wrap(opts=_set("-k", "--kill-after", "-s", "--signal"), positional=1))
_register("nice", Wrap(opts=_set("-n", "--adjustment")))
_register("ionice", Wrap(opts=_set("-c", "--class", "-n", "--classdata"), stop=_set("-p", "--pid",
                                                                                     "-P", "--pgid",
                                                                                     "-u", "--uid")))
_register("nohup winpty eatmydata fakeroot dbus-run-session catchsegv proxychains proxychains4 "
          "torsocks tsocks unbuffer ccache sccache distcc setsid coproc", Wrap())
_register("stdbuf", Wrap(opts=_set("-i", "-o", "-e", "--input", "--output", "--error")))
_register("exec", Wrap(opts=_set("-a")))
_register("command", Wrap(stop=_set("-v", "-V")))
_register("builtin", Wrap())
_register("xargs gxargs", Wrap(opts=_set("-I", "-n", "--max-args", "-P", "--max-procs", "-L",
                                         "--max-lines", "-s", "--max-chars", "-d", "--delimiter",
                                         "-a", "--arg-file", "-E", "--eof", "--process-slot-var")))
_register("caffeinate", Wrap(opts=_set("-t", "-w")))
_register("chrt", Wrap(opts=_set("-T", "--sched-runtime", "-P", "--sched-period", "-D",
                                 "--sched-deadline"), stop=_set("-p", "--pid", "-m", "--max"),
                       positional=1))
_register("chroot", Wrap(opts=_set("--userspec", "--groups"), positional=1))
_register("nsenter", Wrap(opts=_set("-t", "--target", "-S", "--setuid", "-G", "--setgid",
                                    "--wdns", "--env")))
_register("unshare", Wrap(opts=_set("-S", "--setuid", "-G", "--setgid", "-R", "--root", "-w", "--wd",
                                    "--propagation", "--map-user", "--map-group", "--kill-child")))
_register("firejail", Wrap())
_register("systemd-run", Wrap(
    opts=_set("-p", "--property", "-u", "--unit", "-E", "--setenv", "--description", "--slice", "-H",
              "--host", "-M", "--machine", "--uid", "--gid", "--nice", "-D", "--working-directory",
              "--on-calendar", "--on-active", "--on-boot", "--timer-property", "--path-property",
              "--socket-property", "--service-type")))
_register("strace ltrace", Wrap(
    opts=_set("-e", "-o", "-s", "-E", "-u", "-a", "-b", "-I", "-O", "-P", "-S", "-X", "-U",
              "--trace", "--output", "--string-limit", "--env", "--user", "--signal", "--status"),
    stop=_set("-p", "--attach")))
_register("xvfb-run", Wrap(opts=_set("-n", "--server-num", "-s", "--server-args", "-f", "--auth-file",
                                     "-e", "--error-file", "-p", "--xauth-protocol", "-w", "--wait")))
_register("rlwrap", Wrap(opts=_set("-f", "--file", "-H", "--history-filename", "-l", "--logfile",
                                   "-p", "--prompt-colour", "-S", "--substitute-prompt")))
_register("watch", Wrap(opts=_set("-n", "--interval", "-d", "--differences", "-q", "--equexit",
                                  "--errexit"), joined=True))
_register("entr", Wrap(strings=_set("-s")))
_register("wsl", Wrap(opts=_set("-d", "--distribution", "-u", "--user", "--cd", "--shell-type",
                                "--distribution-id"),
                      stop=_set("--install", "--shutdown", "-l", "--list", "--status", "--update",
                                "--set-default", "-s", "--set-version", "--export", "--import",
                                "--unregister", "--terminate", "-t", "--mount", "--unmount", "--help",
                                "--version", "-v", "--manage", "--set-default-version", "--debug-shell")))
_register("cross-env", Wrap(assignments=True))
_register("env-cmd", Wrap(opts=_set("-f", "--file", "-e", "--environments", "-r", "--rc-file")))
_register("gosu su-exec", Wrap(positional=1))
_register("sg", Wrap(positional=1, strings=_set("-c")))
_register("ssh autossh mosh", Wrap(
    opts=_set("-b", "-B", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-o",
              "-p", "-P", "-Q", "-R", "-S", "-W", "-w", "-M"),
    positional=1, host=True, joined=True))
_register("nodemon", Wrap(opts=_set("-w", "--watch", "-e", "--ext", "-i", "--ignore", "--delay",
                                    "-d", "--signal", "--config"),
                          strings=_set("--exec", "-x"), host=True))
_register("watchexec", Wrap(opts=_set("-e", "--exts", "-w", "--watch", "-i", "--ignore", "-f",
                                      "--filter", "-d", "--debounce", "--delay-run", "-s", "--signal",
                                      "--shell", "-E", "--env", "--project-origin", "--workdir",
                                      "--on-busy-update", "--stop-signal", "--stop-timeout",
                                      "--filter-file", "--ignore-file", "--emit-events-to",
                                      "-W", "--watch-non-recursive", "--poll", "--color", "--timings"),
                            joined=True))


# -- wrappers with their own shape ----------------------------------------------------------------------
def _emit(name: str, ctx: Ctx, level: int) -> None:
    ctx.add(program_hit(name, ctx, level))


def flock_rule(words: Sequence[str], i: int, ctx: Ctx, level: int, stdin: str | None,
               name: str) -> None:
    """flock [opts] LOCKFILE (-c STRING | CMD ...)."""
    opts = _set("-w", "--timeout", "--wait", "-E", "--conflict-exit-code")
    strings = _set("-c", "--command")
    n = len(words)
    j = i
    seen_file = False
    while j < n:
        word = words[j]
        if len(word) > 1 and word[0] == "-" and type(word) is not Dyn:
            kind, width, value = scan_option(words, j, opts, strings)
            if kind == "string":
                if value and parse.parse_script(script_text(value), ctx, level):
                    return
                break
            j += width
            continue
        if seen_file:
            run(words, j, ctx, level, stdin)
            return
        seen_file = True
        j += 1
    _emit(name, ctx, level)


def su_rule(words: Sequence[str], i: int, ctx: Ctx, level: int, stdin: str | None, name: str) -> None:
    """su [-] [user] -c STRING; runuser -u USER -- CMD; a bare su is an interactive shell."""
    opts = _set("-s", "--shell", "-g", "--group", "-G", "--supp-group", "-w", "--whitelist-environment",
                "-u", "--user")
    strings = _set("-c", "--command", "--session-command")
    n = len(words)
    j = i
    by_user = False
    while j < n:
        word = words[j]
        if word == "--":
            j += 1
            if by_user:
                break
            continue
        if len(word) > 1 and word[0] == "-" and type(word) is not Dyn:
            kind, width, value = scan_option(words, j, opts, strings)
            if kind == "string":
                if value and parse.parse_script(script_text(value), ctx, level):
                    return
                _emit(name, ctx, level)
                return
            if word in ("-u", "--user") or word.startswith("--user="):
                by_user = True
            j += width
            continue
        if by_user:
            break
        j += 1  # `-` or the user name
    if by_user and j < n:
        run(words, j, ctx, level, stdin)
    else:
        _emit(name, ctx, level)


def script_rule(words: Sequence[str], i: int, ctx: Ctx, level: int, stdin: str | None,
                name: str) -> None:
    """script -q -c 'npm test' /dev/null (util-linux); script -q FILE CMD ... (BSD, macOS)."""
    opts = _set("-O", "--log-out", "-I", "--log-in", "-B", "--log-io", "-T", "--log-timing", "-E",
                "--echo", "-m", "--logging-format", "-F")
    strings = _set("-c", "--command")
    n = len(words)
    j = i
    files = 0
    while j < n:
        word = words[j]
        if len(word) > 1 and word[0] == "-" and type(word) is not Dyn:
            kind, width, value = scan_option(words, j, opts, strings)
            if kind == "string":
                if value and parse.parse_script(script_text(value), ctx, level):
                    return
                break
            j += width
            continue
        files += 1
        if files == 2:
            run(words, j, ctx, level, stdin)
            return
        j += 1
    _emit(name, ctx, level)


def taskset_rule(words: Sequence[str], i: int, ctx: Ctx, level: int, stdin: str | None,
                 name: str) -> None:
    n = len(words)
    j = i
    listed = False
    while j < n and words[j].startswith("-") and len(words[j]) > 1:
        word = words[j]
        if word in ("-p", "--pid") or (not word.startswith("--") and "p" in word[1:]):
            _emit(name, ctx, level)
            return
        if word in ("-c", "--cpu-list"):
            listed = True
            j += 2
            continue
        if not word.startswith("--") and word.endswith("c"):
            listed = True
            j += 2
            continue
        j += 1
    if not listed:
        j += 1  # the mask
    if j < n:
        run(words, j, ctx, level, stdin)
    else:
        _emit(name, ctx, level)


def parallel_rule(words: Sequence[str], i: int, ctx: Ctx, level: int, stdin: str | None,
                  name: str) -> None:
    """GNU parallel [opts] TEMPLATE ::: args: the template is a command (often one string)."""
    opts = _set("-j", "--jobs", "-S", "--sshlogin", "--joblog", "--results", "--tmpdir", "-d",
                "--delimiter", "-E", "-a", "--arg-file", "--colsep", "-N", "-n", "--max-args",
                "-L", "--max-lines", "--timeout", "--retries", "--delay", "--halt", "--memfree",
                "--load", "-I", "--workdir", "--basefile", "--env", "--tagstring", "-P")
    j = skip_opts(words, i, opts)
    end = j
    while end < len(words) and words[end] not in (":::", "::::", ":::+", "::::+"):
        end += 1
    template = words[j:end]
    if not template:
        _emit(name, ctx, level)
    elif len(template) == 1:
        if not parse.parse_script(script_text(template[0]), ctx, level):
            _emit(name, ctx, level)
    else:
        run(template, 0, ctx, level, None)


RULES["flock"] = flock_rule
RULES["su"] = su_rule
RULES["runuser"] = su_rule
RULES["script"] = script_rule
RULES["taskset"] = taskset_rule
RULES["parallel"] = parallel_rule
