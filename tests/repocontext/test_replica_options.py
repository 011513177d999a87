"""A query replica is built from constructor arguments: the view sink alone, under its own
consumer group, with its poll and readiness bound, and no processor or memory writer here."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from repocontext.app import EmbeddedApp, ReplicaOptions
from repocontext.distributed import REPLICA_POLL_S, replica_options
from schemas import topics
from streams.runtime.shards import ShardAssignment
from streams.topology import embedded_topology, replica_topology
from tests.integration.memory_rig import memory_rig, rig_settings

pytestmark = pytest.mark.anyio


def test_replica_options_name_the_replica_group_and_lag_bound(tmp_path: Path) -> None:
    settings = rig_settings(tmp_path, ready_max_lag_events=7)
    assert replica_options(settings, "r1") == ReplicaOptions(
        sink_group="views.r1", poll_seconds=REPLICA_POLL_S, max_ready_lag=7
    )
    sharded = rig_settings(tmp_path, replica_shard="1/2")
    assert replica_options(sharded, "r1").shard == ShardAssignment(1, 2)


async def test_a_replica_app_runs_the_view_sink_alone_under_its_own_group(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True):
        pass  # the sample repository's records are in the log
    for name in ("views.db", "views.db-wal", "views.db-shm"):
        (tmp_path / "data" / name).unlink(missing_ok=True)  # a fresh replica's views

    replica = ReplicaOptions(
        sink_group="views.r1", poll_seconds=0.2, max_ready_lag=3, shard=ShardAssignment(0, 1)
    )
    async with EmbeddedApp(rig_settings(tmp_path), watch=False, replica=replica) as app:
        assert app.runtime.steps == replica_topology()
        assert app.runtime.poll_seconds == 0.2 and app.runtime.sink_group == "views.r1"
        assert app.service.max_ready_lag == 3 and app.runtime.shard.whole
        await app.start(resume=False)
        deadline = time.monotonic() + 60
        while (await app.runtime.lag()).behind:
            assert time.monotonic() < deadline, "the replica's view sink did not catch up"
            await asyncio.sleep(0.05)
        partition = topics.partition_for("repo/", await app.log.partitions(topics.SYMBOLS.name))
        group_position = await app.log.committed("views.r1", topics.SYMBOLS.name, partition)
        assert group_position == await app.log.end_offset(topics.SYMBOLS.name, partition) > 0
        assert app.views.offsets("views")  # the sink's own offsets live in the views

    async with EmbeddedApp(rig_settings(tmp_path), watch=False) as app:
        ids = [s.step_id for s in app.runtime.steps]
        assert ids == [s.step_id for s in embedded_topology()]  # no options: every step here
        assert app.runtime.sink_group is None and app.service.max_ready_lag is None
