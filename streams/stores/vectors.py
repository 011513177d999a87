"""The VectorStore seam (DESIGN §6): one small interface, two adapters, one contract suite.

- `EdgeVectorStore`: Qdrant's in-process engine (`qdrant-edge-py`), the embedded default.
  One shard directory per embedding space. Its `optimize()` (the HNSW build) holds the GIL for
  its whole run and only one process may open a shard, so `build_index()` copies the flushed
  shard, builds the copy in a child process, and swaps it in; searches keep answering from
  the live shard meanwhile. The caller (the vector step, the only writer) must not write
  during a build.
- `QdrantClientVectorStore`: a Qdrant server through `qdrant-client` (distributed mode);
  the contract suite runs it in qdrant-client's local mode and over HTTP against
  tests/qdrant_server.py (a REST facade over qdrant-edge, the engine a Qdrant server runs per
  shard; no server binary here).

Payload of every point: repo_id, kind (file|symbol|memory), source_key, path, idx (passage
index), hash (content address of the passage text), fq (symbols), space (fingerprint).
Points of kind `contentless` are markers of files with nothing to embed (spec §2.5): stored
so the vector step knows the file is done, excluded from `search` and `count`.
Keyword payload indexes are created with the collection, before any HNSW build.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import shutil
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

from processors.vectors import CONTENTLESS_KIND
from streams.embedders.base import EmbeddingSpace
from streams.errors import StreamsError
from streams.stores.edge_numbering import catch_up
from streams.stores.mapped_pages import drop_mapped_pages

log = logging.getLogger(__name__)

POINT_NAMESPACE = uuid.UUID("6f1c3d2e-5b7a-4c1e-9a0d-2f4b8e6c1a55")
KEYWORD_FIELDS = ("repo_id", "kind", "source_key", "path")
INTEGER_FIELDS = ("idx",)


def point_id(source_key: str, index: int) -> str:
    """Stable point id: uuid5(source key, passage index) (DESIGN §6)."""
    return str(uuid.uuid5(POINT_NAMESPACE, f"{source_key}#{index}"))


@dataclass(frozen=True, slots=True)
class VectorPoint:
    id: str
    vector: list[float]
    payload: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class VectorMatch:
    id: str
    score: float
    payload: dict[str, Any]


@dataclass(frozen=True, slots=True)
class IndexState:
    points: int
    indexed: int

    @property
    def arm(self) -> str:
        """`bootstrapping` (nothing stored), `exhaustive` (no HNSW yet), `approximate`."""
        if self.points == 0:
            return "bootstrapping"
        if self.indexed == 0:
            return "exhaustive"
        return "approximate"


class VectorStore(Protocol):
    space: EmbeddingSpace

    def upsert(self, points: Sequence[VectorPoint]) -> None: ...

    def payloads(self, ids: Sequence[str]) -> dict[str, dict[str, Any]]: ...

    def points(self, ids: Sequence[str]) -> list[VectorPoint]:
        """The stored points among `ids`, with their vectors (absent ids are left out)."""
        ...

    def delete_ids(self, ids: Sequence[str]) -> None: ...

    def retain(self, repo_id: str, kind: str, path: str, keep: Sequence[str]) -> None:
        """Delete the points of (repo, kind, path) whose id is not in `keep`."""
        ...

    def delete_repo(self, repo_id: str) -> None: ...

    def search(
        self, vector: Sequence[float], limit: int, *, repo_id: str | None, exact: bool
    ) -> list[VectorMatch]: ...

    def count(self, *, repo_id: str | None = None, kind: str | None = None) -> int:
        """Points of `kind`; without one, every searchable point (markers left out)."""

    def sources(self, *, repo_id: str, kind: str) -> int: ...

    def state(self) -> IndexState: ...

    def build_index(self) -> bool: ...

    def close(self) -> None: ...


# ---------------------------------------------------------------------------------------------
# qdrant-edge (in-process)


def _edge_config(space: EmbeddingSpace, indexing_threshold_kb: int | None) -> Any:
    import qdrant_edge as q

    return q.EdgeConfig(
        vectors=q.EdgeVectorParams(size=space.dimension, distance=q.Distance.Cosine),
        hnsw_config=q.HnswIndexConfig(
            m=16, ef_construct=100, full_scan_threshold=10, max_indexing_threads=1
        ),
        optimizers=q.EdgeOptimizersConfig(
            indexing_threshold=indexing_threshold_kb, default_segment_number=1
        ),
        max_search_threads=1,
    )


def _edge_filter(
    repo_id: str | None = None,
    kind: str | None = None,
    path: str | None = None,
    idx: int | None = None,
    exclude: Sequence[str] = (),
    not_kind: str | None = None,
) -> Any:
    import qdrant_edge as q

    must: list[Any] = []
    for key, value in (("repo_id", repo_id), ("kind", kind), ("path", path)):
        if value is not None:
            must.append(q.FieldCondition(key=key, match=q.MatchValue(value)))
    if idx is not None:
        must.append(q.FieldCondition(key="idx", match=q.MatchValue(idx)))
    must_not: list[Any] = [q.HasIdCondition({uuid.UUID(i) for i in exclude})] if exclude else []
    if not_kind is not None:
        must_not.append(q.FieldCondition(key="kind", match=q.MatchValue(not_kind)))
    return q.Filter(must=must, must_not=must_not or None) if must or must_not else None


# The build child's RSS counts against the server's memory target (issue 21 item 4): the shard's
# load touches its mapped files (payload indexes, vectors), and those pages stay resident while
# optimize() holds the GIL, so they are dropped between the two (shared file mappings lose
# nothing: the page cache keeps them). Inline, so the child imports nothing of ours.
_BUILD_SCRIPT = """
import ctypes, sys, qdrant_edge as q
folder = sys.argv[1].rstrip("/") + "/"
shard = q.EdgeShard.load(sys.argv[1])
madvise = ctypes.CDLL(None).madvise
madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
with open("/proc/self/maps") as maps:
    for line in maps:
        parts = line.split(None, 5)
        if len(parts) == 6 and parts[1][3] == "s" and parts[5].strip().startswith(folder):
            start, end = (int(x, 16) for x in parts[0].split("-"))
            madvise(start, end - start, 4)  # MADV_DONTNEED
