"""Hosts: programs that keep their own verb and run another command at the INNER level.

`ssh host CMD`, `find -exec CMD ;`, `docker exec CTR CMD`, `kubectl exec POD -- CMD`,
`git bisect run CMD`, `hyperfine 'a' 'b'`: the host's verb is the event's verb, and the inner command's
verbs follow in `verbs` (they count for `verify`, never for the main verb). `ssh` itself is described
as a wrapper table in `wrappers.py` (host=True).
"""
from __future__ import annotations

from collections.abc import Sequence

from redact.verbs import parse
from redact.verbs.ctx import INNER, Ctx, Dyn, Hit, script_text
from redact.verbs.resolve import HOOKS, RULES, Hook, Rule, option_width, program_hit, run, skip_opts
from redact.verbs.wrappers import option_name


def _set(*names: str) -> frozenset[str]:
    return frozenset(names)


def _emit(name: str, ctx: Ctx, level: int) -> None:
    ctx.add(program_hit(name, ctx, level))


def find_rule(words: Sequence[str], i: int, ctx: Ctx, level: int, stdin: str | None,
              name: str) -> None:
    """find ... -exec CMD {} \\; : find keeps its verb, each CMD runs at the INNER level."""
    _emit(name, ctx, level)
    n = len(words)
    j = i
    while j < n:
        if words[j] in ("-exec", "-execdir", "-ok", "-okdir"):
            k = j + 1
            while k < n and words[k] not in (";", "+"):
                k += 1
            first = len(ctx.hits)
            run(words[j + 1:k], 0, ctx, max(level, INNER), None)
            for hit in ctx.hits[first:]:
                hit.files = ()  # its operands are what find found (`{}`), never a path of the line
            j = k
        j += 1


def each_string_host(opts: frozenset[str], strings: frozenset[str]) -> Rule:
    """hyperfine 'cmd a' 'cmd b', concurrently 'x' 'y': every positional is a command string."""
    def rule(words: Sequence[str], i: int, ctx: Ctx, level: int, stdin: str | None, name: str) -> None:
        _emit(name, ctx, level)
        inner = max(level, INNER)
        n = len(words)
        j = i
        while j < n:
            word = words[j]
            if len(word) > 1 and word[0] == "-" and type(word) is not Dyn:
                opt, glued = option_name(word)
                if opt in strings:
                    value = glued if glued is not None else (words[j + 1] if j + 1 < n else "")
                    parse.parse_script(script_text(value), ctx, inner)
                j += option_width(word, opts | strings)
                continue
            text = script_text(word)
            if text.startswith(("npm:", "pnpm:", "yarn:", "bun:")):
                run([text.split(":", 1)[0], "run", text.split(":", 1)[1]], 0, ctx, inner, None)
            else:
                parse.parse_script(text, ctx, inner)
            j += 1
    return rule


RULES["find"] = find_rule
RULES["gfind"] = find_rule
RULES["hyperfine"] = each_string_host(
    _set("-w", "--warmup", "-r", "--runs", "-m", "--min-runs", "-M", "--max-runs", "-n",
         "--command-name", "--export-json", "--export-csv", "--export-markdown", "--export-asciidoc",
         "--export-orgmode", "-S", "--shell", "-u", "--time-unit", "--style", "--sort", "-o",
         "--output", "--input", "-L", "--parameter-list", "-D", "--parameter-step-size"),
    _set("-p", "--prepare", "-c", "--cleanup", "-s", "--setup", "--conclude"))
RULES["concurrently"] = each_string_host(
    _set("-n", "--names", "-c", "--prefix-colors", "-p", "--prefix", "-s", "--success", "-m",
         "--max-processes", "-t", "--timestamp-format", "--restart-tries", "--restart-after", "-l",
         "--prefix-length", "--name-separator", "--default-input-target", "--handle-input"),
    frozenset())


# -- hosts that run a command inside another environment ------------------------------------------------
def inner_after(opts: frozenset[str], values: int = 1) -> Hook:
    """docker exec [opts] CONTAINER CMD...: the verb, then CMD at the INNER level."""
    def hook(words: Sequence[str], j: int, ctx: Ctx, level: int, stdin: str | None, hit: Hit) -> None:
        ctx.add(hit)
        k = skip_opts(words, j, opts) + values
        if k < len(words):
            run(words, k, ctx, max(level, INNER), None)
    return hook


def inner_after_dashes(words: Sequence[str], j: int, ctx: Ctx, level: int, stdin: str | None,
                       hit: Hit) -> None:
    """kubectl exec POD -- CMD: only what follows `--` is a command."""
    ctx.add(hit)
    for k in range(j, len(words)):
        if words[k] == "--":
            run(words, k + 1, ctx, max(level, INNER), None)
            return


