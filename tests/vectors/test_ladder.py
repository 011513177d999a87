"""Every `retrievalPath` of spec §3.2 produced by a real code path: the real pipeline, views,
in-process Qdrant and vector step, with a deterministic embedder that can be made to fail."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from processors.vectors import chunks
from query_api.retrieval.fusion import fuse
from query_api.retrieval.ladder import Retriever
from query_api.retrieval.readiness import Readiness
from query_api.retrieval.vector_plane import VectorPlane, keyword_only_retriever
from query_api.settings import Settings
from repocontext.app import EmbeddedApp
from schemas import tools as t
from schemas.retrieval import RetrievalPath
from streams.embedders import NoEmbedder
from streams.embedders.base import EmbeddingSpace
from streams.stores.vectors import EdgeVectorStore, VectorMatch, VectorPoint, point_id
from tests.ingested import ingested
from tests.vectors.fake_embedder import DIM, HashEmbedder, vector

pytestmark = pytest.mark.anyio

FILES = {
    "billing/invoice.py": "class InvoiceCalculator:\n    def total(self, lines):\n"
    "        return sum(line.amount for line in lines)\n",
    "net/retry.py": "def retry_with_backoff(call, attempts):\n    for delay in backoff(attempts):\n"
    "        sleep(delay)\n",
    "ledger/reconcile.py": "# Guide: how to reconcile the quarterly ledger.\n",
    "empty.py": "",
}


def make_repo(root: Path, extra: int = 0, files: dict[str, str] | None = None) -> Path:
    for rel, body in (FILES if files is None else files).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(body)
    for i in range(extra):
        (root / "gen" / f"mod{i}.py").parent.mkdir(parents=True, exist_ok=True)
        (root / "gen" / f"mod{i}.py").write_text(f"def function_{i}():\n    return {i}\n")
    return root


class Rig:
    def __init__(self, app: EmbeddedApp, plane: VectorPlane, embedder: HashEmbedder) -> None:
        self.app = app
        self.plane = plane
        self.embedder = embedder
        assert plane.indexer is not None and plane.store is not None
        self.indexer = plane.indexer
        self.store = plane.store

    async def search(self, query: str, k: int = 5) -> tuple[RetrievalPath, list[str]]:
        answer = await self.plane.retriever.search("repo", query, k)
        return answer.path, [h.entry.path or "" for h in answer.hits]


async def open_rig(
    tmp_path: Path, extra: int = 0, files: dict[str, str] | None = None, **overrides: object
) -> AsyncIterator[Rig]:
    repo = make_repo(tmp_path / "ws" / "repo", extra, files)
    settings = Settings(
        data_dir=tmp_path / "data",
        workspace_root=tmp_path / "ws",
        embedder="none",
        ann_indexing_threshold_kb=1,  # tiny corpora still get an HNSW graph when built
    ).model_copy(update=overrides)
    embedder = HashEmbedder()
    async with EmbeddedApp(settings, watch=False) as app:
        plane = VectorPlane(settings, app.log, app.views, embedder=embedder)
        app.service.plane, app.service.retriever = plane, plane.retriever  # what open() wires
        await app.service.add_repo(t.AddRepoArgs(path=str(repo), repoId="repo"))
        await ingested(app, "repo")
        assert await app.runtime.wait_idle(30)
        try:
            yield Rig(app, plane, embedder)
        finally:
            plane.close()


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    async for r in open_rig(tmp_path):
        yield r


async def test_no_embedder_is_keyword_and_ready(rig: Rig) -> None:
    readiness = Readiness(embedder_bound=False)
    retriever = Retriever(rig.app.views, NoEmbedder(), None, readiness)
    answer = await retriever.search("repo", "ledger", 5)
    assert answer.path == RetrievalPath.KEYWORD_NO_EMBEDDER and answer.mode == "keyword"
    assert readiness.verdict(has_repos=True)[:2] == ("keyword_only", True)


async def test_cold_then_exact_then_approximate(rig: Rig) -> None:
    # No vectors yet: keyword answers, the host is building (not ready).
    path, paths = await rig.search("quarterly ledger")
    assert path == RetrievalPath.KEYWORD_VECTOR_PLANE_UNAVAILABLE and paths == [
        "ledger/reconcile.py"
    ]
    assert rig.plane.readiness.verdict(has_repos=True)[:2] == ("building", False)

    await rig.indexer.run_until_idle()  # below ann_min_points: no HNSW, the exact scan answers
    assert rig.store.state().arm == "exhaustive"
    path, paths = await rig.search("retry backoff sleep delay")
    assert path == RetrievalPath.SEMANTIC_EXACT and paths[0] == "net/retry.py"
    answer = await rig.plane.retriever.search("repo", "retry backoff", 10)
    by_kind = {h.reasons[1]: h for h in answer.hits if h.entry.path == "net/retry.py"}
    file_reasons = by_kind["chunk:file"].reasons
    assert file_reasons[:2] == ["semantic", "chunk:file"]
    assert "keyword-fused" in file_reasons  # hybrid (the default): BM25 found it too
    assert by_kind["chunk:file"].vectorId == point_id("repo/repo/file/net/retry.py", 0)
    assert "chunk:symbol" not in by_kind  # a declaration is embedded in its file's block
    assert rig.plane.readiness.verdict(has_repos=True)[:2] == ("serving", True)

    rig.indexer.ann_min_points = 1
    assert await rig.indexer.maybe_build()
    assert rig.store.state().arm == "approximate"
    path, paths = await rig.search("invoice calculator total amount")
    assert path == RetrievalPath.SEMANTIC_APPROXIMATE and paths[0] == "billing/invoice.py"
    answer = await rig.plane.retriever.search("repo", "invoice calculator total amount", 10)
    keys = [h.entry.key for h in answer.hits]
    assert len(keys) == len(set(keys))  # one hit per source


async def test_the_passage_encoder_is_released_before_an_hnsw_build(rig: Rig) -> None:
    """The build child maps the whole store: the encoder's model copy must not be held too."""
    events: list[str] = []
    setattr(rig.embedder, "release_idle", lambda: events.append("release"))  # noqa: B010
    build = rig.store.build_index

    def recorded_build() -> bool:
        events.append("build")
        return build()

    setattr(rig.store, "build_index", recorded_build)  # noqa: B010
    await rig.indexer.run_until_idle()
    assert events == []  # below ann_min_points: no build, the encoder kept for the next batch
    rig.indexer.ann_min_points = 1
    assert await rig.indexer.maybe_build()
    assert events == ["release", "build"]


