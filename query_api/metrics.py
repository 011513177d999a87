"""Metrics through the OpenTelemetry API, exposed as Prometheus text on /metrics.

The SDK MeterProvider with a PrometheusMetricReader is installed once per process (the
reader registers with prometheus_client's default registry). Every instrument is created
here, so names stay low-cardinality and documented in one place.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from opentelemetry import metrics as otel_metrics
from opentelemetry.exporter.prometheus import PrometheusMetricReader
from opentelemetry.metrics import CallbackOptions, Observation
from opentelemetry.sdk.metrics import MeterProvider
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

_lock = threading.Lock()
_provider: MeterProvider | None = None

# Tool-call latency buckets in seconds, 1 ms to 60 s: a keyword search answers in
# milliseconds, a bundle or an exact scan in seconds, and the call deadline is tens of seconds.
# (The SDK's default buckets, 0, 5, 10 ... 10000, are sized for milliseconds and would put
# every call into the first one.)
DURATION_BUCKETS_S = (
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0
)  # fmt: skip


class _Level:
    """A process-wide level read when /metrics is scraped. One app serves per process, so the
    value is the one its service computed last (a second app in a test process takes over)."""

    def __init__(self) -> None:
        self.value = 0

    def observe(self, options: CallbackOptions) -> Iterable[Observation]:
        yield Observation(self.value)


_events_behind = _Level()


def _meter_provider() -> MeterProvider:
    global _provider
    with _lock:
        if _provider is None:
            _provider = MeterProvider(metric_readers=[PrometheusMetricReader()])
        return _provider


class Metrics:
    """The service's instruments (meter `repocontext`)."""

    def __init__(self) -> None:
        meter = _meter_provider().get_meter("repocontext")
        self.calls = meter.create_counter(
            "repocontext.calls", description="MCP tool calls by tool and outcome"
        )
        self.duration = meter.create_histogram(
            "repocontext.retrieval.duration",
            unit="s",
            description="tool call duration",
            explicit_bucket_boundaries_advisory=list(DURATION_BUCKETS_S),
        )
        meter.create_observable_gauge(
            "repocontext.views.events_behind",
            callbacks=[_events_behind.observe],
            description="log events not yet in the views",
        )

    def record_call(self, tool: str, outcome: str, seconds: float) -> None:
        self.calls.add(1, {"tool": tool, "outcome": outcome})
        self.duration.record(seconds, {"tool": tool})

    def set_events_behind(self, value: int) -> None:
        """The freshness the service last computed (every answer and every scrape)."""
        _events_behind.value = value


def prometheus_text() -> tuple[bytes, str]:
    """The current metrics in Prometheus exposition format and its content type."""
    _meter_provider()
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


__all__ = ["Metrics", "otel_metrics", "prometheus_text"]
