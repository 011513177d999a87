"""The vector plane of the embedded deployable, composed from the settings: the embedder, the
vector store for its space, the background vector step and the retriever (the ladder).

`REPOCONTEXT_EMBEDDER=none` gives a keyword-only host (`keyword.no_embedder`, ready).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
from collections.abc import Callable

from query_api.retrieval.ladder import Retriever
from query_api.retrieval.readiness import Readiness
from query_api.retrieval.vector_coverage import CoverageReader
from query_api.settings import Settings
from schemas import tools as t
from streams.embedders import Embedder, make_embedder
from streams.embedders.base import EmbeddingSpace
from streams.eventlog.base import EventLog
from streams.pacer import ForegroundPacer
from streams.stores.vectors import EdgeVectorStore, QdrantClientVectorStore, VectorStore
from streams.stores.views.memory import MemoryViews
from streams.stores.views.store import ViewStore
from streams.vectors_step import VectorIndexer

log = logging.getLogger(__name__)


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
    ) -> None:
        self.settings = settings
        self.writer = writer
        self.embedder = embedder or embedder_from(settings)
        self.store: VectorStore | None = None
        self.indexer: VectorIndexer | None = None
        self.views = views
        self.coverage: CoverageReader | None = None
        space = self.embedder.space
        if space is not None:
            self.store = vector_store_for(settings, space)
            self.indexer = VectorIndexer(
                event_log,
                self.embedder,
                self.store,
                ann_min_points=settings.ann_min_points,
                expired_memory=MemoryViews(views).expired,
                pacer=pacer,
            )
            self.coverage = CoverageReader(
                views, self.store, self.indexer.counters if writer else None
            )
        self.readiness = Readiness(embedder_bound=self.store is not None)
        self.retriever = Retriever(
            views,
            self.embedder,
            self.store,
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
        if self.indexer is None:
            return []
        tasks = [asyncio.create_task(self.warm_up(stop, repo_ids))]
        if self.writer:
            tasks.append(asyncio.create_task(self.indexer.run_forever(stop)))
        return tasks

    async def warm_up(self, stop: asyncio.Event, repo_ids: Callable[[], list[str]]) -> None:
        """A semantic query from start-up, retried with backoff 2 s doubling to 30 s, until the
        plane proves itself (spec §5.1)."""
        delay = 2.0
        while not stop.is_set():
            try:
                if await self.retriever.warm_up(repo_ids()):
                    await asyncio.to_thread(self.reclaim_old_spaces)
                    return
            except Exception:
                log.exception("warm-up query failed")
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), delay)
            delay = min(30.0, delay * 2)

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
        if not isinstance(self.store, EdgeVectorStore):
            return []
        removed = []
        for sibling in self.store.path.parent.iterdir():
            if sibling.is_dir() and sibling.name.startswith("rc-") and sibling != self.store.path:
                if sibling.name.startswith(self.store.path.name):  # our .build/.old dirs
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
        if self.coverage is None:
            return None
        try:
            return self.coverage.of(repo_id)
        except Exception:
            log.exception("vector coverage unavailable")
            return None

    def embedded_counts(self, repo_id: str) -> tuple[int, int, int] | None:
        """(files, symbols, memory entries) with a real embedding, or None without a plane."""
        if self.store is None:
            return None
        try:
            return (
                self.store.sources(repo_id=repo_id, kind="file"),
                self.store.sources(repo_id=repo_id, kind="symbol"),
                self.store.sources(repo_id=repo_id, kind="memory"),
            )
        except Exception:
            log.exception("vector counts unavailable")
            return None

    def close(self) -> None:
        with contextlib.suppress(Exception):
            if self.store is not None:
                self.store.close()
        with contextlib.suppress(Exception):
            self.embedder.close()


def keyword_only_retriever(views: ViewStore, readiness: Readiness) -> Retriever:
    """The ladder with nothing bound: BM25 only, `keyword.no_embedder`."""
    from streams.embedders import NoEmbedder

    return Retriever(views, NoEmbedder(), None, readiness)
