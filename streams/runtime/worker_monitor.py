"""What a worker process reports on /health/* and /metrics: per step, its consumer group's lag
on every input partition, its counters, whether its faust app runs, and the log's reachability.

Group positions are measured in the background (`LagWatch`: every few seconds, each attempt
bounded), so a scrape or a probe never waits on the broker; while the broker is away they show
the last measurement and since when it is unreachable.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from streams.eventlog.base import EventLog, Positions
from streams.runtime.log_contact import LagWatch, LogContact


class MonitoredStep(Protocol):
    """The parts of a step app (FaustStep, FaustVectorStep) the monitor reads."""

    app: Any

    @property
    def step_id(self) -> str: ...

    @property
    def group(self) -> str: ...

    @property
    def inputs(self) -> tuple[str, ...]: ...

    @property
    def counters(self) -> Any: ...

    @property
    def events_handled(self) -> int:
        """Input events of batches that completed."""
        ...

    @property
    def dead_letters(self) -> int:
        """Input events sent to the dead-letter topic."""
        ...


@dataclass(frozen=True)
class PartitionLag:
    step: str
    group: str
    topic: str
    partition: int
    committed: int
    end: int

    @property
    def lag(self) -> int:
        return max(0, self.end - self.committed)


class WorkerMonitor:
    def __init__(
        self,
        event_log: EventLog,
        steps: Sequence[MonitoredStep],
        *,
        interval_s: float = 5.0,
        timeout_s: float = 3.0,
    ) -> None:
        self.log = event_log
        self.steps = list(steps)
        self.contact = LogContact("worker")
        self.watch: LagWatch[dict[str, Positions]] = LagWatch(
            self._measure, self.contact, interval_s=interval_s, timeout_s=timeout_s
        )
        self.started_at = time.time()

    async def _measure(self) -> dict[str, Positions]:
        return {s.group: await self.log.positions(s.inputs, [s.group]) for s in self.steps}

    def lags(self) -> list[PartitionLag]:
        """Every step's position on every input partition, as last measured."""
        measured = self.watch.last or {}
        out = []
        for step in self.steps:
            positions = measured.get(step.group)
            if positions is None:
                continue
            done = positions.committed.get(step.group, {})
            for (topic, partition), end in sorted(positions.ends.items()):
                out.append(
                    PartitionLag(
                        step.step_id,
                        step.group,
                        topic,
                        partition,
                        done.get((topic, partition), 0),
                        end,
                    )
                )
        return out

    def not_ready(self) -> list[str]:
        """Why this worker does no work now (empty: every step's app runs on a reachable log)."""
        reasons = []
        for step in self.steps:
            app = step.app
            if getattr(app, "crashed", False):
                reasons.append(f"step {step.step_id} crashed: {app.crash_reason!r}")
            elif not getattr(app, "started", False):
                reasons.append(f"step {step.step_id} has not started")
        if not self.contact.reachable:
            since = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.contact.unreachable_since))
            reasons.append(f"the event log is unreachable since {since} ({self.contact.error})")
        elif self.watch.measured_at is None:
            reasons.append("the consumer groups' positions are not measured yet")
        return reasons
