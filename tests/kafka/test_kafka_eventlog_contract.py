"""The EventLog contract's backend-independent tests (tests/streams/test_eventlog_contract.py)
on kafka://, against the session's real broker. The contract's exact compaction and retention
results hold on the embedded backends only: the broker compacts and expires on its own clock
(tests/kafka/test_kafka_log.py tests that)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from streams.eventlog.base import EventLog
from streams.eventlog.factory import open_event_log
from tests.kafka.broker import KafkaBroker
from tests.streams.test_eventlog_contract import (
    CONTRACT_TOPICS,
    test_append_returns_increasing_offsets_per_partition,
    test_apply_appends_and_commits_together,
    test_apply_is_atomic,
    test_committed_offsets_per_group,
    test_compaction_keeps_the_fold_and_offsets,
    test_create_topics_idempotent_and_mismatch,
    test_delete_topics_never_compact_by_key,
    test_instance_id_and_close,
    test_positions_match_end_and_committed_offsets,
    test_read_from_offset_in_order_with_max_records,
    test_routing_is_stable_by_repo_prefix,
    test_unknown_topic_and_bad_arguments,
)

__all__ = [  # the contract's tests, collected here with this module's `log`
    "test_append_returns_increasing_offsets_per_partition",
    "test_apply_appends_and_commits_together",
    "test_apply_is_atomic",
    "test_committed_offsets_per_group",
    "test_compaction_keeps_the_fold_and_offsets",
    "test_create_topics_idempotent_and_mismatch",
    "test_delete_topics_never_compact_by_key",
    "test_instance_id_and_close",
    "test_positions_match_end_and_committed_offsets",
    "test_read_from_offset_in_order_with_max_records",
    "test_routing_is_stable_by_repo_prefix",
    "test_unknown_topic_and_bad_arguments",
]
pytestmark = pytest.mark.anyio


@pytest.fixture
async def log(kafka_broker: KafkaBroker) -> AsyncIterator[EventLog]:
    """A log on the session's broker, its topics and groups under a prefix of its own; real
    timestamps, since the broker's clock drives retention."""
    url = f"kafka://{kafka_broker.bootstrap}?prefix=t{uuid.uuid4().hex[:12]}."
    el = open_event_log(url, tombstone_retention_ms=0)
    await el.create_topics(CONTRACT_TOPICS)
    yield el
    await el.close()
