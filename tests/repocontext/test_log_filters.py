"""The CLI's RepeatFilter: the Kafka client's retry lines at most once per template per
window, the next one carrying how many were left out; other loggers untouched."""

from __future__ import annotations

import logging

from repocontext.log_filters import RepeatFilter


def record(name: str, msg: str, *args: object, level: int = logging.ERROR) -> logging.LogRecord:
    return logging.LogRecord(name, level, __file__, 1, msg, args, None)


def test_repeats_of_the_kafka_client_are_counted_not_logged() -> None:
    now = [0.0]
    flt = RepeatFilter(window_s=60.0, clock=lambda: now[0])
    template = "Unable connect to node with id %s: %s"
    assert flt.filter(record("aiokafka", template, 1, "refused"))
    for _ in range(1788):
        now[0] += 0.03
        assert not flt.filter(record("aiokafka", template, 1, "refused"))
    assert flt.filter(record("aiokafka", "Unable to update metadata from %s", [1]))  # another
    now[0] = 61.0
    again = record("aiokafka", template, 1, "refused")
    assert flt.filter(again)
    assert again.getMessage() == (
        "Unable connect to node with id 1: refused (1788 more like it in 60 s)"
    )
    # our own loggers and INFO lines pass untouched: they log per state change already
    assert all(flt.filter(record("streams.runtime.log_contact", "x")) for _ in range(3))
    assert all(
        flt.filter(record("aiokafka", template, 1, "x", level=logging.INFO)) for _ in range(3)
    )
