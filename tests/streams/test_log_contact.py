"""The event log's reachability is logged once per outage, and a single failed attempt that
the next one mends is no outage in the log (the state still says so while it lasts)."""

from __future__ import annotations

import logging

import pytest

from streams.runtime.log_contact import LogContact


def test_one_failed_attempt_mended_at_once_logs_nothing(caplog: pytest.LogCaptureFixture) -> None:
    contact = LogContact("replica")
    with caplog.at_level(logging.INFO, logger="streams.runtime.log_contact"):
        contact.failed(TimeoutError())
        assert not contact.reachable  # freshness says so while it lasts
        contact.succeeded()
    assert contact.reachable
    assert caplog.records == []


def test_an_outage_is_logged_once_each_way(caplog: pytest.LogCaptureFixture) -> None:
    contact = LogContact("replica")
    with caplog.at_level(logging.INFO, logger="streams.runtime.log_contact"):
        for _ in range(5):
            contact.failed(TimeoutError())
        contact.succeeded()
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 2, said
    assert "unreachable" in said[0] and "answers again" in said[1] and "5 failed" in said[1]
