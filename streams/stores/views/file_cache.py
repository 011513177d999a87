"""Rows read per file, kept while the views do not change: what search reads of the files it
answers with, which rank again query after query (a C header declares thousands of names)."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from typing import Any, Generic, TypeVar

from streams.stores.views.store import ViewStore

Row = TypeVar("Row")
# path -> its rows, for the files of `paths` that have any (one read for all of them)
Reader = Callable[[sqlite3.Connection, str, Sequence[str]], dict[str, list[Row]]]


# The rows of files too large for a cache, read during one answer (one_answer), by cache
_ANSWER_ROWS: ContextVar[dict[tuple[int, str, str], list[Any]] | None] = ContextVar(
    "answer_rows", default=None
)


@contextlib.contextmanager
def one_answer() -> Iterator[None]:
    """Within it (and the threads asyncio.to_thread starts from it), a file too large for its
    cache is read once, not once per step that needs it: one search names a generated
    module's 30,000 declarations for its reasons and again for its lines."""
    token = _ANSWER_ROWS.set({})
    try:
        yield
    finally:
        _ANSWER_ROWS.reset(token)


class FileRowsCache(Generic[Row]):
    """The rows `read` gives recently read files, for as long as the views do not change.

    An entry holds while the store's write generation (ViewStore.generation) stays at the even
    value it had before the entry was read and after; any write empties the cache. Bounded by
    rows, least recently used first out; a file of more than a quarter of the bound is read
    every time, so one file cannot empty the cache."""

    def __init__(self, store: ViewStore, read: Reader[Row], max_rows: int) -> None:
        self._store = store
        self._read = read
        self._max_rows = max_rows
        self._lock = threading.Lock()
        self._files: OrderedDict[tuple[str, str], list[Row]] = OrderedDict()
        self._rows = 0
        self._generation = -1

    def of_files(
        self, conn: sqlite3.Connection, repo_id: str, paths: Sequence[str]
    ) -> dict[str, list[Row]]:
        """path -> its rows, for the files of `paths` that have any (do not change the lists:
        they are the cache's)."""
        generation = self._store.generation
        out: dict[str, list[Row]] = {}
        missing: list[str] = []
        with self._lock:
            if generation != self._generation:
                self._files.clear()
                self._rows, self._generation = 0, generation
            for path in paths:
                found = self._files.get((repo_id, path))
                if found is None:
                    missing.append(path)
                elif found:
                    self._files.move_to_end((repo_id, path))
                    out[path] = found
        answer = _ANSWER_ROWS.get()
        if answer is not None and missing:
            missing = self._from_answer(answer, repo_id, missing, out)
        if not missing:
            return out
        read = self._read(conn, repo_id, missing)
        out.update(read)
        if generation % 2 == 0 and self._store.generation == generation:
            self._keep(generation, repo_id, [(p, read.get(p, [])) for p in missing])
        if answer is not None:
            for path, rows in read.items():
                if len(rows) > self._max_rows // 4:  # what the cache will not keep
                    answer[(id(self), repo_id, path)] = rows
        return out

    def _from_answer(
        self,
        answer: dict[tuple[int, str, str], list[Any]],
        repo_id: str,
        paths: list[str],
        out: dict[str, list[Row]],
    ) -> list[str]:
        """The paths of `paths` this answer has not read yet; the others' rows into `out`."""
        left: list[str] = []
        for path in paths:
            rows = answer.get((id(self), repo_id, path))
            if rows is None:
                left.append(path)
            else:
                out[path] = rows
        return left

    def _keep(self, generation: int, repo_id: str, files: list[tuple[str, list[Row]]]) -> None:
        with self._lock:
            if generation != self._generation:
                return
            for path, rows in files:
                if len(rows) > self._max_rows // 4:
                    continue  # one file must not empty the cache
                old = self._files.pop((repo_id, path), None)
                self._rows += len(rows) - (len(old) if old is not None else 0)
                self._files[(repo_id, path)] = rows
            while self._rows > self._max_rows:
                _, dropped = self._files.popitem(last=False)
                self._rows -= len(dropped)


class PerStoreCaches(Generic[Row]):
    """One FileRowsCache per view store, made on first use and gone with its store."""

    def __init__(self, read: Reader[Row], max_rows: int) -> None:
        self._read = read
        self._max_rows = max_rows
        self._lock = threading.Lock()
        self._caches: weakref.WeakKeyDictionary[ViewStore, FileRowsCache[Row]] = (
            weakref.WeakKeyDictionary()
        )

    def of(self, store: ViewStore) -> FileRowsCache[Row]:
        with self._lock:
            found = self._caches.get(store)
            if found is None:
                found = self._caches[store] = FileRowsCache(store, self._read, self._max_rows)
            return found
