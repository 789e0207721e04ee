"""Runners and environment wrappers: `npx pkg`, `uvx tool`, `uv run CMD`, `python -m X`, ...

A package runner makes the package the program: `npx prisma migrate dev` is `prisma migrate dev`.
The package spec is reduced to a name (`create-next-app@latest` -> `create-next-app`,
`black==24.1` -> `black`), and a scoped npm package counts only when the shipped allowlist maps it to
a program (`@angular/cli` -> `ng`); anything else is an unknown program and becomes the neutral
token. An environment wrapper (`uv run`, `poetry run`, `bundle exec`, `conda run -n env`) is seen
through to the command it runs.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from redact.verbs import parse
from redact.verbs.ctx import INNER, Ctx, Dyn, Hit, script_text
from redact.verbs.names import basename, lookup
from redact.verbs.resolve import HOOKS, RULES, Hook, Rule, is_option, program_hit, run, skip_opts
from redact.verbs.vocab import Vocabulary
from redact.verbs.wrappers import scan_option


def _set(*names: str) -> frozenset[str]:
    return frozenset(names)


_EMPTY: frozenset[str] = frozenset()

#: (words, index of the package word, ctx, level, hit to add when nothing runs)
PackageRunner = Callable[[Sequence[str], int, Ctx, int, Hit], None]


# -- package specs ------------------------------------------------------------------------------------
def npm_program(spec: str, vocab: Vocabulary) -> tuple[str | None, str]:
    """(vocabulary program or None, the name to hash when unknown) for an npm package spec."""
    if spec.startswith("@"):
        at = spec.find("@", 1)
        base = spec[:at] if at > 0 else spec
        return vocab.npm_packages.get(base), base
    base = spec.split("@", 1)[0]
    if not base or "/" in base or ":" in base or "\\" in base or base.startswith("."):
        return None, base or spec
    found = vocab.npm_packages.get(base)
    return (found or lookup(base, vocab)), base


_PEP508_CUT = re.compile(r"[=<>!~\[@; (]")


def pypi_program(spec: str, vocab: Vocabulary) -> tuple[str | None, str]:
    base = _PEP508_CUT.split(spec, 1)[0]
    if not base or "/" in base or ":" in base or "\\" in base or base.startswith("."):
        return None, base or spec
    key = base.lower().replace("_", "-")
    found = vocab.py_packages.get(key)
    return (found or lookup(key, vocab)), base


def _run_as(program: str | None, hash_as: str, words: Sequence[str], j: int, ctx: Ctx,
            level: int) -> None:
    """Run words[j:] with the program word replaced by a vocabulary name (or as unknown)."""
    if program is None:
        ctx.add(Hit(None, hash_as, level))
    else:
        run([program, *words[j + 1:]], 0, ctx, level, None)


def package_runner(registry: str, opts: frozenset[str], strings: frozenset[str] = _EMPTY,
                   package_opts: frozenset[str] = _EMPTY) -> PackageRunner:
    """npx / pnpm dlx / bunx / uvx / pipx run: the next positional is a package (or its bin)."""
    def run_package(words: Sequence[str], j: int, ctx: Ctx, level: int, fallback: Hit) -> None:
        n = len(words)
        while j < n:
            word = words[j]
            if word == "--":
                j += 1
                break
            if not is_option(word) or type(word) is Dyn:
                break
            kind, width, value = scan_option(words, j, opts | package_opts, strings)
            if kind == "string":
                if value is None or not parse.parse_script(script_text(value), ctx, level):
                    ctx.add(fallback)
                return
            j += width
        if j >= n:
            ctx.add(fallback)
            return
        spec = words[j]
        if type(spec) is Dyn:
            ctx.add(Hit(None, spec, level))
            return
        if registry == "npm":
            program, hash_as = npm_program(spec, ctx.vocab)
        else:
            program, hash_as = pypi_program(spec, ctx.vocab)
        _run_as(program, hash_as, words, j, ctx, level)

    return run_package


_NPX = package_runner(
    "npm", _set("--cache", "--userconfig", "--registry", "-w", "--workspace", "--prefix", "--node-options",
                "--shell", "--script-shell"),
    _set("-c", "--call"), _set("-p", "--package"))
_UVX = package_runner(
    "pypi", _set("--from", "--with", "--with-editable", "--with-requirements", "--python", "-p",
                 "--index", "--index-url", "--extra-index-url", "-i", "--find-links", "-f", "--directory",
                 "--cache-dir", "--config-file", "--python-preference", "--color", "--env-file",
                 "--constraints", "-c", "--overrides", "--build-constraints", "-b", "--refresh-package",
                 "--upgrade-package", "-P", "--reinstall-package", "--exclude-newer",
                 "--prerelease", "--resolution", "--link-mode", "--index-strategy", "--keyring-provider",
                 "--config-setting", "-C", "--allow-insecure-host", "--project"))
_PIPX = package_runner("pypi", _set("--spec", "--python", "--index-url", "-i", "--pip-args"))


def _rule(runner: PackageRunner) -> Rule:
    def rule(words: Sequence[str], i: int, ctx: Ctx, level: int, stdin: str | None, name: str) -> None:
        runner(words, i, ctx, level, program_hit(name, ctx, level))
    return rule


def _hook(runner: PackageRunner) -> Hook:
    def hook(words: Sequence[str], j: int, ctx: Ctx, level: int, stdin: str | None, hit: Hit) -> None:
        runner(words, j, ctx, level, hit)
    return hook


def _plain_program(spec: str, vocab: Vocabulary) -> tuple[str | None, str]:
    return lookup(basename(spec), vocab), basename(spec)


for _name in ("npx", "pnpx", "bunx"):
    RULES[_name] = _rule(_NPX)
RULES["uvx"] = _rule(_UVX)
for _verb in ("npm exec", "npm x", "pnpm dlx", "pnpm exec", "yarn dlx", "yarn exec", "bun x", "bun exec"):
    HOOKS[_verb] = _hook(_NPX)
HOOKS["uv tool run"] = _hook(_UVX)
HOOKS["pipx run"] = _hook(_PIPX)


def _xcrun(words: Sequence[str], i: int, ctx: Ctx, level: int, stdin: str | None, name: str) -> None:
    j = skip_opts(words, i, _set("--sdk", "--toolchain", "-sdk", "-toolchain"))
    if j >= len(words) or type(words[j]) is Dyn:
        ctx.add(program_hit(name, ctx, level))
        return
    program, hash_as = _plain_program(words[j], ctx.vocab)
    _run_as(program, hash_as, words, j, ctx, level)


RULES["xcrun"] = _xcrun


def _corepack(words: Sequence[str], i: int, ctx: Ctx, level: int, stdin: str | None, name: str) -> None:
    j = skip_opts(words, i, _EMPTY)
    if j < len(words) and words[j] in ("npm", "pnpm", "yarn", "pnpx", "npx"):
        run(words, j, ctx, level, stdin)
        return
    from redact.verbs.resolve import run_program  # the ordinary table: corepack enable, ...
    run_program(ctx.vocab.programs[name], words, i, ctx, level, stdin)


RULES["corepack"] = _corepack


# -- environment wrappers after a subcommand ----------------------------------------------------------
def env_wrapper(opts: frozenset[str], positional: int = 0, dashes: bool = False,
                scripts: bool = False, strings: frozenset[str] = _EMPTY, python: bool = False) -> Hook:
    """uv run / poetry run / bundle exec / conda run -n ENV / rustup run TOOLCHAIN / op run -- CMD.

    dashes: the command follows `--` only (mise exec TOOLS -- CMD). scripts: a name that is not a known
    program is a project script, so the verb stays the wrapper's own (pdm run test). python: a `.py`
    file or `-m module` means python (uv run script.py).
    """
    def hook(words: Sequence[str], j: int, ctx: Ctx, level: int, stdin: str | None, hit: Hit) -> None:
        n = len(words)
        if dashes:
            for k in range(j, n):
                if words[k] == "--":
                    if k + 1 < n:
                        run(words, k + 1, ctx, level, stdin)
                        return
                    break
            ctx.add(hit)
            return
        k = j
        while k < n:
            word = words[k]
            if word == "--":
                k += 1
                break
            if not is_option(word) or type(word) is Dyn:
                break
            if python and word in ("-m", "--module"):
                run(["python", *words[k:]], 0, ctx, level, stdin)
                return
            kind, width, value = scan_option(words, k, opts, strings)
            if kind == "string":
                if value is None or not parse.parse_script(script_text(value), ctx, level):
                    ctx.add(hit)
                return
            k += width
        k += positional
        if k < n and positional and words[k] == "--":
            k += 1
        if k >= n:
            ctx.add(hit)
            return
        word = words[k]
        if python and type(word) is not Dyn and word.endswith((".py", ".pyw")):
            run(["python", *words[k:]], 0, ctx, level, stdin)
            return
        if scripts and (type(word) is Dyn or ":" in word or lookup(basename(word), ctx.vocab) is None):
            ctx.add(hit)
            return
        run(words, k, ctx, level, stdin)
    return hook


_UV_RUN = _set("--with", "--with-editable", "--with-requirements", "--directory", "--project", "--python",
               "-p", "--extra", "--group", "--only-group", "--no-group", "--env-file", "--package",
               "--index", "--index-url", "--extra-index-url", "-i", "--find-links", "-f", "--cache-dir",
               "--config-file", "--color", "--python-preference", "--prerelease", "--resolution",
               "--link-mode", "--index-strategy", "--keyring-provider", "--config-setting", "-C",
               "--refresh-package", "--upgrade-package", "-P", "--reinstall-package",
               "--exclude-newer", "--no-binary-package", "--no-build-package", "--allow-insecure-host",
               "--constraints", "--overrides")
HOOKS["uv run"] = env_wrapper(_UV_RUN, python=True)
HOOKS["poetry run"] = env_wrapper(_set("-C", "--directory", "-P", "--project"), python=True)
HOOKS["pipenv run"] = env_wrapper(_EMPTY, python=True)
for _verb in ("conda run", "mamba run", "micromamba run"):
    HOOKS[_verb] = env_wrapper(_set("-n", "--name", "-p", "--prefix", "--cwd", "-r", "--root-prefix"),
                               python=True)
HOOKS["pdm run"] = env_wrapper(_set("-p", "--project", "--venv"), scripts=True, python=True)
HOOKS["hatch run"] = env_wrapper(_EMPTY, scripts=True, python=True)
HOOKS["rye run"] = env_wrapper(_EMPTY, scripts=True, python=True)
HOOKS["pixi run"] = env_wrapper(_set("-e", "--environment", "--manifest-path"), scripts=True)
HOOKS["devbox run"] = env_wrapper(_set("-c", "--config", "-e", "--env", "--env-file"), scripts=True)
HOOKS["bundle exec"] = env_wrapper(_set("--gemfile"))
HOOKS["rustup run"] = env_wrapper(_set("--install"), positional=1)
HOOKS["nvm exec"] = env_wrapper(_EMPTY, positional=1)
HOOKS["nvm run"] = env_wrapper(_EMPTY, positional=1)
HOOKS["direnv exec"] = env_wrapper(_EMPTY, positional=1)
HOOKS["aws-vault exec"] = env_wrapper(_set("-d", "--duration", "-t", "--mfa-token", "--region",
                                           "--ec2-server", "--ecs-server", "-n", "--prompt"), positional=1)
for _verb in ("pyenv exec", "rbenv exec", "asdf exec", "railway run", "infisical run"):
    HOOKS[_verb] = env_wrapper(_set("--env", "-e", "--service", "-s", "--projectId", "--path"))
HOOKS["heroku run"] = env_wrapper(_set("-a", "--app", "-r", "--remote", "-s", "--size", "-e", "--env",
                                       "--type"))
HOOKS["volta run"] = env_wrapper(_set("--node", "--npm", "--pnpm", "--yarn", "--env"))
HOOKS["fnm exec"] = env_wrapper(_set("--using"))
HOOKS["mise exec"] = env_wrapper(_EMPTY, dashes=True)
HOOKS["mise x"] = env_wrapper(_EMPTY, dashes=True)
HOOKS["op run"] = env_wrapper(_EMPTY, dashes=True)
HOOKS["dotenvx run"] = env_wrapper(_EMPTY, dashes=True)
HOOKS["doppler run"] = env_wrapper(_set("-p", "--project", "-c", "--config", "--token", "--scope",
                                        "--mount", "--name-transformer", "--fallback"),
                                   strings=_set("--command"))
_DOTENV = env_wrapper(_set("-e", "-v", "-p", "-c"))


def _dotenv(words: Sequence[str], i: int, ctx: Ctx, level: int, stdin: str | None, name: str) -> None:
    """dotenv-cli: dotenv [-e FILE]... [--] CMD."""
    _DOTENV(words, i, ctx, level, stdin, program_hit(name, ctx, level))


RULES["dotenv"] = _dotenv


def _nix_command(words: Sequence[str], j: int, ctx: Ctx, level: int, stdin: str | None, hit: Hit) -> None:
    """nix develop [INSTALLABLE] -c CMD ...; nix shell PKGS... -c CMD ...: the rest after -c/--command."""
    for k in range(j, len(words)):
        if words[k] in ("-c", "--command") and k + 1 < len(words):
            run(words, k + 1, ctx, level, stdin)
            return
    ctx.add(hit)


HOOKS["nix develop"] = _nix_command
HOOKS["nix shell"] = _nix_command


def _nix_shell(words: Sequence[str], i: int, ctx: Ctx, level: int, stdin: str | None, name: str) -> None:
    """nix-shell [-p pkgs] --run STRING / --command STRING."""
    n = len(words)
    for k in range(i, n - 1):
        if words[k] in ("--run", "--command"):
            if parse.parse_script(script_text(words[k + 1]), ctx, level):
                return
            break
    ctx.add(program_hit(name, ctx, level))


RULES["nix-shell"] = _nix_shell


def _yarn_workspace(words: Sequence[str], j: int, ctx: Ctx, level: int, stdin: str | None,
                    hit: Hit) -> None:
    """yarn workspace NAME CMD...: the workspace name is a value, then it is yarn CMD."""
    k = skip_opts(words, j, _EMPTY) + 1
    if k < len(words):
        run(["yarn", *words[k:]], 0, ctx, level, stdin)
    else:
        ctx.add(hit)


HOOKS["yarn workspace"] = _yarn_workspace


def _coverage_run(words: Sequence[str], j: int, ctx: Ctx, level: int, stdin: str | None, hit: Hit) -> None:
    """coverage run -m pytest: coverage keeps its verb; the module runs at the INNER level."""
    ctx.add(hit)
    opts = _set("--rcfile", "--source", "--omit", "--include", "--concurrency", "--context",
                "--data-file", "--debug")
    n = len(words)
    k = j
    while k < n and is_option(words[k]):
        if words[k] == "-m" and k + 1 < n:
            run(["python", *words[k:]], 0, ctx, max(level, INNER), None)
            return
        k += 2 if words[k] in opts else 1


HOOKS["coverage run"] = _coverage_run


# -- interpreters ---------------------------------------------------------------------------------------
def python_rule(words: Sequence[str], i: int, ctx: Ctx, level: int, stdin: str | None, name: str) -> None:
    """python -m MODULE (a known module is the program), python manage.py CMD, python FILE."""
    n = len(words)
    j = i
    while j < n:
        word = words[j]
        if type(word) is Dyn or word == "-" or not word.startswith("-") or len(word) < 2:
            break
        if word == "--":
            j += 1
            break
        if word.startswith("--"):
            j += 1
            continue
        for k in range(1, len(word)):
            char = word[k]
            if char == "m":
                module = word[k + 1:] or (words[j + 1] if j + 1 < n else "")
                start = j + (1 if word[k + 1:] else 2)
                _python_module(module, words, start, ctx, level, stdin, name)
                return
            if char == "c":
                ctx.add(program_hit(name, ctx, level))
                return
            if char in "WXQ":
                j += 0 if word[k + 1:] else 1
                break
        j += 1
    if j < n and type(words[j]) is not Dyn and basename(words[j]) == "manage.py":
        run(["manage.py", *words[j + 1:]], 0, ctx, level, stdin)
        return
    ctx.add(program_hit(name, ctx, level))


def _python_module(module: str, words: Sequence[str], start: int, ctx: Ctx, level: int,
                   stdin: str | None, name: str) -> None:
    program = ctx.vocab.py_modules.get(module) if type(module) is str else None
    if program is None:
        ctx.add(program_hit(name, ctx, level))
    else:
        run([program, *words[start:]], 0, ctx, level, stdin)


RULES["python"] = python_rule


def interpreter_rule(words: Sequence[str], i: int, ctx: Ctx, level: int, stdin: str | None,
                     name: str) -> None:
    """node/php/ruby running a known tool's script: php artisan X, node node_modules/.bin/jest."""
    j = skip_opts(words, i, _set("-r", "--require", "--import", "--loader", "-c", "-d", "-I", "-e",
                                 "--eval", "-p", "--print", "--env-file", "--experimental-loader"))
    if j < len(words) and type(words[j]) is not Dyn:
        path = words[j]
        base = basename(path)
        tool_path = "/bin/" in path or "/.bin/" in path or path.startswith(("bin/", ".bin/"))
        known = lookup(base, ctx.vocab) if tool_path or base == "artisan" else None
        if known is not None and known not in ("node", "php", "ruby", "console"):
            run([known, *words[j + 1:]], 0, ctx, level, stdin)
            return
    from redact.verbs.resolve import run_program
    run_program(ctx.vocab.programs[name], words, i, ctx, level, stdin)


for _name in ("node", "php", "ruby"):
    RULES[_name] = interpreter_rule
