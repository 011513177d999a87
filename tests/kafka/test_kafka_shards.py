"""Query replicas sharded by repository on the real broker (deploy/SCALING.md): two replicas,
shard 0/2 and 1/2, each holding one of two repositories. Each reads only its partitions (its
consumer group has offsets on no other), lists and serves only its repositories, is ready
(lag counts its own partitions only); a call for the other shard's repository is forwarded
by a replica that knows where the shards answer, and refused naming the owner by one that
does not; a search naming no repository fans out to every shard and merges the hits, and a
shard that does not answer leaves a partial answer that names it.
"""

from __future__ import annotations

import contextlib
import subprocess
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from schemas import codec
from schemas.events import RepoRegistration
from schemas.topics import CATALOGUE, CONTENT, FILES, REPOS, STRUCTURE
from streams.eventlog.base import LogRecord
from streams.eventlog.kafka import KafkaEventLog
from tests.conftest import child_env, cli_command, free_port
from tests.integration.mcp_helpers import call, call_error, http_session, wait_for
from tests.kafka.broker import KafkaBroker
from tests.kafka.test_kafka_worker import Worker
from tests.log_records import upsert_record
from tests.streams.test_replica_shards import repos_by_shard

pytestmark = [pytest.mark.anyio, pytest.mark.slow]


@pytest.fixture
async def klog(kafka_broker: KafkaBroker) -> AsyncIterator[KafkaEventLog]:
    log = KafkaEventLog(f"kafka://{kafka_broker.bootstrap}?prefix=s{uuid.uuid4().hex[:12]}.")
    await log.create_topics(CATALOGUE)
    yield log
    await log.close()


upsert = upsert_record


def replica(
    log: KafkaEventLog, tmp: Path, shard: int, port: int, urls: str | None
) -> subprocess.Popen[bytes]:
    env = child_env(tmp / f"shard{shard}-data")
    env["REPOCONTEXT_LOG_URL"] = log.url
    env["REPOCONTEXT_EMBEDDER"] = "none"
    env["REPOCONTEXT_REPLICA_ID"] = f"shard{shard}"
    env["REPOCONTEXT_REPLICA_SHARD"] = f"{shard}/2"
    if urls is not None:
        env["REPOCONTEXT_SHARD_URLS"] = urls
    with open(tmp / f"shard{shard}.log", "wb") as sink:
        return subprocess.Popen(
            cli_command("query", "--port", str(port)),
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )


async def ready(base: str) -> bool:
    with contextlib.suppress(httpx.HTTPError):
        async with httpx.AsyncClient(timeout=5) as client:
            return (await client.get(base + "/health/ready")).status_code == 200
    return False


