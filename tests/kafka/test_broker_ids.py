"""The test broker's cluster id never reads as an option to Kafka's storage tool."""

from __future__ import annotations

import uuid

import pytest

from tests.kafka import broker


def test_a_cluster_id_that_would_start_with_a_dash_is_drawn_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 0xF8 encodes to '-' as the first urlsafe base64 character: the CI run that failed drew one.
    draws = iter([uuid.UUID(bytes=b"\xf8" + b"\x00" * 15), uuid.UUID(bytes=b"\x12" * 16)])
    monkeypatch.setattr(uuid, "uuid4", lambda: next(draws))
    cluster_id = broker.kafka_cluster_id()
    assert cluster_id == "EhISEhISEhISEhISEhISEg"
    assert len(cluster_id) == 22