shard.optimize()
shard.flush()
shard.close()
"""


def _stored_point(point: object, vector: object, payload: object) -> VectorPoint:
    """A retrieved record as a VectorPoint: one unnamed dense vector, as this store writes."""
    if isinstance(vector, dict):  # a named-vector answer: ours is the unnamed one
        vector = vector.get("", next(iter(vector.values()), None))
    values = [float(x) for x in vector] if isinstance(vector, list) else []
    return VectorPoint(str(point), values, dict(payload) if isinstance(payload, dict) else {})


def _wal_only(folder: str, names: list[str]) -> set[str]:
    """copytree's ignore: the shard's own `wal` folder (top level only)."""
    return {"wal"} if "segments" in names and "wal" in names else set()


class EdgeVectorStore:
    """In-process Qdrant. Thread-safe through one lock (the engine is not reentrant here)."""

    def __init__(
        self, root: Path, space: EmbeddingSpace, *, indexing_threshold_kb: int | None = None
    ) -> None:
        import qdrant_edge as q

        self.space = space
        self.path = Path(root) / space.collection
        self.indexing_threshold_kb = indexing_threshold_kb
        self._lock = threading.RLock()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._shard = self._open()
        self._q = q

    def _open(self) -> Any:
        import qdrant_edge as q

        config = _edge_config(self.space, self.indexing_threshold_kb)
        if self.path.exists() and any(self.path.iterdir()):
            shard = q.EdgeShard.load(str(self.path))
            # a store built before numbering was kept (edge_numbering.py) heals on open
            catch_up(shard, q, self.path, always=False)
            return shard
        shard = q.EdgeShard.create(str(self.path), config)
        # Payload indexes before any HNSW build, or filtered recall collapses (DESIGN §6).
        for name in KEYWORD_FIELDS:
            shard.update(q.UpdateOperation.create_field_index(name, q.PayloadSchemaType.Keyword))
        for name in INTEGER_FIELDS:
            shard.update(q.UpdateOperation.create_field_index(name, q.PayloadSchemaType.Integer))
        return shard

    def upsert(self, points: Sequence[VectorPoint]) -> None:
        if not points:
            return
        q = self._q
        ops = [q.Point(p.id, list(p.vector), dict(p.payload)) for p in points]
        with self._lock:
            self._shard.update(q.UpdateOperation.upsert_points(ops))

    def payloads(self, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        if not ids:
            return {}
        with self._lock:
            records = self._shard.retrieve(list(ids), True, False)
        return {str(r.id): dict(r.payload or {}) for r in records}

    def points(self, ids: Sequence[str]) -> list[VectorPoint]:
        if not ids:
            return []
        with self._lock:
            records = self._shard.retrieve(list(ids), True, True)
        return [_stored_point(r.id, r.vector, r.payload) for r in records]

    def delete_ids(self, ids: Sequence[str]) -> None:
        if ids:
            with self._lock:
                self._shard.update(self._q.UpdateOperation.delete_points(list(ids)))

    def retain(self, repo_id: str, kind: str, path: str, keep: Sequence[str]) -> None:
        flt = _edge_filter(repo_id=repo_id, kind=kind, path=path, exclude=keep)
        with self._lock:
            self._shard.update(self._q.UpdateOperation.delete_points_by_filter(flt))

    def delete_repo(self, repo_id: str) -> None:
        with self._lock:
            self._shard.update(
                self._q.UpdateOperation.delete_points_by_filter(_edge_filter(repo_id=repo_id))
            )

    def search(
        self, vector: Sequence[float], limit: int, *, repo_id: str | None, exact: bool
    ) -> list[VectorMatch]:
        q = self._q
        request = q.QueryRequest(
            limit=limit,
            query=q.Query.Nearest(list(vector)),
            filter=_edge_filter(repo_id=repo_id, not_kind=CONTENTLESS_KIND),
            with_payload=True,
            params=q.SearchParams(exact=exact, hnsw_ef=max(128, limit)),
        )
        with self._lock:
            found = self._shard.query(request)
        return [VectorMatch(str(p.id), float(p.score), dict(p.payload or {})) for p in found]

    def count(self, *, repo_id: str | None = None, kind: str | None = None) -> int:
        flt = _edge_filter(repo_id=repo_id, kind=kind, not_kind=None if kind else CONTENTLESS_KIND)
        request = self._q.CountRequest(exact=True, filter=flt)
        with self._lock:
            return int(self._shard.count(request))

    def sources(self, *, repo_id: str, kind: str) -> int:
        """Distinct sources with a real embedding (every source has a passage 0)."""
        request = self._q.CountRequest(
            exact=True, filter=_edge_filter(repo_id=repo_id, kind=kind, idx=0)
        )
        with self._lock:
            return int(self._shard.count(request))

    def state(self) -> IndexState:
        with self._lock:
            info = self._shard.info()
        return IndexState(points=int(info.points_count), indexed=int(info.indexed_vectors_count))

    def build_index(self) -> bool:
        """Build HNSW off this process (optimize() holds the GIL), then swap it in.

        Returns True when a new index serves. The caller must not write meanwhile."""
        build = self.path.with_name(self.path.name + ".build")
        old = self.path.with_name(self.path.name + ".old")
        for stale in (build, old):
            shutil.rmtree(stale, ignore_errors=True)
        with self._lock:
            self._shard.flush()
            # Flushed under the lock, the segments hold every write: the copy's write-ahead
            # log would only be replayed at load, tens of MiB of the child's RSS for nothing.
            shutil.copytree(self.path, build, ignore=_wal_only)
        done = subprocess.run(
            [sys.executable, "-c", _BUILD_SCRIPT, str(build.resolve())],
            capture_output=True,
            text=True,
            timeout=3600,
        )
        if done.returncode != 0:
            log.warning("HNSW build failed (%s): %s", done.returncode, done.stderr[-2000:])
            shutil.rmtree(build, ignore_errors=True)
            return False
        with self._lock:
            self._shard.close()
            os.replace(self.path, old)
            os.replace(build, self.path)
            self._shard = self._open()
            catch_up(self._shard, self._q, self.path, always=True)
        shutil.rmtree(old, ignore_errors=True)
        return True

    def flush(self) -> None:
        with self._lock:
            self._shard.flush()

    def release_mapped(self) -> int:
        """Drop this process's resident pages of the shard's mapped files (they stay in the
        page cache; streams/stores/mapped_pages.py); bytes of mappings advised."""
        with self._lock:
            return drop_mapped_pages(self.path)

    def close(self) -> None:
        with self._lock:
            if self._shard is not None:
                self._shard.flush()
                self._shard.close()
                self._shard = None


# ---------------------------------------------------------------------------------------------
# qdrant-client (a Qdrant server; local mode in tests)


class VectorStoreUnavailable(StreamsError, RuntimeError):
    """A call to the Qdrant server failed (unreachable, timed out, refused, rejected).

    The message names the server, the call and the cause, never the api key. Callers treat
    it like any store failure: the retriever answers from BM25, the vector step retries.
    """

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status  # the HTTP status when the server answered, else None


class QdrantClientVectorStore:
    """A Qdrant server through `qdrant-client` (distributed mode; local mode in tests).

    The constructor never talks to the server, so a process whose Qdrant is down still starts:
    the collection (and, on a server, its payload indexes) is made sure of by the first call
    that needs it, and again on later calls until that succeeds (or after a 404: the server
    lost it). Server failures raise `VectorStoreUnavailable`.
    """

    def __init__(
        self,
        space: EmbeddingSpace,
        *,
        url: str | None = None,
        path: str | None = None,
        location: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 10.0,
    ) -> None:
        from qdrant_client import QdrantClient, models

        self.space = space
        self.collection = space.collection
        self._m = models
        if url is not None:
            # an int in qdrant-client; rounded up, as 0 would mean "no timeout"
            timeout = max(1, math.ceil(timeout_s))
            # no version check: it asks the server from a thread at once and, where the
            # server is down (an expected state here: see above), warns on stderr at every start
            self.client = QdrantClient(
                url=url, api_key=api_key, timeout=timeout, check_compatibility=False
            )
            self._where = _without_userinfo(url)
        elif path is not None:
            self.client = QdrantClient(path=path)
            self._where = f"local:{path}"
        else:
            self.client = QdrantClient(location=location or ":memory:")
            self._where = f"local:{location or ':memory:'}"
        self._local = url is None
        self._ready = False  # the collection is known to exist
        self._ready_lock = threading.Lock()

    # -- the collection, made sure of lazily ----------------------------------------------------

    def _ensure_collection(self) -> None:
        if self._ready:
            return
        with self._ready_lock:
            if self._ready:
                return
            with self._failures(f"creating collection {self.collection}"):
                self._create_collection()
            self._ready = True

    def _create_collection(self) -> None:
        from qdrant_client.http.exceptions import UnexpectedResponse

        m = self._m
        if not self.client.collection_exists(self.collection):
            try:
                self.client.create_collection(
                    self.collection,
                    vectors_config=m.VectorParams(
                        size=self.space.dimension, distance=m.Distance.COSINE
                    ),
                )
            except UnexpectedResponse as exc:  # 409 (400 before 1.9): another process won
                if exc.status_code not in (400, 409) or not self.client.collection_exists(
                    self.collection
                ):
                    raise
        if self._local:  # local mode ignores payload indexes (and warns)
            return
        # Indexes are checked on every (re)start, not only on creation: a process that died
        # between creating the collection and its indexes must not leave them missing.
        have = self.client.get_collection(self.collection).payload_schema or {}
        wanted = [(n, m.PayloadSchemaType.KEYWORD) for n in KEYWORD_FIELDS]
        wanted += [(n, m.PayloadSchemaType.INTEGER) for n in INTEGER_FIELDS]
        for name, schema in wanted:
            if name not in have:
                self.client.create_payload_index(self.collection, name, schema, wait=True)

    @contextlib.contextmanager
    def _failures(self, call: str) -> Iterator[None]:
        """qdrant-client's transport and HTTP errors -> `VectorStoreUnavailable`."""
        import httpx
        from qdrant_client.http.exceptions import (
            ApiException,
            ResponseHandlingException,
            UnexpectedResponse,
        )

        try:
            yield
        except UnexpectedResponse as exc:
            status = exc.status_code
            if status == 404:
                self._ready = False  # the server lost the collection: re-create it next call
            raise VectorStoreUnavailable(
                f"qdrant at {self._where}: {call} failed: {_http_reason(exc)}", status=status
            ) from exc
        except ResponseHandlingException as exc:
            source = exc.source
            if isinstance(source, httpx.TimeoutException):
                why = f"timed out ({type(source).__name__})"
            elif isinstance(source, httpx.TransportError):
                why = f"unreachable ({type(source).__name__}: {source})"
            else:
                why = f"unreadable answer ({type(source).__name__}: {source})"
            raise VectorStoreUnavailable(f"qdrant at {self._where}: {call} failed: {why}") from exc
        except (ApiException, httpx.HTTPError) as exc:
            raise VectorStoreUnavailable(
                f"qdrant at {self._where}: {call} failed: {type(exc).__name__}: {exc}"
            ) from exc

    @contextlib.contextmanager
    def _call(self, call: str) -> Iterator[None]:
        self._ensure_collection()
        with self._failures(call):
            yield

    # -- the VectorStore interface ---------------------------------------------------------------

    def _filter(
        self,
        repo_id: str | None = None,
        kind: str | None = None,
        path: str | None = None,
        idx: int | None = None,
        exclude: Sequence[str] = (),
        not_kind: str | None = None,
    ) -> Any:
        m = self._m
        must: list[Any] = []
        for key, value in (("repo_id", repo_id), ("kind", kind), ("path", path)):
            if value is not None:
                must.append(m.FieldCondition(key=key, match=m.MatchValue(value=value)))
        if idx is not None:
            must.append(m.FieldCondition(key="idx", match=m.MatchValue(value=idx)))
        must_not: list[Any] = [m.HasIdCondition(has_id=list(exclude))] if exclude else []
        if not_kind is not None:
            must_not.append(m.FieldCondition(key="kind", match=m.MatchValue(value=not_kind)))
        return m.Filter(must=must, must_not=must_not or None) if must or must_not else None

    def upsert(self, points: Sequence[VectorPoint]) -> None:
        if points:
            m = self._m
            structs = [
                m.PointStruct(id=p.id, vector=list(p.vector), payload=p.payload) for p in points
            ]
            with self._call("upsert"):
                self.client.upsert(self.collection, points=structs, wait=True)

    def payloads(self, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        if not ids:
            return {}
        with self._call("retrieve"):
            found = self.client.retrieve(self.collection, ids=list(ids), with_payload=True)
        return {str(r.id): dict(r.payload or {}) for r in found}

    def points(self, ids: Sequence[str]) -> list[VectorPoint]:
        if not ids:
            return []
        with self._call("retrieve"):
            found = self.client.retrieve(
                self.collection, ids=list(ids), with_payload=True, with_vectors=True
            )
        return [_stored_point(r.id, r.vector, r.payload) for r in found]

    def delete_ids(self, ids: Sequence[str]) -> None:
        if ids:
            selector = self._m.PointIdsList(points=list(ids))
            with self._call("delete"):
                self.client.delete(self.collection, points_selector=selector, wait=True)

    def _delete(self, flt: Any) -> None:
        selector = self._m.FilterSelector(filter=flt)
        with self._call("delete"):
            self.client.delete(self.collection, points_selector=selector, wait=True)

    def retain(self, repo_id: str, kind: str, path: str, keep: Sequence[str]) -> None:
        self._delete(self._filter(repo_id=repo_id, kind=kind, path=path, exclude=keep))

    def delete_repo(self, repo_id: str) -> None:
        self._delete(self._filter(repo_id=repo_id))

    def search(
        self, vector: Sequence[float], limit: int, *, repo_id: str | None, exact: bool
    ) -> list[VectorMatch]:
        m = self._m
        with self._call("search"):
            found = self.client.query_points(
                self.collection,
                query=list(vector),
                limit=limit,
                query_filter=self._filter(repo_id=repo_id, not_kind=CONTENTLESS_KIND),
                with_payload=True,
                search_params=None
                if self._local
                else m.SearchParams(exact=exact, hnsw_ef=max(128, limit)),
            ).points
        return [VectorMatch(str(p.id), float(p.score), dict(p.payload or {})) for p in found]

    def _count(self, flt: Any) -> int:
        with self._call("count"):
            return int(self.client.count(self.collection, count_filter=flt, exact=True).count)

    def count(self, *, repo_id: str | None = None, kind: str | None = None) -> int:
        return self._count(
            self._filter(repo_id=repo_id, kind=kind, not_kind=None if kind else CONTENTLESS_KIND)
        )

    def sources(self, *, repo_id: str, kind: str) -> int:
        return self._count(self._filter(repo_id=repo_id, kind=kind, idx=0))

    def state(self) -> IndexState:
        with self._call("get_collection"):
            info = self.client.get_collection(self.collection)
        points = int(info.points_count or 0)
        indexed = int(info.indexed_vectors_count or 0)
        if self._local:  # local mode is a brute-force scan: honest answer is "exhaustive"
            indexed = 0
        return IndexState(points=points, indexed=indexed)

    def build_index(self) -> bool:
        return False  # a server builds HNSW itself, in the background

    def close(self) -> None:
        self.client.close()


def _without_userinfo(url: str) -> str:
    """The server's URL for messages, without any user:password part."""
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


def _http_reason(exc: Any) -> str:
    """`401 Unauthorized: <Qdrant's error text>` from qdrant-client's UnexpectedResponse."""
    status = f"{exc.status_code} {exc.reason_phrase}".strip()
    text = bytes(exc.content or b"").decode("utf-8", "replace").strip()
    with contextlib.suppress(ValueError, KeyError, TypeError):  # Qdrant's JSON error, if any
        text = str(json.loads(text)["status"]["error"])
    if exc.status_code in (401, 403):
        status += " (wrong or missing api key)"
    return f"{status}: {text[:300]}" if text else status
