"""Query replicas sharded by repository (streams/runtime/shards.py): the shard arithmetic, and a
view sink that keeps only its shard's repositories from a real SQLite log (the Kafka path is
tests/kafka/test_kafka_shards.py)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from schemas import codec, topics
from schemas.events import RepoRegistration
from streams.eventlog.base import LogRecord
from streams.eventlog.factory import open_event_log
from streams.runtime.embedded import EmbeddedRuntime
from streams.runtime.shards import ShardAssignment
from streams.runtime.view_staleness import record_shard, recorded_shard, views_outlived_log
from streams.stores.views.handlers import default_registry
from streams.stores.views.store import ViewStore
from streams.topology import VIEW_SINK_GROUP, VIEW_TOPICS
from tests.log_records import upsert_record

pytestmark = pytest.mark.anyio


def repos_by_shard(count: int, per_shard: int = 1) -> list[list[str]]:
    """Repository ids, `per_shard` of them for each of `count` shards."""
    found: list[list[str]] = [[] for _ in range(count)]
    i = 0
    while any(len(f) < per_shard for f in found):
        repo = f"repo{i}"
        owner = ShardAssignment(0, count).owner_of(repo)
        if len(found[owner]) < per_shard:
            found[owner].append(repo)
        i += 1
    return found


def test_a_repository_lives_in_the_same_shard_on_every_partitioned_topic() -> None:
    for count in (2, 3, 6):
        for i in range(50):
            repo = f"r{i}"
            owner = ShardAssignment(0, count).owner_of(repo)
            for spec in topics.CATALOGUE:
                partition = topics.partition_for(f"{repo}/x", spec.partitions)
                held = [
                    k
                    for k in range(count)
                    if ShardAssignment(k, count).holds_partition(spec.partitions, partition)
                ]
                # single-partition topics are read by every shard (records kept by key)
                assert held == ([owner] if spec.partitions > 1 else list(range(count)))


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("1", "expected K/S"),
        ("0/4", "do not divide"),
        ("2/2", "shards count from 0"),
        ("-1/2", "expected K/S"),
    ],
)
def test_a_bad_shard_setting_is_refused_by_name(text: str, why: str) -> None:
    with pytest.raises(ValueError, match="REPOCONTEXT_REPLICA_SHARD") as caught:
        ShardAssignment.parse(text)
    assert why in str(caught.value)


upsert = upsert_record


async def test_a_sharded_view_sink_keeps_only_its_repositories(tmp_path: Path) -> None:
    log = open_event_log(f"sqlite:///{tmp_path / 'log.db'}")
    await log.create_topics(topics.CATALOGUE)
    views = ViewStore(tmp_path / "views.db", default_registry())
    mine, theirs = repos_by_shard(2, per_shard=2)
    try:
        for repo in mine + theirs:
            reg = RepoRegistration(repo_id=repo, root=None, registered_at=1.0)
            await log.append(topics.REPOS.name, [LogRecord(repo, codec.encode(reg))])
            await log.append(
                topics.FILES.name, [upsert(repo, f"m{i}.py", f"x_{i} = {i}\n") for i in range(3)]
            )
        runtime = EmbeddedRuntime(log, views, shard=ShardAssignment(0, 2))
        await runtime.run_until_idle()
        assert sorted(r.repo_id for r in views.list_repos()) == sorted(mine)
        for repo in mine:
            assert views.file_count(repo) == 3
        for repo in theirs:
            assert views.file_count(repo) == 0 and views.get_repo(repo) is None
        # the other shard's partitions are never read, and never count as lag
        held = views.offsets(VIEW_SINK_GROUP)
        assert held and all(p % 2 == 0 for (t, p) in held if t != topics.REPOS.name)
        assert (await runtime.lag()).behind == 0
        assert await runtime.wait_idle(5.0)
    finally:
        views.close()
        await log.close()


async def test_views_of_another_shard_assignment_are_rebuilt(tmp_path: Path) -> None:
    log = open_event_log(f"sqlite:///{tmp_path / 'log.db'}")
    await log.create_topics(topics.CATALOGUE)
    views = ViewStore(tmp_path / "views.db", default_registry())
    try:
        await log.append(topics.STRUCTURE.name, [LogRecord("r/a.py", b"{}")])
        partition = topics.partition_for("r/a.py", topics.STRUCTURE.partitions)
        views.apply([], {(topics.STRUCTURE.name, partition): 1}, VIEW_SINK_GROUP)
        args = (VIEW_SINK_GROUP, VIEW_TOPICS, 86_400.0, time.time())
        whole, half = ShardAssignment(0, 1), ShardAssignment(1, 2)
        assert recorded_shard(views) is None  # views from before shards hold everything
        assert await views_outlived_log(log, views, *args) is None
        reason = await views_outlived_log(log, views, *args, half)
        assert (
            reason == "the views hold shard 0/1 of the repositories and this replica is shard 1/2"
        )
        record_shard(views, half)
        assert recorded_shard(views) == half
        assert await views_outlived_log(log, views, *args, half) is None
        assert await views_outlived_log(log, views, *args, whole) is not None
    finally:
        views.close()
        await log.close()
