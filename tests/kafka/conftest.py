"""The session's Kafka broker, shared by every test under tests/kafka/ (and only those: the
rest of the suite runs without Java or Maven)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.kafka.broker import KafkaBroker


@pytest.fixture(scope="session")
def kafka_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KafkaBroker]:
    """One real Kafka broker (KRaft, loopback) for the whole session; see tests/kafka/broker.py."""
    broker = KafkaBroker(tmp_path_factory.mktemp("kafka"))
    try:
        broker.start(cache_dir=Path.home() / ".m2" / "repocontext-tests")
        yield broker
    finally:
        broker.stop()
