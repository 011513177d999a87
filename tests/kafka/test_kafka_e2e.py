"""A fixture repository through the whole Kafka path answers like the embedded mode.

git source (file:// URL, in-process) -> files.v1 -> `repocontext worker` (faust agents) ->
record topics -> `repocontext query` (HTTP MCP). The same repository served by `repocontext
mcp` (embedded, stdio) must give the same search, outline and related answers, apart from the
fields that say where and how fresh an answer is.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession

from streams.eventlog.kafka import KafkaEventLog
from streams.sources.git_poller import GitPoller, GitSource
from tests.integration.mcp_helpers import call, http_session, stdio_session, wait_for, wait_indexed
from tests.integration.test_symbols_mcp import write_repo
from tests.kafka.test_kafka_worker import Replica, Worker, klog

pytestmark = pytest.mark.anyio
__all__ = ["klog"]  # the fixture, imported for this module's tests

SEARCHES = ("make service", "Invoice order", "checkout cart", "Cart Total", "shop")
FILES = ("shop/orders.py", "shop/billing.py", "shop/checkout.py", "store/cart.go")


def committed_repo(root: Path) -> Path:
    repo = write_repo(root)
    for args in (
        ("init", "-q", "-b", "main"),
        ("add", "-A"),
        ("-c", "user.name=t", "-c", "user.email=t@x", "commit", "-qm", "fixture"),
    ):
        subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)
    return repo


async def answers(session: ClientSession) -> dict[str, Any]:
    """What an agent sees, less what says how fresh this process is (freshness, when a file
    was applied to its views)."""
    got: dict[str, Any] = {}
    for query in SEARCHES:
        result = await call(session, "repocontext_search", {"repoId": "shop", "query": query})
        result.pop("freshness", None)
        for hit in result["hits"]:
            hit["score"] = round(hit["score"], 6)
            hit["entry"]["fields"].pop("lastIngested")  # when this process applied it
        got[f"search:{query}"] = result
    for path in FILES:
        for tool in ("outline", "related"):
            result = await call(session, f"repocontext_{tool}", {"repoId": "shop", "path": path})
            result.pop("freshness", None)
            got[f"{tool}:{path}"] = result
    return got


async def test_kafka_path_answers_like_embedded(klog: KafkaEventLog, tmp_path: Path) -> None:
    repo = committed_repo(tmp_path / "shop")
    async with stdio_session(tmp_path / "embedded-data", str(repo)) as session:
        await wait_indexed(session, "shop")

        async def symbols_in() -> bool:
            args = {"repoId": "shop", "path": "shop/orders.py"}
            return bool((await call(session, "repocontext_outline", args))["symbols"])

        await wait_for(symbols_in, 30.0, "embedded symbols")
        embedded = await answers(session)
    assert embedded["search:make service"]["hits"][0]["entry"]["path"] == "shop/orders.py"
    assert embedded["related:shop/orders.py"]["imports"] == ["shop.billing"]

    poller = GitPoller(klog, GitSource("shop", f"file://{repo}", "main"), tmp_path / "staging")
    await poller.register()
    assert (await poller.poll_once()).status == "published"
    worker, replica = Worker(klog, tmp_path, ()), Replica(klog, tmp_path)
    try:
        await replica.wait_live()
        async with http_session(replica.base) as session:
            last: dict[str, Any] = {}

            async def same() -> bool:
                assert worker.proc.poll() is None, worker.out.read_text()[-3000:]
                last.update(await answers(session))
                return last == embedded

            try:
                await wait_for(same, 60.0, "the replica to answer like the embedded mode")
            except AssertionError:
                diff = [
                    (k, embedded[k], last.get(k)) for k in embedded if last.get(k) != embedded[k]
                ]
                raise AssertionError(f"answers differ: {diff}") from None
    finally:
        replica.proc.terminate()
        assert replica.proc.wait(timeout=30) == 0, replica.out.read_text()[-3000:]
        assert worker.stop() == 0, worker.out.read_text()[-3000:]
