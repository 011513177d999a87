"""The vector plane of the embedded deployable, composed from the settings: the embedder, the
vector store for its space, the background vector step and the retriever (the ladder).

`REPOCONTEXT_EMBEDDER=none` gives a keyword-only host (`keyword.no_embedder`, ready).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import shutil
import time
from collections.abc import Callable, Coroutine
from typing import Any

from query_api.retrieval.ladder import Retriever
from query_api.retrieval.readiness import Readiness
from query_api.retrieval.vector_coverage import CoverageReader
from query_api.settings import Settings
from schemas import tools as t
from streams.embedders import Embedder, make_embedder
from streams.embedders.base import EmbeddingSpace
from streams.eventlog.base import EventLog
from streams.pacer import ForegroundPacer
from streams.stores.vector_opening import OpeningVectorStore, QueryStoreView
from streams.stores.vectors import (
    EdgeVectorStore,
    QdrantClientVectorStore,
    VectorStore,
    VectorStoreUnavailable,
)
from streams.stores.views.memory import MemoryViews
from streams.stores.views.store import ViewStore
from streams.vectors_step import VectorIndexer

log = logging.getLogger(__name__)
FAULT_POLL_S = 2.0  # how often a serving plane looks for a keyword fallback to probe after


def embedder_from(settings: Settings) -> Embedder:
    return make_embedder(
        settings.embedder,
        threads=settings.embed_threads,
        url=settings.embedder_url,
        model=settings.embedder_model,
        dimension=settings.embedder_dimension,
        api_key=settings.embedder_api_key,
    )


def vector_store_for(settings: Settings, space: EmbeddingSpace) -> VectorStore:
    """The configured store of `space`: in-process Qdrant, or a Qdrant server."""
    if settings.vector_store == "qdrant":
        return QdrantClientVectorStore(
            space, url=settings.qdrant_url, api_key=settings.qdrant_api_key
        )
    return EdgeVectorStore(
        settings.data_dir / "vectors",
        space,
        indexing_threshold_kb=settings.ann_indexing_threshold_kb,
    )


class VectorPlane:
    """`writer=False` (a query replica on a shared Qdrant server): the plane searches and
    reports, and the vector step of `repocontext worker` writes the vectors."""

    def __init__(
        self,
        settings: Settings,
        event_log: EventLog,
        views: ViewStore,
        *,
        embedder: Embedder | None = None,
        pacer: ForegroundPacer | None = None,
        writer: bool = True,
        open_later: bool = False,
        indexing: Callable[[str], bool] | None = None,
    ) -> None:
        """`open_later`: the vector store opens when the plane starts (`tasks()`) or on a
        writer's first use, so a server's first keyword answers do not wait for it; searches
        answer from the keyword rung until then. `indexing(repo_id)`: whether that
        repository's keyword index is still being built here (its coverage is then not
        complete while no file has reached the views)."""
        self.settings = settings
        self.writer = writer
        self.embedder = embedder or embedder_from(settings)
        self.store: VectorStore | None = None
        self.opening: OpeningVectorStore | None = None
        self._opening_lock = asyncio.Lock()
        self.indexer: VectorIndexer | None = None
        self.views = views
        self.coverage: CoverageReader | None = None
        queries: VectorStore | None = None  # the store as searches and coverage see it
        space = self.embedder.space
        if space is not None:
            if open_later:
                self.opening = OpeningVectorStore(space, lambda: vector_store_for(settings, space))
                self.store, queries = self.opening, QueryStoreView(self.opening)
            else:
                self.store = queries = vector_store_for(settings, space)
            self.indexer = VectorIndexer(
                event_log,
                self.embedder,
                self.store,
                ann_min_points=settings.ann_min_points,
                expired_memory=MemoryViews(views).expired,
                pacer=pacer,
                on_idle=self.release_memory,
                keyword_building=views.mirrors_settling,
            )
            self.coverage = CoverageReader(
                views, queries, self.indexer.counters if writer else None, indexing=indexing
            )
        hold = getattr(self.embedder, "hold_background", None)  # the local encoder child
        if pacer is not None and hold is not None:
            pacer.on_hold.append(hold)  # a batch in flight steps aside while a tool call runs
        self.readiness = Readiness(embedder_bound=self.store is not None)
        self.retriever = Retriever(
            views,
            self.embedder,
            queries,
            self.readiness,
            semantic_retrieval=settings.semantic_retrieval,
            hybrid=settings.hybrid,
            exact_timeout_s=settings.exact_timeout_s,
            coverage=self.coverage_of,
        )

    @property
    def bound(self) -> bool:
        return self.store is not None

    def tasks(
        self, stop: asyncio.Event, repo_ids: Callable[[], list[str]]
    ) -> list[asyncio.Task[None]]:
        """The warm-up query and (a writer's) backfill, each once the store is open."""
        indexer = self.indexer
        if indexer is None:
            return []
        tasks = [asyncio.create_task(self._after_open(self.warm_up(stop, repo_ids)))]
        if self.writer:
            tasks.append(asyncio.create_task(self._after_open(indexer.run_forever(stop))))
        return tasks

    @property
    def store_open(self) -> bool:
        """Whether searches can reach the vector store (False only while it opens later)."""
        return self.store is not None and (self.opening is None or self.opening.is_open)

    def waiting_line(self) -> str | None:
        """The health status clause while the store is not open (yet, or it failed to)."""
        if self.store_open or self.opening is None:
            return None
        if self.opening.error is not None:
            return (
                f"the vector store could not be opened ({self.opening.error}); searches "
                "answer by keyword (keyword.vector_plane_unavailable)"
            )
        return (
            "the vector store opens once the keyword index is complete; searches answer by "
            "keyword (keyword.vector_plane_unavailable) until then"
        )

    def failing_line(self) -> str | None:
        """The health status clause while this process's vector step cannot embed (an
        endpoint down, refusing, or answering what is not a vector)."""
        if self.indexer is None or not self.writer or self.indexer.counters.failing is None:
            return None
        return (
            f"embedding fails ({self.indexer.counters.failing}); the vector step retries, and "
            "searches answer by keyword where vectors are missing"
        )

    async def open_store(self) -> None:
        """Open a store that opens later (in a thread: it may take a second); idempotent."""
        async with self._opening_lock:  # two callers at once open it once
            if self.opening is None or self.opening.is_open:
                return
            started = time.perf_counter()
            try:
                await asyncio.to_thread(self.opening.open)
            except Exception:
                log.exception("the vector store could not be opened; keyword search serves")
                raise
            log.info("vector store open in %.2f s", time.perf_counter() - started)

    async def _after_open(self, work: Coroutine[Any, Any, None]) -> None:
        try:
            await self.open_store()
        except BaseException:
            work.close()  # never started: no "was never awaited" warning
            raise
        await work

    async def warm_up(self, stop: asyncio.Event, repo_ids: Callable[[], list[str]]) -> None:
        """A semantic query from start-up, retried with backoff 2 s doubling to 30 s, until the
        plane proves itself (spec §5.1); then the same probe whenever an answer fell back to
        keyword (a repository searched before its vectors arrived, one failed embedding), so
        that a fault the plane has already recovered from does not outlive the hold-down and
        revoke readiness because no one searched meanwhile."""
        proven = False
        while not stop.is_set():
            if not await self._probe(stop, repo_ids):
                return
            if not proven:
                proven = True
                try:
                    await asyncio.to_thread(self.reclaim_old_spaces)
                except Exception:
                    log.exception("reclaiming the old vector spaces failed")
            while not self.readiness.fault_pending:
                if await _stopped(stop, FAULT_POLL_S):
                    return

    async def _probe(self, stop: asyncio.Event, repo_ids: Callable[[], list[str]]) -> bool:
        """True once a probe answered semantically; False when stopped first."""
        delay = 2.0
        while not stop.is_set():
            try:
                if await self.retriever.warm_up(repo_ids()):
                    return True
            except Exception:
                log.exception("warm-up query failed")
            if await _stopped(stop, delay):
                return False
            delay = min(30.0, delay * 2)
        return False

    def foreground(self, waiting: bool) -> None:
        """`waiting`: a user waits for the embedding (`index --vectors`, `replay`), so it uses
        the machine at normal priority instead of what a server leaves idle (blocking: it may
        load the model; call from a thread). Providers without a priority ignore it."""
        set_foreground = getattr(self.embedder, "set_foreground", None)
        if callable(set_foreground):
            set_foreground(waiting)

    def reclaim_old_spaces(self) -> list[str]:
        """After a model/dimension change the new space's collection serves (the warm-up
        proved it); only then are other spaces' in-process collections removed."""
        store = self.opening.opened if self.opening is not None else self.store
        if not isinstance(store, EdgeVectorStore):
            return []
        removed = []
        for sibling in store.path.parent.iterdir():
            if sibling.is_dir() and sibling.name.startswith("rc-") and sibling != store.path:
                if sibling.name.startswith(store.path.name):  # our .build/.old dirs
                    continue
                shutil.rmtree(sibling, ignore_errors=True)
                removed.append(sibling.name)
                log.info("removed the collection of a previous embedding space: %s", sibling)
        return removed

    async def component(self) -> dict[str, object]:
        """The vector plane's verdict for /health/ready."""
        space = self.embedder.space
        if space is None or self.store is None:
            return {"embedder": None, "verdict": "keyword_only"}
        out: dict[str, object] = {
            "embedder": space.model,
            "dimension": space.dimension,
            "store": self.settings.vector_store,
            "collection": space.collection,
        }
        if not self.store_open:  # opens once the keyword index is complete
            failed = self.opening.error if self.opening is not None else None
            return out | ({"opening": True} if failed is None else {"error": failed})
        try:
            state = await asyncio.to_thread(self.store.state)
            out |= {"ann": state.arm, "points": state.points, "indexed": state.indexed}
        except Exception as exc:
            out["error"] = f"{type(exc).__name__}"
        if self.indexer is not None:  # a replica's backlog is the vector worker's
            out["writer"] = "this process" if self.writer else "repocontext worker"
            out["backlog"] = await self.indexer.behind()
        if self.indexer is not None and self.writer:
            out["building"] = self.indexer.building
            out["lastError"] = self.indexer.counters.last_error
        ids = [r.repo_id for r in await asyncio.to_thread(self.views.list_repos)]
        out["coverage"] = {
            repo_id: c.model_dump(exclude_none=True)
            for repo_id in ids
            if (c := await asyncio.to_thread(self.coverage_of, repo_id)) is not None
        }
        return out

    def coverage_of(self, repo_id: str) -> t.VectorCoverage | None:
        """The repository's vector coverage, or None without a plane (or when unreadable)."""
        if self.coverage is None or not self.store_open:
            return None  # not known yet (not "none")
        try:
            return self.coverage.of(repo_id)
        except VectorStoreUnavailable as exc:  # a server down: said in one line, no traceback
            log.info("vector coverage unavailable: %s", exc)
            return None
        except Exception:
            log.exception("vector coverage unavailable")
            return None

    def embedded_counts(self, repo_id: str) -> tuple[int, int, int] | None:
        """(files, symbols, memory entries) with a real embedding, or None without a plane
        (or before its store is open)."""
        if self.store is None or not self.store_open:
            return None
        try:
            return (
                self.store.sources(repo_id=repo_id, kind="file"),
                self.store.sources(repo_id=repo_id, kind="symbol"),
                self.store.sources(repo_id=repo_id, kind="memory"),
            )
        except VectorStoreUnavailable as exc:
            log.info("vector counts unavailable: %s", exc)
            return None
        except Exception:
            log.exception("vector counts unavailable")
            return None

    def release_memory(self) -> None:
        """Once the vector step has caught up (and around an HNSW build, whose child adds its
        own peak): empty the views' page caches, drop the store's mapped pages from this
        process's RSS, and hand the allocator's free memory back to the OS. Batches of
        passages and vectors leave the heap fragmented, and glibc keeps freed memory in each
        thread's arena unless asked (blocking; call from a thread)."""
        self.views.release_memory()
        store = self.opening.opened if self.opening is not None else self.store
        if isinstance(store, EdgeVectorStore):  # a Qdrant server's memory is not ours
            store.release_mapped()
        trim_malloc()

    def close(self) -> None:
        with contextlib.suppress(Exception):
            if self.store is not None:
                self.store.close()
        with contextlib.suppress(Exception):
            self.embedder.close()


def trim_malloc() -> bool:
    """glibc's malloc_trim(0): free memory at the top of every arena and whole free pages
    inside them goes back to the OS; False where the C library has no such call (musl, macOS)."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return False
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    trim(0)
    return True


def keyword_only_retriever(views: ViewStore, readiness: Readiness) -> Retriever:
    """The ladder with nothing bound: BM25 only, `keyword.no_embedder`."""
    from streams.embedders import NoEmbedder

    return Retriever(views, NoEmbedder(), None, readiness)


async def _stopped(stop: asyncio.Event, delay: float) -> bool:
    """Wait `delay` seconds or until `stop` is set; whether it was set."""
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(stop.wait(), delay)
    return stop.is_set()
