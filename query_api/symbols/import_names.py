"""Python declarations named as code imports them, in outline, related and changed answers.

The symbol views key a Python declaration by its file's path (`src.flask.testing.FlaskClient`
for src/flask/testing.py), which is unique and what the resolver matches on; an agent that
copies the name into an import needs `flask.testing.FlaskClient`. The leading folders of the
path that hold no `__init__.py` (a source folder such as `src`, `lib`) are no package, so they
are left out of the name shown; the name search shows follows the same rule
(query_api/retrieval/hit_details.py). Other languages' names are shown as they are.
"""

from __future__ import annotations

from streams.stores.views.symbols import SymbolViews

PYTHON_SUFFIXES = (".py", ".pyi")


def import_name(fq: str, path: str, packages: set[str]) -> str:
    """`fq` (declared in `path`) without the path's leading folders that are not packages;
    `packages` holds the folders above `path` that have an indexed `__init__.py`."""
    if not path.endswith(PYTHON_SUFFIXES):
        return fq
    dirs = path.split("/")[:-1]
    keep = len(dirs)
    while keep > 0 and "/".join(dirs[:keep]) in packages:
        keep -= 1
    prefix = ".".join(dirs[:keep])
    if prefix and fq.startswith(prefix + "."):
        return fq[len(prefix) + 1 :]
    return fq


class ImportNames:
    """The import names of one answer's declarations; which folders are packages is read
    from the views once per folder (one bounded point read per distinct directory)."""

    def __init__(self, symbols: SymbolViews, repo_id: str) -> None:
        self.symbols = symbols
        self.repo_id = repo_id
        self._packages: dict[str, set[str]] = {}  # a file's directory -> its package folders

    def packages_above(self, path: str) -> set[str]:
        directory = path.rpartition("/")[0]
        if directory not in self._packages:
            dirs = directory.split("/") if directory else []
            wanted = ["/".join(dirs[: i + 1]) + "/__init__.py" for i in range(len(dirs))]
            found = self.symbols.indexed_paths(self.repo_id, wanted) if wanted else set()
            self._packages[directory] = {p.rsplit("/", 1)[0] for p in found}
        return self._packages[directory]

    def shown(self, fq: str, path: str) -> str:
        """`fq` as an agent imports it (see the module doc)."""
        if not path.endswith(PYTHON_SUFFIXES):
            return fq
        return import_name(fq, path, self.packages_above(path))