async def test_embedder_down_and_query_failure(rig: Rig) -> None:
    await rig.indexer.run_until_idle()
    rig.embedder.fail_queries = True
    assert (await rig.search("ledger"))[0] == RetrievalPath.KEYWORD_VECTOR_PLANE_UNAVAILABLE
    rig.embedder.down = True
    path, paths = await rig.search("ledger")
    assert path == RetrievalPath.KEYWORD_VECTOR_PLANE_UNAVAILABLE and paths == [
        "ledger/reconcile.py"
    ]


async def test_index_throws_is_degraded(rig: Rig) -> None:
    await rig.indexer.run_until_idle()
    rig.store.close()  # any call on a closed shard raises
    path, paths = await rig.search("ledger")
    assert path == RetrievalPath.KEYWORD_INDEX_DEGRADED and paths == ["ledger/reconcile.py"]


async def test_drift_none_hydrate_is_degraded(rig: Rig, caplog: pytest.LogCaptureFixture) -> None:
    store = rig.store
    assert isinstance(store, EdgeVectorStore)
    store.upsert(
        [
            VectorPoint(
                point_id("repo/repo/file/gone.py", 0),
                vector("ledger"),
                {"repo_id": "repo", "kind": "file", "source_key": "x/gone", "path": "gone.py"},
            )
        ]
    )
    path, _ = await rig.search("ledger")
    assert path == RetrievalPath.KEYWORD_INDEX_DEGRADED
    assert "x/gone" in caplog.text  # drift logged with sample keys


async def test_exact_fallback_withheld_by_breaker(tmp_path: Path) -> None:
    async for rig in open_rig(tmp_path, exact_timeout_s=0.0):
        await rig.indexer.run_until_idle()
        # The exact scan "stalls" (exceeds its 0 s budget): cut off (degraded) or answered
        # late, either way the breaker opens...
        first = (await rig.search("ledger"))[0]
        assert first in (RetrievalPath.KEYWORD_INDEX_DEGRADED, RetrievalPath.SEMANTIC_EXACT)
        # ...so the next query does not even try the exact fallback.
        path, paths = await rig.search("ledger")
        assert path == RetrievalPath.KEYWORD_EXACT_FALLBACK_SUPPRESSED
        assert paths == ["ledger/reconcile.py"]


async def test_exact_mode_setting(tmp_path: Path) -> None:
    async for rig in open_rig(tmp_path, semantic_retrieval="exact", ann_min_points=1):
        await rig.indexer.run_until_idle()
        assert rig.store.state().arm == "approximate"
        assert (await rig.search("ledger"))[0] == RetrievalPath.SEMANTIC_EXACT


