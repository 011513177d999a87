"""The faust runtime's wiring, without a broker: what faust is allowed to own and decide.

The runtime's behaviour on a real broker is in tests/kafka (test_kafka_worker, _e2e, _memory,
_restart); here: faust creates no topics of its own, takes no setting from the environment,
and a batch over several partitions becomes one transaction with its dead letters.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from processors.base import ProcessContext
from schemas import codec, topics
from schemas.events import FileUpsert, file_key
from streams.eventlog.base import StoredRecord
from streams.eventlog.kafka import KafkaEventLog
from streams.runtime.faust_app import FaustStep, cut_by_bytes, process_groups, processor_steps
from streams.topology import view_sink_step


def record(partition: int, offset: int, path: str, value: bytes | None = None) -> StoredRecord:
    if value is None:
        event = FileUpsert(
            repo_id="demo",
            path=path,
            digest="xx128:" + "0" * 32,
            size=10,
            mtime_ns=1,
            language="python",
            body="def f():\n    pass\n",
            observed_at=1.0,
        )
        value = codec.encode(event)
    return StoredRecord(topics.FILES.name, partition, offset, file_key("demo", path), value, 1)


def test_faust_owns_nothing_and_ignores_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BROKER_URL", "kafka://elsewhere:1")
    monkeypatch.setenv("TOPIC_ALLOW_DECLARE", "true")
    log = KafkaEventLog("kafka://127.0.0.1:9?prefix=ns.")
    [structural] = processor_steps(["structural"])
    conf = FaustStep(log, structural, tmp_path).app.conf
    assert conf.id == "ns.structural"  # the step's consumer group, under the prefix
    assert [str(u) for u in conf.broker] == ["kafka://127.0.0.1:9"]
    assert conf.topic_allow_declare is False and conf.topic_disable_leader is True
    assert conf.web_enabled is False and conf.consumer_auto_offset_reset == "earliest"
    assert conf.producer_acks == -1
    assert conf.datadir == tmp_path / "structural"


def test_steps_are_named_and_checked(tmp_path: Path) -> None:
    assert [s.step_id for s in processor_steps(None)] == [
        "structural",
        "content",
        "symbols",
        "memory",
    ]
    with pytest.raises(ValueError, match=r"unknown step\(s\) nope; steps: structural"):
        processor_steps(["nope"])
    with pytest.raises(ValueError, match="workers run processors"):
        FaustStep(KafkaEventLog("kafka://127.0.0.1:9"), view_sink_step(), tmp_path)


def test_a_batch_over_partitions_is_one_transaction_with_its_dead_letters() -> None:
    [structural] = processor_steps(["structural"])
    groups = [
        [record(0, 5, "a.py"), record(0, 6, "poison.py", b"not json")],
        [record(3, 9, "b.py")],
    ]
    tx, dead = process_groups(structural, groups, ProcessContext(now=time.time()))
    assert dead == 1
    by_topic = [(t, r.key) for t, r in tx.appends]
    assert (topics.STRUCTURE.name, file_key("demo", "a.py")) in by_topic
    assert (topics.STRUCTURE.name, file_key("demo", "b.py")) in by_topic
    assert (topics.DEADLETTER.name, file_key("demo", "poison.py")) in by_topic
    assert len(tx.appends) == 3
    assert not tx.commits  # input offsets are faust's to commit, after the produce


class _Message:
    def __init__(self, value: bytes | None) -> None:
        self.value = value


class _Event:
    def __init__(self, value: bytes | None) -> None:
        self.message = _Message(value)


def test_a_take_is_cut_into_runs_by_the_bytes_of_its_values() -> None:
    sizes = [300, 300, 300, 900, 0, 100, None]
    events = [_Event(None if n is None else b"x" * n) for n in sizes]
    runs = cut_by_bytes(events, 600)
    assert [[len(e.message.value or b"") for e in run] for run in runs] == [
        [300, 300],
        [300],
        [900],  # larger than the budget: alone
        [0, 100, 0],
    ]
    assert [e for run in runs for e in run] == events  # in order, nothing lost
