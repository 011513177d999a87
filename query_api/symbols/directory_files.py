"""Which files under a directory a note names when a directory is given where a file is
wanted (outline, related): the ones those tools say something of. The first files by path
were a package's CHANGELOG.md, LICENSE and README.md (feathers' packages/koa), which declare
and import nothing; its src/index.ts is where an agent goes on."""

from __future__ import annotations

from processors.path_roles import Role, role_of

MAX_DIRECTORY_SCAN = 500  # files under the directory read to choose from (one bounded read)
_ENTRY_STEMS = frozenset({"index", "mod", "__init__", "main", "lib"})


def code_first(paths: list[str], count: int) -> list[str]:
    """`count` of `paths`: source files first, then tests, then the rest; of each, the
    shallowest first, an entry file (`index.ts`, `__init__.py`, `mod.rs`) before its
    neighbours, then by path."""

    def key(path: str) -> tuple[int, int, bool, str]:
        role = role_of(path)
        rank = 0 if role == Role.SOURCE else 1 if role == Role.TEST else 2
        stem = path.rpartition("/")[2].split(".", 1)[0]
        return rank, path.count("/"), stem not in _ENTRY_STEMS, path

    return sorted(paths, key=key)[:count]
