"""Lag you can see, on the real broker: a worker, two query replicas and a git source each serve
/health/* and Prometheus /metrics (per step and partition consumer lag, events, dead letters,
replica lag, log reachability, readiness); each replica tracks its own position in its own
consumer group (views.<replica id>), none in a shared one; a replica is ready only once its
lag is within the bound; a restarted replica resumes from its views, and one out of step
longer than the tombstone retention, or over topics made again, rebuilds them.
"""

from __future__ import annotations

import subprocess
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from schemas import codec
from schemas.events import RepoRegistration
from schemas.topics import CATALOGUE, CONTENT, FILES, REPOS, STRUCTURE
from streams.eventlog.base import LogRecord
from streams.eventlog.kafka import KafkaEventLog
from streams.runtime.embedded import EmbeddedRuntime
from streams.stores.views.handlers import default_registry
from streams.stores.views.store import ViewStore
from streams.topology import view_sink_step
from tests.conftest import child_env, cli_command, free_port
from tests.integration.mcp_helpers import call, http_session, wait_for
from tests.kafka.broker import KafkaBroker
from tests.kafka.test_kafka_worker import Replica, upsert

pytestmark = [pytest.mark.anyio, pytest.mark.slow]
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


@pytest.fixture
async def klog(kafka_broker: KafkaBroker) -> AsyncIterator[KafkaEventLog]:
    log = KafkaEventLog(f"kafka://{kafka_broker.bootstrap}?prefix=m{uuid.uuid4().hex[:12]}.")
    await log.create_topics(CATALOGUE)
    yield log
    await log.close()


async def scrape(base: str) -> Samples:
    async with httpx.AsyncClient(timeout=10) as client:
        response = await client.get(base + "/metrics")
    assert response.status_code == 200, response.text
    out: Samples = {}
    for family in text_string_to_metric_families(response.text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def named(samples: Samples, name: str) -> dict[tuple[tuple[str, str], ...], float]:
    return {labels: v for (n, labels), v in samples.items() if n == name}


async def status(base: str, path: str = "/health/ready") -> int:
    async with httpx.AsyncClient(timeout=10) as client:
        return (await client.get(base + path)).status_code


def spawn(tmp: Path, log: KafkaEventLog, name: str, *args: str) -> subprocess.Popen[bytes]:
    env = child_env(tmp / f"{name}-data")
    env["REPOCONTEXT_LOG_URL"] = log.url
    with open(tmp / f"{name}.log", "wb") as sink:
        return subprocess.Popen(cli_command(*args), env=env, stdout=sink, stderr=subprocess.STDOUT)


def git_repository(work: Path) -> str:
    work.mkdir()
    git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", "-b", "main", str(work)], check=True)
    (work / "lib.py").write_text("def from_git():\n    return 1\n")
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "one"], check=True)
    return f"file://{work}"