async def test_two_replicas_each_hold_their_shard_and_forward_or_refuse_the_other(
    klog: KafkaEventLog, tmp_path: Path
) -> None:
    (repo0,), (repo1,) = repos_by_shard(2)
    for repo in (repo0, repo1):
        registration = RepoRegistration(repo_id=repo, root=None, registered_at=1.0)
        await klog.append(REPOS.name, [LogRecord(repo, codec.encode(registration))])
        await klog.append(
            FILES.name,
            [upsert(repo, f"src/{repo}_{i}.py", f"def {repo}_probe_{i}():\n    return {i}\n")
            for i in range(6)],
        )  # fmt: skip
    ports = [free_port(), free_port()]
    bases = [f"http://127.0.0.1:{p}" for p in ports]
    worker = Worker(klog, tmp_path, ("structural", "content", "memory"))
    # shard 0 knows where every shard answers (forwards); shard 1 does not (refuses)
    procs = [
        replica(klog, tmp_path, 0, ports[0], ",".join(b + "/mcp" for b in bases)),
        replica(klog, tmp_path, 1, ports[1], None),
    ]

    def logs() -> str:
        return "\n".join((tmp_path / f"shard{k}.log").read_text()[-2000:] for k in (0, 1))

    try:
        for k, (repo, base) in enumerate(zip((repo0, repo1), bases, strict=True)):

            async def serves(base: str = base, repo: str = repo, k: int = k) -> bool:
                assert procs[k].poll() is None, logs()
                if not await ready(base):
                    return False
                async with http_session(base) as session:
                    args = {"repoId": repo, "query": f"{repo}_probe_4"}
                    result = await call(session, "repocontext_search", args)
                return [h["entry"]["path"] for h in result["hits"]][:1] == [f"src/{repo}_4.py"]

            await wait_for(serves, 120.0, f"shard {k} to serve {repo} and be ready")

        # each replica holds only its repositories (shard 1 lists its own); shard 0, which
        # knows where every shard answers, lists every shard's ...
        async with http_session(bases[1]) as session:
            listed = await call(session, "repocontext_list_repos", {})
        assert [r["repoId"] for r in listed["repositories"]] == [repo1]
        async with http_session(bases[0]) as session:
            listed = await call(session, "repocontext_list_repos", {})
        assert [r["repoId"] for r in listed["repositories"]] == sorted([repo0, repo1])
        assert listed["count"] == 2
        # ... and read only its partitions: its group has offsets on no other
        record_topics = [STRUCTURE.name, CONTENT.name]
        positions = await klog.positions(record_topics, ["views.shard0", "views.shard1"])
        for k in (0, 1):
            read = {tp for tp, at in positions.committed[f"views.shard{k}"].items() if at}
            assert read and all(p % 2 == k for _t, p in read), (k, read)

        # shard 0 forwards a call for shard 1's repository to shard 1, which answers it
        async with http_session(bases[0]) as session:
            args = {"repoId": repo1, "query": f"{repo1}_probe_2"}
            result = await call(session, "repocontext_search", args)
        assert [h["entry"]["path"] for h in result["hits"]][:1] == [f"src/{repo1}_2.py"]
        # a memory write for shard 1's repository through shard 0 lands on shard 1 (its memory
        # partitions), and a recall by key is routed by the key's repository
        key = f"repo/{repo1}/mem/decisions/db"
        remember = {"repoId": repo1, "topic": "decisions", "id": "db", "title": "Use SQLite"}
        async with http_session(bases[0]) as session:
            made = await call(session, "repocontext_remember", remember)
            assert made["key"] == key
            assert (await call(session, "repocontext_recall", {"key": key}))["exists"] is True
        async with http_session(bases[1]) as session:
            got = await call(session, "repocontext_recall", {"key": key})
            assert got["exists"] is True and got["fields"]["title"] == "Use SQLite"
        # shard 1 does not know where shard 0 answers: refused, naming the owner
        async with http_session(bases[1]) as session:
            args = {"repoId": repo0, "query": f"{repo0}_probe_2"}
            text = await call_error(session, "repocontext_search", args)
        assert f"repository {repo0!r} is not held by this replica (shard 1/2)" in text
        assert "it lives on shard 0/2" in text
        # a search naming no repository fans out: shard 0 merges both shards' hits by score,
        # cut to k, and says that both answered ...
        both = f"{repo0}_probe_3 {repo1}_probe_3"
        async with http_session(bases[0]) as session:
            merged = await call(session, "repocontext_search", {"query": both, "k": 3})
            each = [
                await call(session, "repocontext_search", {"repoId": r, "query": both, "k": 3})
                for r in (repo0, repo1)
            ]
        assert "repoId" not in merged  # every repository: no single one, and no null sent
        assert merged["searchedRepos"] == sorted([repo0, repo1])
        assert merged["shards"] == [
            {"shard": "0/2", "answered": True},
            {"shard": "1/2", "answered": True},
        ]
        assert len(merged["hits"]) == 3
        # the best 3 of the two repositories' own answers, by score
        pooled = sorted(
            (h for answer in each for h in answer["hits"]),
            key=lambda h: (-h["score"], h["entry"]["key"]),
        )
        keys = [h["entry"]["key"] for h in merged["hits"]]
        assert keys == [h["entry"]["key"] for h in pooled[:3]], (merged["hits"], pooled)
        assert {h["entry"]["repoId"] for h in merged["hits"]} == {repo0, repo1}
        # ... while shard 1, which does not know where shard 0 answers, gives its own hits and
        # names shard 0 as not answered (a partial answer, not an error)
        async with http_session(bases[1]) as session:
            own = await call(session, "repocontext_search", {"query": both})
        assert {h["entry"]["repoId"] for h in own["hits"]} == {repo1}
        assert own["shards"][0]["shard"] == "0/2" and own["shards"][0]["answered"] is False
        assert "REPOCONTEXT_SHARD_URLS" in own["shards"][0]["reason"]
        # more forwarded calls (over one pooled upstream session), then shard 1 goes: a refusal
        async with http_session(bases[0]) as session:
            for i in range(3):
                args = {"repoId": repo1, "query": f"{repo1}_probe_{i}"}
                await call(session, "repocontext_search", args)
            procs[1].terminate()
            assert procs[1].wait(timeout=30) == 0, logs()
            text = await call_error(session, "repocontext_search", args)
            gone = await session.call_tool("repocontext_list_repos", {})
            partial = await call(session, "repocontext_search", {"query": both})
        assert f"repository {repo1!r} lives on shard 1/2 ({bases[1]}/mcp)" in text
        assert "which did not answer" in text
        # list_repos still answers, with its own repository and a note on the missing shard
        assert not gone.isError and gone.structuredContent is not None
        assert [r["repoId"] for r in gone.structuredContent["repositories"]] == [repo0]
        notes = " ".join(getattr(block, "text", "") for block in gone.content)
        assert "shard(s) 1/2 did not answer" in notes
        # an every-repository search answers with shard 0's hits and says shard 1 did not answer
        assert {h["entry"]["repoId"] for h in partial["hits"]} == {repo0}
        assert partial["shards"][0] == {"shard": "0/2", "answered": True}
        assert partial["shards"][1]["answered"] is False
        assert "did not answer" in partial["shards"][1]["reason"]
        opened = (tmp_path / "shard0.log").read_text()
        assert "Traceback" not in opened, opened[-3000:]
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            assert proc.wait(timeout=30) == 0, logs()
        worker.stop()
