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
            "repocontext.retrieval.duration", unit="s", description="tool call duration"
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