async def test_every_process_serves_lag_metrics_and_replicas_keep_their_own_position(
    klog: KafkaEventLog, tmp_path: Path
) -> None:
    registration = RepoRegistration(repo_id="demo", root=None, registered_at=1.0)
    await klog.append(REPOS.name, [LogRecord("demo", codec.encode(registration))])
    bodies = {f"src/gauge{i}.py": f"def read_gauge_{i}():\n    return {i}\n" for i in range(12)}
    await klog.append(FILES.name, [upsert(p, b) for p, b in bodies.items()])
    await klog.append(FILES.name, [LogRecord("demo/poison.py", b"not json")])
    worker_port, source_port = free_port(), free_port()
    steps = ("--step", "structural", "--step", "content")
    worker = spawn(tmp_path, klog, "worker", "worker", *steps, "--metrics-port", str(worker_port))
    url = git_repository(tmp_path / "repo")
    source = spawn(
        tmp_path, klog, "source", "git-source", url, "--repo-id", "fromgit", "--ref", "main",
        "--metrics-port", str(source_port),
    )  # fmt: skip
    for rid in ("r1", "r2"):
        (tmp_path / rid).mkdir()
    replicas = [
        Replica(klog, tmp_path / rid, ("REPOCONTEXT_REPLICA_ID", rid)) for rid in ("r1", "r2")
    ]
    worker_base, source_base = f"http://127.0.0.1:{worker_port}", f"http://127.0.0.1:{source_port}"
    try:
        for replica in replicas:
            await replica.wait_live()

            async def serves(base: str = replica.base) -> bool:
                async with http_session(base) as session:
                    args = {"repoId": "demo", "query": "read_gauge_7"}
                    result = await call(session, "repocontext_search", args)
                return [h["entry"]["path"] for h in result["hits"]][:1] == ["src/gauge7.py"]

            await wait_for(serves, 90.0, "the replica to serve the indexed files")

        # each replica's position is its own group's; the old shared `views` group stays empty
        record_topics = [REPOS.name, STRUCTURE.name, CONTENT.name]

        async def both_caught_up() -> bool:
            pos = await klog.positions(record_topics, ["views.r1", "views.r2", "views"])
            assert not any(pos.committed["views"].values()), pos.committed["views"]
            return all(pos.committed[g] == pos.ends for g in ("views.r1", "views.r2"))

        await wait_for(both_caught_up, 60.0, "both replicas' groups at the log end")

        async def worker_done() -> Samples | None:
            samples = await scrape(worker_base)
            lag = named(samples, "repocontext_consumer_lag_events")
            # 12 files, the poison event and the git source's lib.py, by both steps
            done = set(named(samples, "repocontext_step_events_total").values()) == {14.0}
            if done and len(lag) == 12 and not any(lag.values()):  # 2 steps x 6 partitions
                return samples
            return None

        samples = await wait_for(worker_done, 60.0, "the worker's groups to reach the end")
        events = named(samples, "repocontext_step_events_total")
        assert events == {(("step", "structural"),): 14.0, (("step", "content"),): 14.0}
        dead = named(samples, "repocontext_dead_letters_total")
        assert dead == {(("step", "structural"),): 1.0, (("step", "content"),): 1.0}
        assert named(samples, "repocontext_event_log_reachable") == {(): 1.0}
        assert named(samples, "repocontext_ready") == {(): 1.0}
        assert await status(worker_base) == 200 and await status(worker_base, "/health/live") == 200

        # the git source's records may reach the record topics after the groups caught up:
        # the replica's lag gauge says 0 once it has read them too
        async def replica_caught_up() -> Samples | None:
            found = await scrape(replicas[0].base)
            lag = named(found, "repocontext_replica_lag_events")
            return found if lag == {(): 0.0} else None

        replica_samples = await wait_for(replica_caught_up, 60.0, "the replica's lag gauge at 0")
        groups = {
            dict(k)["group"] for k in named(replica_samples, "repocontext_consumer_lag_events")
        }
        assert groups == {"views.r1"}
        assert named(replica_samples, "repocontext_ready") == {(): 1.0}

        async def polled() -> Samples | None:
            found = await scrape(source_base)
            polls = named(found, "repocontext_source_polls_total")
            return found if polls.get((("repo", "fromgit"), ("status", "published"))) else None

        found = await wait_for(polled, 60.0, "the git source's first poll")
        assert named(found, "repocontext_source_files_published_total") == {
            (("repo", "fromgit"),): 1.0
        }
        assert await status(source_base) == 200
    finally:
        for replica in replicas:
            replica.proc.terminate()
        source.terminate()
        worker.terminate()
        for proc in (*[r.proc for r in replicas], source, worker):
            assert proc.wait(timeout=60) == 0, (tmp_path / "worker.log").read_text()[-3000:]


async def test_a_replica_is_ready_only_within_the_lag_bound(
    klog: KafkaEventLog, tmp_path: Path
) -> None:
    from query_api.core.replica_lag import lag_not_ready

    regs = [RepoRegistration(repo_id=f"r{i}", root=None, registered_at=1.0) for i in range(20)]
    await klog.append(REPOS.name, [LogRecord(r.repo_id, codec.encode(r)) for r in regs])
    views = ViewStore(tmp_path / "views.db", default_registry())
    runtime = EmbeddedRuntime(klog, views, (view_sink_step(),), sink_group="views.test")
    try:
        assert (
            lag_not_ready(runtime, 5) == "the views' lag behind the event log is not measured yet"
        )
        await runtime.lag_watch.refresh()
        reason = lag_not_ready(runtime, 5)
        assert reason is not None and "trail the event log by 20 events" in reason
        assert lag_not_ready(runtime, 20) is None  # the bound is configurable
        await runtime.run_until_idle()
        await runtime.lag_watch.refresh()
        assert lag_not_ready(runtime, 0) is None
        lag = runtime.current_lag()
        assert lag is not None and lag.behind == 0 and lag.measured_at is not None
        assert (await klog.start_offsets(REPOS.name)) == {0: 0}
    finally:
        views.close()


