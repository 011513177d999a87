"""Pipeline metrics of the distributed processes, in Prometheus text beside query_api/metrics.py.

The OpenTelemetry instruments in metrics.py are per call (tool calls, durations); what an SRE
watches on a pipeline is per consumer group and partition, labels OpenTelemetry's observable
gauges handle poorly. These collectors read state the processes already keep (counters, and
the group positions measured in the background by streams/runtime) at scrape time and never
ask the broker, so a scrape answers at once even while Kafka is away. They register with
prometheus_client's default registry, the one `prometheus_text()` renders.

Names (every process; the alerts in deploy/k8s/base/monitoring.yaml use them):
  repocontext_consumer_lag_events{step,group,topic,partition}
  repocontext_step_events_total{step}, repocontext_dead_letters_total{step}
  repocontext_embedding_backlog_events (a worker running the vector step)
  repocontext_replica_lag_events, repocontext_replica_lag_seconds (query replicas)
  repocontext_event_log_reachable, repocontext_event_log_unreachable_seconds
  repocontext_lag_measured_age_seconds, repocontext_ready
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator

from prometheus_client import REGISTRY
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from streams.runtime.embedded import EmbeddedRuntime
from streams.runtime.log_contact import LogContact
from streams.runtime.worker_monitor import WorkerMonitor
from streams.sources.git_poller import GitPoller

VECTOR_STEP = "vectors"


def _lag_family() -> GaugeMetricFamily:
    return GaugeMetricFamily(
        "repocontext_consumer_lag_events",
        "events of an input partition that a consumer group has not consumed yet",
        labels=["step", "group", "topic", "partition"],
    )


def _contact_families(
    contact: LogContact, measured_at: float | None, ready: bool
) -> Iterator[Metric]:
    now = time.time()
    yield GaugeMetricFamily(
        "repocontext_event_log_reachable",
        "1 while the event log (Kafka) answers, 0 while it does not",
        value=1 if contact.reachable else 0,
    )
    since = contact.unreachable_since
    yield GaugeMetricFamily(
        "repocontext_event_log_unreachable_seconds",
        "for how long the event log has not answered (0 while it does)",
        value=0 if since is None else max(0.0, now - since),
    )
    if measured_at is not None:
        yield GaugeMetricFamily(
            "repocontext_lag_measured_age_seconds",
            "age of the last lag measurement (the lag gauges are that old)",
            value=max(0.0, now - measured_at),
        )
    yield GaugeMetricFamily(
        "repocontext_ready", "1 when /health/ready answers 200", value=1 if ready else 0
    )


class WorkerCollector(Collector):
    """A `repocontext worker`: every step's group lag per input partition and its counters."""

    def __init__(self, monitor: WorkerMonitor) -> None:
        self.monitor = monitor

    def collect(self) -> Iterable[Metric]:
        lag = _lag_family()
        backlog = 0
        for row in self.monitor.lags():
            lag.add_metric([row.step, row.group, row.topic, str(row.partition)], row.lag)
            if row.step == VECTOR_STEP:
                backlog += row.lag
        yield lag
        events = CounterMetricFamily(
            "repocontext_step_events", "input events processed, by step", labels=["step"]
        )
        dead = CounterMetricFamily(
            "repocontext_dead_letters", "events dead-lettered, by step", labels=["step"]
        )
        for step in self.monitor.steps:
            events.add_metric([step.step_id], step.events_handled)
            dead.add_metric([step.step_id], step.dead_letters)
        yield events
        yield dead
        if any(s.step_id == VECTOR_STEP for s in self.monitor.steps):
            yield GaugeMetricFamily(
                "repocontext_embedding_backlog_events",
                "events of the vector step's inputs not embedded yet",
                value=backlog,
            )
        yield from _contact_families(
            self.monitor.contact, self.monitor.watch.measured_at, not self.monitor.not_ready()
        )


class ReplicaCollector(Collector):
    """A `repocontext query` replica: its views' lag (per partition and in all) as last measured
    in the background, events applied, dead letters, and whether it is ready."""

    def __init__(self, runtime: EmbeddedRuntime, group: str, is_ready: Callable[[], bool]) -> None:
        self.runtime = runtime
        self.group = group
        self.is_ready = is_ready

    def collect(self) -> Iterable[Metric]:
        lag = self.runtime.current_lag()
        family = _lag_family()
        if lag is not None:
            for (step, topic, partition), behind in sorted(lag.by_partition.items()):
                family.add_metric([step, self.group, topic, str(partition)], behind)
        yield family
        if lag is not None:
            yield GaugeMetricFamily(
                "repocontext_replica_lag_events",
                "record events not yet in this replica's views",
                value=lag.behind,
            )
            if lag.seconds_behind is not None:
                yield GaugeMetricFamily(
                    "repocontext_replica_lag_seconds",
                    "age of the oldest record not yet in this replica's views",
                    value=lag.seconds_behind,
                )
        counters = self.runtime.counters
        events = CounterMetricFamily(
            "repocontext_step_events", "input events processed, by step", labels=["step"]
        )
        events.add_metric(["views"], counters.processed)
        yield events
        dead = CounterMetricFamily(
            "repocontext_dead_letters", "events dead-lettered, by step", labels=["step"]
        )
        dead.add_metric(["views"], counters.dead_letters)
        yield dead
        yield from _contact_families(
            self.runtime.contact, self.runtime.lag_watch.measured_at, self.is_ready()
        )


def register(collector: Collector) -> Collector:
    """Add `collector` to the default registry (what /metrics renders); one per process."""
    REGISTRY.register(collector)
    return collector


class SourceCollector(Collector):
    """A `repocontext git-source`: its polls by outcome, files published, the last poll's time."""

    def __init__(self, poller: GitPoller) -> None:
        self.poller = poller

    def collect(self) -> Iterable[Metric]:
        repo = self.poller.source.repo_id
        polls = CounterMetricFamily(
            "repocontext_source_polls",
            "git polls by outcome (published, unchanged, fetch_failed, error)",
            labels=["repo", "status"],
        )
        for status, count in sorted(self.poller.polls.items()):
            polls.add_metric([repo, status], count)
        yield polls
        published = CounterMetricFamily(
            "repocontext_source_files_published",
            "file events (adds, modifications, deletions) published to files.v1",
            labels=["repo"],
        )
        published.add_metric([repo], self.poller.files_published)
        yield published
        if self.poller.last_poll_at is not None:
            last = GaugeMetricFamily(
                "repocontext_source_last_poll_timestamp_seconds",
                "when the last poll finished (unix time)",
                labels=["repo"],
            )
            last.add_metric([repo], self.poller.last_poll_at)
            yield last
        yield from _contact_families(
            self.poller.contact, self.poller.last_poll_at, not source_not_ready(self.poller)
        )


def source_not_ready(poller: GitPoller) -> list[str]:
    """Why a git source does no useful work now (empty: its last poll went through)."""
    if poller.last_status is None:
        return ["no poll has finished yet"]
    if not poller.contact.reachable:
        return [f"the event log is unreachable ({poller.contact.error})"]
    if poller.last_status == "error":
        return ["the last poll failed (see the log)"]
    return []
