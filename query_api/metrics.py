"""Metrics through the OpenTelemetry API, exposed as Prometheus text on /metrics.

The SDK MeterProvider with a PrometheusMetricReader is installed once per process (the
reader registers with prometheus_client's default registry). Every instrument is created
here, so names stay low-cardinality and documented in one place.
"""

from __future__ import annotations

import threading

from opentelemetry import metrics as otel_metrics
from opentelemetry.exporter.prometheus import PrometheusMetricReader
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
        self.events_behind = meter.create_up_down_counter(
            "repocontext.views.events_behind", description="log events not yet in the views"
        )
        self._behind = 0

    def record_call(self, tool: str, outcome: str, seconds: float) -> None:
        self.calls.add(1, {"tool": tool, "outcome": outcome})
        self.duration.record(seconds, {"tool": tool})

    def set_events_behind(self, value: int) -> None:
        self.events_behind.add(value - self._behind)
        self._behind = value


def prometheus_text() -> tuple[bytes, str]:
    """The current metrics in Prometheus exposition format and its content type."""
    _meter_provider()
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


__all__ = ["Metrics", "otel_metrics", "prometheus_text"]
