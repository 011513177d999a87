"""The session's Kafka broker, shared by every test under tests/kafka/ (and only those: the
rest of the suite runs without Java or Maven)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from streams.component_acls import component_access
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


@pytest.fixture(scope="session")
def kafka_secured_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KafkaBroker]:
    """A second broker with SASL/SCRAM-SHA-512 and ACLs (deny unless granted): one user per
    component (`repocontext-<component>`, streams/component_acls.py), ACLs granted by the tests."""
    users = {f"repocontext-{c.component}": uuid.uuid4().hex for c in component_access()}
    broker = KafkaBroker(tmp_path_factory.mktemp("kafka-sasl"), scram_users=users)
    try:
        broker.start(cache_dir=Path.home() / ".m2" / "repocontext-tests")
        yield broker
    finally:
        broker.stop()
