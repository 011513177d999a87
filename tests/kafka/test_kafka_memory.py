"""Memory and claims from a query replica go through the memory step on Kafka.

`repocontext query` appends memory commands to memory.commands.v1; the memory agent of
`repocontext worker` (the keyed single writer, faust) applies them to memory.v1 and answers
on memory.results.v1; the replica waits for that verdict with a deadline and then serves
the entry from its own views (read-your-writes). With no worker running the tool says its
result did not arrive in time; a worker started later still applies the command.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from processors.memory_terms import memory_terms
from schemas import codec
from schemas.events import RepoRegistration
from schemas.memory import MemoryEntry, log_key
from schemas.topics import MEMORY, REPOS
from streams.eventlog.base import LogRecord
from streams.eventlog.kafka import KafkaEventLog
from tests.integration.mcp_helpers import call, call_error, http_session, wait_for
from tests.kafka.test_kafka_worker import Replica, Worker, fold, klog, read_all

pytestmark = pytest.mark.anyio
__all__ = ["klog"]  # the fixture, imported for this module's tests
KEY = "repo/demo/mem/decisions/db"


async def test_replica_memory_commands_round_trip_through_the_worker(
    klog: KafkaEventLog, tmp_path: Path
) -> None:
    registration = RepoRegistration(repo_id="demo", root=None, registered_at=1.0)
    await klog.append(REPOS.name, [LogRecord("demo", codec.encode(registration))])
    replica = Replica(klog, tmp_path, ("REPOCONTEXT_MEMORY_WRITE_TIMEOUT_S", "3"))
    worker: Worker | None = None
    try:
        await replica.wait_live()
        async with http_session(replica.base) as s:
            tools = {t.name for t in (await s.list_tools()).tools}
            assert {"repocontext_remember", "repocontext_claim"} <= tools

            async def known() -> bool:  # the replica has applied the registration
                listed = await s.call_tool("repocontext_list_topics", {"repoId": "demo"})
                return not listed.isError

            await wait_for(known, 30.0, "the replica to know repository demo")
            # no memory worker yet: the command is accepted, its verdict does not come in time
            args = {"repoId": "demo", "topic": "decisions", "id": "db", "title": "Use SQLite"}
            text = await call_error(s, "repocontext_remember", args)
            assert "did not arrive within" in text

            worker = Worker(klog, tmp_path, ("memory",))

            # the earlier command applies once the worker runs (at-least-once, not lost) ...
            async def applied() -> bool:
                got = await call(s, "repocontext_recall", {"key": KEY})
                return bool(got["exists"])

            await wait_for(applied, 45.0, "the pending remember to apply")
            # ... and new commands round-trip within the deadline, read-your-writes
            made = await call(s, "repocontext_remember", {**args, "body": "WAL mode."})
            assert made["created"] is False and made["key"] == KEY
            got = await call(s, "repocontext_recall", {"key": KEY})
            assert got["fields"]["body"] == "WAL mode." and got["fields"]["title"] == "Use SQLite"

            claim = await call(s, "repocontext_claim", {"key": KEY, "owner": "a"})
            assert claim["granted"] is True and claim["fencingToken"] > 0
            busy = await call(s, "repocontext_claim", {"key": KEY, "owner": "b"})
            assert busy["granted"] is False and busy["reason"] == "contended"
            stale = {"key": KEY, "fields": {"body": "x"}, "fencingToken": claim["fencingToken"] - 1}
            assert "StaleToken" in await call_error(s, "repocontext_update", stale)
            release = {"key": KEY, "fencingToken": claim["fencingToken"]}
            released = await call(s, "repocontext_release_claim", release)
            assert released["released"] is True

            gone = await call(s, "repocontext_forget", {"key": KEY})
            assert gone["existed"] is True
            assert (await call(s, "repocontext_recall", {"key": KEY}))["exists"] is False
        # the single writer's output: the entry is a tombstone on memory.v1
        memory = await read_all(klog, MEMORY.name)
        assert log_key("demo", "decisions", "db") in {r.key for r in memory}
        assert log_key("demo", "decisions", "db") not in fold(memory)
    finally:
        replica.proc.terminate()
        assert replica.proc.wait(timeout=30) == 0, replica.out.read_text()[-3000:]
        if worker is not None:
            assert worker.stop() == 0, worker.out.read_text()[-3000:]


async def test_the_memory_worker_re_derives_entries_an_older_build_wrote(
    klog: KafkaEventLog, tmp_path: Path
) -> None:
    """An entry on memory.v1 without search terms (an older build wrote it) is written again
    with its terms once a memory worker starts: the worker queues a rederive command, and
    the memory processor applies it like any other."""
    lkey = log_key("demo", "decisions", "db")
    legacy = MemoryEntry(
        repo_id="demo",
        topic="decisions",
        id="db",
        fields={"title": "Use SQLite"},
        created_at=1.0,
        updated_at=1.0,
    )
    await klog.append(MEMORY.name, [LogRecord(lkey, codec.encode(legacy))])
    worker = Worker(klog, tmp_path, ("memory",))
    try:

        async def derived() -> bool:
            value = fold(await read_all(klog, MEMORY.name)).get(lkey)
            entry = None if value is None else codec.decode(MEMORY.name, value)
            return isinstance(entry, MemoryEntry) and entry.search_terms == memory_terms(legacy)

        await wait_for(derived, 60.0, "the entry written again with its terms")
    finally:
        assert worker.stop() == 0, worker.out.read_text()[-3000:]