async def test_backfill_counts_dedupe_and_retention(tmp_path: Path) -> None:
    async for rig in open_rig(tmp_path, extra=70):
        await rig.indexer.run_until_idle()
        status = await rig.app.service.index_status(t.RepoIdArgs(repoId="repo"))
        assert status.filesEmbedded == 70 + 3  # the empty file has no passage
        repos = await rig.app.service.list_repos(t.NoArgs())
        assert status.symbolsEmbedded == 0  # a declaration is embedded in its file's block
        assert repos.repositories[0].embeddedVectorCount == 73  # one block per small file
        assert repos.repositories[0].embeddedVectorCountPending is False

        # Re-deliver everything (a replay from 0): nothing is embedded again.
        before = rig.embedder.texts_embedded
        for topic in rig.indexer.inputs:
            for p in range(await rig.app.log.partitions(topic)):
                await rig.app.log.commit(rig.indexer.group, {(topic, p): 0})
        await rig.indexer.run_until_idle()
        assert rig.embedder.texts_embedded == before
        assert rig.indexer.counters.passages_reused >= 73

        # Re-embed one source 6 times with changing bodies: one live point per passage.
        target = tmp_path / "ws" / "repo" / "net" / "retry.py"
        for i in range(6):
            body = f"def retry_{i}():\n    pass\n" + ("# pad\n" * 300 * (i % 2))
            target.write_text(body)
            await rig.app.ingest.refresh("repo", ["net/retry.py"])
            await rig.app.runtime.run_until_idle()
            await rig.indexer.run_until_idle()
            live = rig.store.count(repo_id="repo", kind="file") - 72
            assert live == len(chunks(body)) > i % 2  # one live point per passage, stale gone


async def test_model_change_is_a_new_space(tmp_path: Path) -> None:
    async for rig in open_rig(tmp_path):
        await rig.indexer.run_until_idle()
        old_dir = rig.plane.store.path  # type: ignore[union-attr]
        other = HashEmbedder()
        other.space = EmbeddingSpace("test/hash-bow-v2", DIM, True)
        plane = VectorPlane(rig.app.settings, rig.app.log, rig.app.views, embedder=other)
        try:
            assert plane.indexer is not None and plane.indexer.group != rig.indexer.group
            assert plane.store is not None and plane.store.count() == 0  # its own collection
            await plane.indexer.run_until_idle()  # backfills from offset 0 in its own group
            assert plane.store.count(repo_id="repo", kind="file") == 3
            assert old_dir.exists()  # the old space stays until the new one serves...
            answer = await plane.retriever.search("repo", "ledger", 3)
            assert answer.path == RetrievalPath.SEMANTIC_EXACT
            assert plane.reclaim_old_spaces() == [old_dir.name]  # ...then it goes
            assert not old_dir.exists()
        finally:
            plane.close()


@pytest.mark.slow  # starts the Qdrant stand-in twice and waits out the unreachable one
async def test_qdrant_server_down_is_vector_plane_unavailable(tmp_path: Path) -> None:
    """A Qdrant server that goes away (tests/qdrant_server.py stands in for one): answers come
    from BM25 and say the vector plane is unavailable; when it is back, semantic again."""
    from tests.conftest import free_port
    from tests.qdrant_server import QdrantServer

    port = free_port()
    server = QdrantServer(tmp_path / "qdrant", port=port).start()
    try:
        overrides: dict[str, Any] = {
            "vector_store": "qdrant",
            "qdrant_url": f"http://127.0.0.1:{port}",
        }
        async for rig in open_rig(tmp_path, 0, **overrides):
            await rig.indexer.run_until_idle()
            assert (await rig.search("ledger"))[0] == RetrievalPath.SEMANTIC_EXACT
            server.stop()
            path, paths = await rig.search("ledger")
            assert path == RetrievalPath.KEYWORD_VECTOR_PLANE_UNAVAILABLE
            assert paths == ["ledger/reconcile.py"]
            server = QdrantServer(tmp_path / "qdrant", port=port).start()
            assert (await rig.search("ledger"))[0] == RetrievalPath.SEMANTIC_EXACT
    finally:
        server.stop()


async def test_fusion_ties_go_to_the_lexical_match(rig: Rig) -> None:
    """Mid-backfill, the file that names the query may have no vector yet: its BM25 rank 1
    meets another file's vector rank 1, and the lexical match must win (the BM25 list
    and the vectors weigh the same, and a tie goes to the lexical match)."""
    await rig.indexer.run_until_idle()
    retriever = rig.plane.retriever
    semantic = await retriever.search("repo", "reconcile the quarterly ledger", 5)
    keyword = await keyword_only_retriever(rig.app.views, Readiness(embedder_bound=False)).search(
        "repo", "retry_with_backoff", 5
    )
    vector_top, keyword_top = semantic.hits[0], keyword.hits[0]
    assert vector_top.entry.path == "ledger/reconcile.py"
    assert keyword_top.entry.path == "net/retry.py"  # its key sorts after the guide's
    fused = fuse([vector_top], [keyword_top], 5)
    assert [h.entry.path for h in fused] == ["net/retry.py", "ledger/reconcile.py"]
    assert fused[0].score >= fused[1].score


