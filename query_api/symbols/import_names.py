"""Python declarations named as code imports them, in outline, related and changed answers.

The symbol views key a Python declaration by its file's path (`src.flask.testing.FlaskClient`
for src/flask/testing.py), which is unique and what the resolver matches on; an agent that
copies the name into an import needs `flask.testing.FlaskClient`. The leading folders of the
path that hold no `__init__.py` (a source folder such as `src`, `lib`) are no package, so they
are left out of the name shown, by the rule search and the context bundle use too
(processors/symbols/languages/python.import_name). Other languages' names are shown as they are.
"""

from __future__ import annotations

from processors.symbols.languages.python import PYTHON_SUFFIXES, import_name
from streams.stores.views.symbols import SymbolViews


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