async def test_a_replica_out_of_step_longer_than_the_tombstone_retention_rebuilds(
    klog: KafkaEventLog, tmp_path: Path
) -> None:
    """A replica that was last in step with the log longer ago than the broker keeps
    tombstones deletes its views at start and rebuilds them from the log, saying why."""
    from streams.runtime.view_staleness import SYNC_GROUP, SYNC_KEY

    registration = RepoRegistration(repo_id="demo", root=None, registered_at=1.0)
    await klog.append(REPOS.name, [LogRecord("demo", codec.encode(registration))])
    bodies = {"src/kept.py": "def kept_here():\n    pass\n", "src/gone.py": "def gone_soon():\n"}
    await klog.append(FILES.name, [upsert(p, b) for p, b in bodies.items()])
    worker_proc = spawn(
        tmp_path, klog, "worker", "worker", "--step", "structural", "--step", "content"
    )
    (tmp_path / "r").mkdir()

    async def top(base: str, query: str) -> list[str]:
        async with http_session(base) as session:
            result = await call(session, "repocontext_search", {"repoId": "demo", "query": query})
        return [h["entry"]["path"] for h in result["hits"]][:1]

    try:
        replica = Replica(klog, tmp_path / "r", ("REPOCONTEXT_REPLICA_ID", "r9"))
        await replica.wait_live()

        async def both_served() -> bool:
            return await top(replica.base, "gone_soon") == ["src/gone.py"]

        await wait_for(both_served, 90.0, "the replica to serve both files")
        replica.proc.terminate()
        assert replica.proc.wait(timeout=60) == 0, replica.out.read_text()[-3000:]
        # as if it had been down for two days: last in step with the log 48 h ago
        views = ViewStore(tmp_path / "r" / "replica-data" / "views.db", default_registry())
        two_days_ago_ms = int((time.time() - 2 * 86_400) * 1000)
        views.apply([], {SYNC_KEY: two_days_ago_ms}, SYNC_GROUP)
        views.close()
        await klog.append(FILES.name, [LogRecord("demo/src/gone.py", None)])

        replica = Replica(klog, tmp_path / "r", ("REPOCONTEXT_REPLICA_ID", "r9"))
        await replica.wait_live()

        async def deletion_served() -> bool:
            gone = await top(replica.base, "gone_soon")
            return gone == [] and await top(replica.base, "kept_here") == ["src/kept.py"]

        await wait_for(deletion_served, 90.0, "the rebuilt views without the deleted file")
        out = replica.out.read_text()
        assert "rebuilding the views from the log" in out and "tombstones" in out, out[-3000:]
    finally:
        replica.proc.terminate()
        assert replica.proc.wait(timeout=60) == 0, replica.out.read_text()[-3000:]
        worker_proc.terminate()
        worker_proc.wait(timeout=60)


async def test_a_restarted_replica_resumes_from_its_views(
    klog: KafkaEventLog, tmp_path: Path
) -> None:
    """What a StatefulSet's volume is for: a replica restarted on the same data directory
    keeps its views (the same file, no rebuild) and reads on from the position they hold, so
    it applies only what was appended while it was down."""
    registration = RepoRegistration(repo_id="demo", root=None, registered_at=1.0)
    await klog.append(REPOS.name, [LogRecord("demo", codec.encode(registration))])
    first = {f"src/kept{i}.py": f"def kept_before_{i}():\n    pass\n" for i in range(8)}
    await klog.append(FILES.name, [upsert(p, b) for p, b in first.items()])
    worker_proc = spawn(
        tmp_path, klog, "worker", "worker", "--step", "structural", "--step", "content"
    )
    (tmp_path / "r").mkdir()
    views_db = tmp_path / "r" / "replica-data" / "views.db"
    record_topics = [REPOS.name, STRUCTURE.name, CONTENT.name]

    async def top(base: str, query: str) -> list[str]:
        async with http_session(base) as session:
            result = await call(session, "repocontext_search", {"repoId": "demo", "query": query})
        return [h["entry"]["path"] for h in result["hits"]][:1]

    async def group_at_the_end() -> bool:
        pos = await klog.positions(record_topics, ["views.r5"])
        return pos.committed["views.r5"] == pos.ends

    try:
        replica = Replica(klog, tmp_path / "r", ("REPOCONTEXT_REPLICA_ID", "r5"))
        await replica.wait_live()

        async def first_served() -> bool:
            return await top(replica.base, "kept_before_7") == ["src/kept7.py"]

        await wait_for(first_served, 90.0, "the replica to serve the first files")
        await wait_for(group_at_the_end, 60.0, "the replica's group at the log end")
        replica.proc.terminate()
        assert replica.proc.wait(timeout=60) == 0, replica.out.read_text()[-3000:]
        views = ViewStore(views_db, default_registry())
        assert views.total_applied() > 0  # the position the restart reads on from
        views.close()
        inode = views_db.stat().st_ino

        later = {f"src/later{i}.py": f"def added_later_{i}():\n    pass\n" for i in range(3)}
        await klog.append(FILES.name, [upsert(p, b) for p, b in later.items()])
        replica = Replica(klog, tmp_path / "r", ("REPOCONTEXT_REPLICA_ID", "r5"))
        await replica.wait_live()

        async def both_served() -> bool:
            if await top(replica.base, "added_later_2") != ["src/later2.py"]:
                return False
            return await top(replica.base, "kept_before_3") == ["src/kept3.py"]

        await wait_for(both_served, 90.0, "the restarted replica to serve old and new files")
        await wait_for(group_at_the_end, 60.0, "the restarted replica's group at the log end")
        assert views_db.stat().st_ino == inode  # the same views, never deleted or moved aside
        out = replica.out.read_text()
        assert "rebuilding" not in out and "Traceback" not in out, out[-3000:]
    finally:
        replica.proc.terminate()
        assert replica.proc.wait(timeout=60) == 0, replica.out.read_text()[-3000:]
        worker_proc.terminate()
        worker_proc.wait(timeout=60)


