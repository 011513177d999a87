"""A vector store opened after start-up, so the first keyword answers do not wait for it.

Opening the in-process Qdrant shard costs up to a second on a loaded machine (creating a
collection writes and syncs its payload indexes; some of that holds the GIL), and a server's
first searches are keyword searches anyway. `OpeningVectorStore` opens its store when asked
(`open()`, from a thread) or on first use by a writer; `QueryStoreView` is the same store as
the query side sees it: until the store is open each call refuses at once with
`VectorStoreOpening`, a `VectorStoreUnavailable`, so the retrieval ladder answers from the
keyword rung and says why, instead of waiting (and if the opening failed, a
`VectorStoreUnavailable` that says why).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from streams.embedders.base import EmbeddingSpace
from streams.stores.vectors import (
    IndexState,
    VectorMatch,
    VectorPoint,
    VectorStore,
    VectorStoreUnavailable,
)


class VectorStoreOpening(VectorStoreUnavailable):
    """The store is not open yet: a query answers from the keyword rung meanwhile."""

    def __init__(self) -> None:
        super().__init__("the vector store is still opening")


class OpeningVectorStore:
    """A `VectorStore` whose store is built by `opener` on `open()` or on first use
    (blocking: the callers are the vector step's threads and start-up's opening thread)."""

    def __init__(self, space: EmbeddingSpace, opener: Callable[[], VectorStore]) -> None:
        self.space = space
        self._opener = opener
        self._store: VectorStore | None = None
        self._lock = threading.Lock()
        self._closed = False
        self.error: str | None = None  # why the last opening failed (a later one may work)

    @property
    def is_open(self) -> bool:
        return self._store is not None

    @property
    def opened(self) -> VectorStore | None:
        """The store itself once open (None before)."""
        return self._store

    def open(self) -> VectorStore:
        store = self._store
        if store is not None:
            return store
        with self._lock:
            if self._closed:
                raise VectorStoreUnavailable("the vector store is closed")
            if self._store is None:
                try:
                    self._store = self._opener()
                except Exception as exc:
                    self.error = f"{type(exc).__name__}: {exc}"
                    raise
                self.error = None
            return self._store

    def upsert(self, points: Sequence[VectorPoint]) -> None:
        self.open().upsert(points)

    def payloads(self, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        return self.open().payloads(ids)

    def points(self, ids: Sequence[str]) -> list[VectorPoint]:
        return self.open().points(ids)

    def delete_ids(self, ids: Sequence[str]) -> None:
        self.open().delete_ids(ids)

    def retain(self, repo_id: str, kind: str, path: str, keep: Sequence[str]) -> None:
        self.open().retain(repo_id, kind, path, keep)

    def delete_repo(self, repo_id: str) -> None:
        self.open().delete_repo(repo_id)

    def search(
        self, vector: Sequence[float], limit: int, *, repo_id: str | None, exact: bool
    ) -> list[VectorMatch]:
        return self.open().search(vector, limit, repo_id=repo_id, exact=exact)

    def count(self, *, repo_id: str | None = None, kind: str | None = None) -> int:
        return self.open().count(repo_id=repo_id, kind=kind)

    def sources(self, *, repo_id: str, kind: str) -> int:
        return self.open().sources(repo_id=repo_id, kind=kind)

    def state(self) -> IndexState:
        return self.open().state()

    def build_index(self) -> bool:
        return self.open().build_index()

    def close(self) -> None:
        """Closes the store if it was opened (waiting for an opening under way)."""
        with self._lock:
            self._closed = True
            store, self._store = self._store, None
        if store is not None:
            store.close()


class QueryStoreView:
    """The store as searches and coverage reads see it: the open store, or an immediate
    `VectorStoreOpening` (never a wait) while it is not open. Writes are not its business."""

    def __init__(self, store: OpeningVectorStore) -> None:
        self.space = store.space
        self._opening = store

    def _store(self) -> VectorStore:
        store = self._opening.opened
        if store is None and self._opening.error is not None:
            raise VectorStoreUnavailable(
                f"the vector store could not be opened: {self._opening.error}"
            )
        if store is None:
            raise VectorStoreOpening()
        return store

    def upsert(self, points: Sequence[VectorPoint]) -> None:
        self._store().upsert(points)

    def payloads(self, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        return self._store().payloads(ids)

    def points(self, ids: Sequence[str]) -> list[VectorPoint]:
        return self._store().points(ids)

    def delete_ids(self, ids: Sequence[str]) -> None:
        self._store().delete_ids(ids)

    def retain(self, repo_id: str, kind: str, path: str, keep: Sequence[str]) -> None:
        self._store().retain(repo_id, kind, path, keep)

    def delete_repo(self, repo_id: str) -> None:
        self._store().delete_repo(repo_id)

    def search(
        self, vector: Sequence[float], limit: int, *, repo_id: str | None, exact: bool
    ) -> list[VectorMatch]:
        return self._store().search(vector, limit, repo_id=repo_id, exact=exact)

    def count(self, *, repo_id: str | None = None, kind: str | None = None) -> int:
        return self._store().count(repo_id=repo_id, kind=kind)

    def sources(self, *, repo_id: str, kind: str) -> int:
        return self._store().sources(repo_id=repo_id, kind=kind)

    def state(self) -> IndexState:
        return self._store().state()

    def build_index(self) -> bool:
        return self._store().build_index()

    def close(self) -> None:
        """The opening store's owner closes it."""
