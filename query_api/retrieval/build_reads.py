"""The symbol reads of one file-graph build, each made once.

A build asks every file's dependents in turn (file_graph.py), and the dependents of one file
after another look up the same names: a common name (`parse`, `string`) is declared in dozens
of files, and every file referencing it asks which of them declare it, decoding those files'
declarations again each time (486 lookups decoded 56,689 rows for zod's 620 files). The
views do not change under a build that is kept (a build over views that moved since is
rebuilt), so a build reads each name's declarations once, up to bounds that keep a large
repository's build from holding all its declarations.
"""

from __future__ import annotations

from collections.abc import Sequence

from streams.stores.views.store import ViewStore
from streams.stores.views.symbol_decls import Decl
from streams.stores.views.symbols import (
    MAX_LOOKUP,
    MAX_LOOKUP_TOTAL,
    SymbolRow,
    SymbolViews,
    symbols_named,
)

MAX_NAMED_ROWS = 200_000  # declarations one build keeps by name (~110 MiB at the most)
MAX_DECODED_FILES = 4_000  # files whose decoded declarations one build keeps


class BuildSymbolViews(SymbolViews):
    """SymbolViews whose lookups by name are remembered for the build that made it: the
    same answers as SymbolViews.symbols_named, each name read once."""

    def __init__(self, store: ViewStore) -> None:
        super().__init__(store)
        self._named: dict[tuple[str, str], list[SymbolRow]] = {}
        self._rows = 0
        self._decoded: dict[int, dict[str, list[Decl]]] = {}

    def symbols_named(self, repo_id: str, names: Sequence[str]) -> list[SymbolRow]:
        wanted = list(dict.fromkeys(names))
        missing = [n for n in wanted if (repo_id, n) not in self._named]
        if missing:
            self._read(repo_id, missing)
        if any((repo_id, n) not in self._named for n in wanted):  # past the bounds
            return super().symbols_named(repo_id, names)
        out: list[SymbolRow] = []
        for name in wanted:  # bounded as symbols_named bounds one call's names
            bound = min(MAX_LOOKUP, MAX_LOOKUP_TOTAL - len(out))
            out.extend(self._named[(repo_id, name)][:bound])
            if len(out) >= MAX_LOOKUP_TOTAL:
                break
        return out

    def _read(self, repo_id: str, names: list[str]) -> None:
        if len(self._decoded) > MAX_DECODED_FILES:
            self._decoded.clear()
        found = self.store.read(
            lambda c: {n: symbols_named(c, repo_id, [n], decoded=self._decoded) for n in names}
        )
        for name, rows in found.items():
            if self._rows + len(rows) > MAX_NAMED_ROWS:
                return
            self._named[(repo_id, name)] = rows
            self._rows += len(rows)
