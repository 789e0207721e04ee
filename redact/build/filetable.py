"""The file table of one session: raw paths placed once, as a repository and a repo-relative path, or
a bucket label (`redact.apply.paths.locate`). Nothing but a repo-relative path or a bucket label leaves it."""
from __future__ import annotations

from redact.apply.paths import Located, locate


class FileTable:
    """Places raw paths. A place is `@label` for a bucket, else a key of `self.where`, which says
    which repository (`r0`, `r1`, ...) holds the file and its path relative to that repository's
    root. A file of the first repository is keyed by its relative path alone; one of a further
    repository by `rN` + NUL + its path (no file path holds a NUL)."""

    def __init__(self, roots: tuple[str, ...], cwd: str | None,
                 more: tuple[tuple[str, ...], ...] = (), rootless_repo: bool = False) -> None:
        self.roots = roots + tuple(r for rs in more for r in rs)
        self.cwd = cwd
        #: the repository is known (its remote) but not its folder: relative paths are inside it
        self.rootless_repo = rootless_repo
        self._repo_roots = [("r0", root) for root in roots] + \
            [(f"r{i + 1}", root) for i, rs in enumerate(more) for root in rs]
        self._repo_roots.sort(key=lambda item: len(item[1]), reverse=True)  # the longest root wins
        self._cache: dict[tuple[str, str | None], str] = {}
        self.where: dict[str, tuple[str, str]] = {}

    def place(self, raw: str, base: str | None = None) -> str:
        """A key of `where` for a repo file, `@label` for a bucket; a relative `raw` is taken from
        `base` (a shell call's working directory) when given, else from the session's."""
        key = (raw, base)
        place = self._cache.get(key)
        if place is None:
            cwd = base if base is not None else self.cwd
            loc = locate(raw, self.roots, cwd) if raw else Located(label="outside-repo")
            if loc.rel is not None and not self.roots and not self.rootless_repo:
                loc = Located(label="outside-repo")  # no repository known: nothing is repo-relative
            if loc.rel is None:
                place = "@" + (loc.label or "outside-repo")
            else:
                repo = self._repo_of(raw, cwd) if len(self._repo_roots) > 1 else "r0"
                place = loc.rel if repo == "r0" else f"{repo}\x00{loc.rel}"
                self.where[place] = (repo, loc.rel)
            self._cache[key] = place
        return place

    def _repo_of(self, raw: str, cwd: str | None) -> str:
        for repo, root in self._repo_roots:
            if locate(raw, (root,), cwd).rel is not None:
                return repo
        return "r0"