async def test_a_replica_over_a_recreated_log_rebuilds_its_views(
    klog: KafkaEventLog, kafka_broker: KafkaBroker, tmp_path: Path
) -> None:
    """Views kept on a volume while the topics were deleted and made again (a cluster rebuilt):
    the replica's offsets are past the new partitions' ends, so it rebuilds its views from
    the new log instead of resuming there and skipping every record up to its old position."""
    from aiokafka.admin import AIOKafkaAdminClient

    registration = RepoRegistration(repo_id="demo", root=None, registered_at=1.0)
    old = {f"src/old{i}.py": f"def before_recreate_{i}():\n    pass\n" for i in range(12)}
    await klog.append(REPOS.name, [LogRecord("demo", codec.encode(registration))])
    await klog.append(FILES.name, [upsert(p, b) for p, b in old.items()])
    steps = ("worker", "--step", "structural", "--step", "content")
    worker_proc = spawn(tmp_path, klog, "worker-1", *steps)
    (tmp_path / "r").mkdir()

    async def top(base: str, query: str) -> list[str]:
        async with http_session(base) as session:
            result = await call(session, "repocontext_search", {"repoId": "demo", "query": query})
        return [h["entry"]["path"] for h in result["hits"]][:1]

    admin = AIOKafkaAdminClient(bootstrap_servers=kafka_broker.bootstrap)
    await admin.start()
    replica = Replica(klog, tmp_path / "r", ("REPOCONTEXT_REPLICA_ID", "r7"))
    try:
        await replica.wait_live()

        async def old_served() -> bool:
            return await top(replica.base, "before_recreate_5") == ["src/old5.py"]

        await wait_for(old_served, 90.0, "the replica to serve the first log's files")
        for proc in (replica.proc, worker_proc):
            proc.terminate()
            assert proc.wait(timeout=60) == 0, replica.out.read_text()[-3000:]
        names = [klog.physical_topic(t.name) for t in CATALOGUE]
        await admin.delete_topics(names)

        async def made_again() -> bool:
            if set(names) & set(await admin.list_topics()):
                return False  # still being deleted
            await klog.create_topics(CATALOGUE)
            return True

        await wait_for(made_again, 60.0, "the topics to be deleted and made again")
        await klog.append(REPOS.name, [LogRecord("demo", codec.encode(registration))])
        await klog.append(FILES.name, [upsert("src/new.py", "def after_recreate():\n    pass\n")])
        worker_proc = spawn(tmp_path, klog, "worker-2", *steps)
        replica = Replica(klog, tmp_path / "r", ("REPOCONTEXT_REPLICA_ID", "r7"))
        await replica.wait_live()

        async def new_log_served() -> bool:
            if await top(replica.base, "after_recreate") != ["src/new.py"]:
                return False
            return await top(replica.base, "before_recreate_5") == []

        await wait_for(new_log_served, 90.0, "the rebuilt views of the new log")
        out = replica.out.read_text()
        assert "rebuilding the views from the log" in out and "recreated" in out, out[-3000:]
    finally:
        await admin.close()
        replica.proc.terminate()
        assert replica.proc.wait(timeout=60) == 0, replica.out.read_text()[-3000:]
        worker_proc.terminate()
        worker_proc.wait(timeout=60)