async def test_a_smaller_k_gets_the_head_of_the_same_ranking(tmp_path: Path) -> None:
    """A context bundle asks for 10 files and a search for 50; both must see one ranking
    (the fused lists are as deep whatever `k`), or the bundle's first files are not the
    search's first files."""
    async for rig in open_rig(tmp_path, extra=120):
        await rig.indexer.run_until_idle()
        for query in ("function return value", "invoice total of lines", "retry delay 7"):
            deep = (await rig.search(query, 50))[1]
            for k in (3, 10):
                path, head = await rig.search(query, k)
                assert path in (RetrievalPath.SEMANTIC_APPROXIMATE, RetrievalPath.SEMANTIC_EXACT)
                assert head == deep[:k], (query, k)


async def test_a_declined_semantic_path_is_logged_once_per_reason(
    rig: Rig, caplog: pytest.LogCaptureFixture
) -> None:
    """Every search declines the semantic path while no vector exists; the log says so once,
    again when the reason changes, and again after the path has answered in between."""
    caplog.set_level(logging.INFO, logger="query_api.retrieval.ladder")

    def declined() -> list[str]:
        return [
            r.getMessage()
            for r in caplog.records
            if r.levelno == logging.INFO and "semantic path declined" in r.getMessage()
        ]

    for query in ("quarterly ledger", "retry backoff", "invoice total"):
        assert (await rig.search(query))[0] == RetrievalPath.KEYWORD_VECTOR_PLANE_UNAVAILABLE
    assert len(declined()) == 1 and "no vectors yet" in declined()[0]
    await rig.indexer.run_until_idle()
    rig.embedder.fail_queries = True
    await rig.search("ledger")
    await rig.search("ledger again")
    assert len(declined()) == 2 and "query rejected" in declined()[1]
    rig.embedder.fail_queries = False
    assert (await rig.search("ledger"))[0] == RetrievalPath.SEMANTIC_EXACT
    rig.embedder.fail_queries = True
    await rig.search("ledger")
    assert len(declined()) == 3


async def test_a_file_the_query_runs_through_outranks_one_lucky_passage(rig: Rig) -> None:
    """Passage scores collapse to files by the best passage plus support: a file with three
    passages in the pool close behind another file's single best passage ranks first; with
    the support taken away (one passage each) the single best passage wins again."""

    def match(n: int, path: str, score: float) -> VectorMatch:
        return VectorMatch(id=f"p{n}", score=score, payload={"path": path, "kind": "block"})

    lucky = match(0, "billing/invoice.py", 0.800)
    spread = [match(1, "net/retry.py", 0.795), match(2, "net/retry.py", 0.700)]
    spread.append(match(3, "net/retry.py", 0.690))
    retriever = rig.plane.retriever
    hits = retriever._hydrate("repo", "total", [lucky, *spread], 10)
    assert [h.entry.path for h in hits] == ["net/retry.py", "billing/invoice.py"]
    hits = retriever._hydrate("repo", "total", [lucky, spread[0]], 10)
    assert [h.entry.path for h in hits] == ["billing/invoice.py", "net/retry.py"]


async def test_a_doc_or_config_file_the_query_names_keeps_its_keyword_rank(
    tmp_path: Path,
) -> None:
    """Docs and config files are never embedded, so the fusion's semantic share cannot lift
    them: QA passes saw hybrid search put README.md 7th for `fix typo in README` (zerolog)
    and eslint.config.mjs 10th for `chore(eslint.config): ...` (jotai), where keyword search
    put each first. A file the query names by its name keeps its keyword rank; a doc the
    query does not name is still fused by score."""
    code = "# fix the typo in the spelling of the ledger's typo table\ndef fix_{0}():\n    pass\n"
    files = {f"src/typo_{i}.py": code.format(i) for i in range(6)}
    files["README.md"] = "# Ledger\n\nFix a typo in the README: the ledger's readme.\n"
    files["eslint.config.mjs"] = "export default [{ rules: { 'no-unused-vars': 'error' } }]\n"
    async for rig in open_rig(tmp_path, files=files):
        await rig.indexer.run_until_idle()
        keyword = keyword_only_retriever(rig.app.views, Readiness(embedder_bound=False))
        for query, named in (
            ("fix typo in README", "README.md"),
            ("chore(eslint.config): fix typo in rules", "eslint.config.mjs"),
        ):
            path, hybrid = await rig.search(query, 10)
            assert path in (RetrievalPath.SEMANTIC_APPROXIMATE, RetrievalPath.SEMANTIC_EXACT)
            plain = [h.entry.path for h in (await keyword.search("repo", query, 10)).hits]
            assert hybrid.index(named) <= plain.index(named), (query, hybrid, plain)
        _, unnamed = await rig.search("fix typo in the ledger", 10)
        assert unnamed[0] != "README.md", unnamed