def inner_string(opts: frozenset[str]) -> Hook:
    """adb shell 'pm list packages', git submodule foreach 'git pull': the rest is a command line."""
    def hook(words: Sequence[str], j: int, ctx: Ctx, level: int, stdin: str | None, hit: Hit) -> None:
        ctx.add(hit)
        k = skip_opts(words, j, opts)
        if k < len(words):
            parse.parse_script(" ".join(script_text(w) for w in words[k:]), ctx, max(level, INNER))
    return hook


def inner_option(names: frozenset[str]) -> Hook:
    """git rebase -x 'make test': the value of these options is a command string."""
    def hook(words: Sequence[str], j: int, ctx: Ctx, level: int, stdin: str | None, hit: Hit) -> None:
        ctx.add(hit)
        n = len(words)
        for k in range(j, n):
            opt, glued = option_name(words[k]) if words[k].startswith("-") else ("", None)
            if opt in names:
                value = glued if glued is not None else (words[k + 1] if k + 1 < n else "")
                parse.parse_script(script_text(value), ctx, max(level, INNER))
    return hook


def inner_run(words: Sequence[str], j: int, ctx: Ctx, level: int, stdin: str | None, hit: Hit) -> None:
    """git bisect run CMD ...: the rest is a command."""
    ctx.add(hit)
    run(words, j, ctx, max(level, INNER), None)


_DOCKER_EXEC = _set("-e", "--env", "--env-file", "-u", "--user", "-w", "--workdir", "--detach-keys")
_DOCKER_RUN = _set(
    "-a", "--attach", "--add-host", "--annotation", "--blkio-weight", "--blkio-weight-device",
    "--cap-add", "--cap-drop", "--cgroup-parent", "--cgroupns", "--cidfile", "--cpu-period",
    "--cpu-quota", "--cpu-rt-period", "--cpu-rt-runtime", "-c", "--cpu-shares", "--cpus",
    "--cpuset-cpus", "--cpuset-mems", "--detach-keys", "--device", "--device-cgroup-rule",
    "--device-read-bps", "--device-read-iops", "--device-write-bps", "--device-write-iops",
    "--dns", "--dns-option", "--dns-search", "--domainname", "--entrypoint", "-e", "--env",
    "--env-file", "--expose", "--gpus", "--group-add", "--health-cmd", "--health-interval",
    "--health-retries", "--health-start-period", "--health-timeout", "-h", "--hostname", "--ip",
    "--ip6", "--ipc", "--isolation", "--kernel-memory", "-l", "--label", "--label-file", "--link",
    "--link-local-ip", "--log-driver", "--log-opt", "--mac-address", "-m", "--memory",
    "--memory-reservation", "--memory-swap", "--memory-swappiness", "--mount", "--name", "--network",
    "--net", "--network-alias", "--oom-score-adj", "--pid", "--pids-limit", "--platform", "-p",
    "--publish", "--pull", "--restart", "--runtime", "--security-opt", "--shm-size", "--stop-signal",
    "--stop-timeout", "--storage-opt", "--sysctl", "--tmpfs", "--ulimit", "-u", "--user", "--userns",
    "--uts", "-v", "--volume", "--volume-driver", "--volumes-from", "-w", "--workdir")
_COMPOSE_RUN = _set("-e", "--env", "-u", "--user", "-w", "--workdir", "--index", "--name",
                    "--entrypoint", "-p", "--publish", "-v", "--volume", "-l", "--label", "--cap-add",
                    "--cap-drop", "--pull")

for _verb in ("docker exec", "docker container exec", "podman exec", "podman container exec",
              "nerdctl exec"):
    HOOKS[_verb] = inner_after(_DOCKER_EXEC)
for _verb in ("docker run", "docker container run", "podman run", "podman container run", "nerdctl run"):
    HOOKS[_verb] = inner_after(_DOCKER_RUN)
for _verb in ("docker compose exec", "docker compose run", "docker-compose exec", "docker-compose run",
              "podman compose exec", "podman compose run", "podman-compose exec", "podman-compose run"):
    HOOKS[_verb] = inner_after(_COMPOSE_RUN)
for _verb in ("kubectl exec", "oc exec", "kubectl debug", "minikube kubectl"):
    HOOKS[_verb] = inner_after_dashes
HOOKS["git bisect run"] = inner_run
HOOKS["git rebase"] = inner_option(_set("-x", "--exec"))
HOOKS["git submodule foreach"] = inner_string(_set())
HOOKS["adb shell"] = inner_string(_set())
HOOKS["git filter-branch"] = inner_option(_set("--tree-filter", "--index-filter", "--msg-filter",
                                               "--env-filter", "--commit-filter", "--parent-filter",
                                               "--tag-name-filter"))
