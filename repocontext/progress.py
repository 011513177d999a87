"""Progress for long work: a rich bar on a terminal, structured log lines otherwise.

Work goes through named stages (reading files, processing records, embedding), each with its
own count, rate and ETA, so a long command never sits on a full bar saying nothing. A stage
whose count comes from the pipeline rather than a callback is followed by polling
(`follow`), since the runtime and the vector step report positions, not events.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Any

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

log = logging.getLogger("repocontext.progress")
LOG_EVERY_S = 2.0  # non-interactive: one line per stage this often, plus its last
POLL_S = 0.5
MIN_RATE_S = 0.5  # a stage younger than this has no rate yet (1/1183 at 124,456/s said nothing)

Probe = Callable[[], Awaitable[tuple[int, int | None]]]  # -> (done, total) of a stage


class _Rate(ProgressColumn):
    def render(self, task: Task) -> Text:
        return Text(f"{task.speed:,.0f}/s" if task.speed else "", style="progress.data.speed")


def duration_text(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 60}m{whole % 60:02d}s" if whole >= 60 else f"{whole}s"


def eta_text(done: int, total: int | None, rate: float) -> str:
    if total is None or rate <= 0 or done >= total:
        return "-"
    return duration_text((total - done) / rate)


class ProgressReporter:
    """Callable as `on_progress(done, total)` from any thread, for the current stage."""

    def __init__(self, label: str, *, interactive: bool | None = None) -> None:
        self.label = label
        self.interactive = sys.stderr.isatty() if interactive is None else interactive
        self._progress: Progress | None = None
        self._task: Any = None
        self._stage = label
        self._stage_started = time.monotonic()
        self._last_log = 0.0
        self._last: tuple[int, int | None] = (0, None)
        self._logged: tuple[int, int | None] | None = None  # the last count logged
        self._untouched = True  # the bar shows the label alone: the first stage takes it over
        self._lock = threading.Lock()

    def __enter__(self) -> ProgressReporter:
        if self.interactive:
            self._progress = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                _Rate(),
                TimeElapsedColumn(),
                TextColumn("eta"),
                TimeRemainingColumn(),
                transient=False,
            )
            self._progress.start()
            self._task = self._progress.add_task(self.label, total=None)
        return self

    def stage(self, name: str, total: int | None = None) -> None:
        """Close the current stage (its last count is logged) and start `name`."""
        with self._lock:
            self._log_line(final=True)
            self._stage = f"{self.label}: {name}"
            self._stage_started = time.monotonic()
            self._last, self._last_log, self._logged = (0, total), 0.0, None
            if self._progress is None:
                return
            if self._untouched:  # else the label's bar would pulse at 0/? to the end
                self._progress.update(self._task, description=self._stage, total=total)
                self._untouched = False
            else:
                self._task = self._progress.add_task(self._stage, total=total)

    def __call__(self, done: int, total: int | None) -> None:
        with self._lock:
            self._last = (done, total)
            self._untouched = False
            if self._progress is not None:
                self._progress.update(self._task, completed=done, total=total)
                return
            now = time.monotonic()
            finished = total is not None and done >= total  # its close logs it, with a time
            if now - self._last_log >= LOG_EVERY_S and not finished:
                self._last_log = now
                self._log_line()

    def _log_line(self, final: bool = False) -> None:
        done, total = self._last
        if self._progress is not None or (final and (done == 0 or self._last == self._logged)):
            return
        self._logged = self._last
        elapsed = time.monotonic() - self._stage_started
        rate = done / elapsed if elapsed >= MIN_RATE_S else None  # else a count over ~0 s
        if final:  # the stage's end: how long it took says more than "?/s, eta -"
            speed = "" if rate is None else f", {rate:.0f}/s"
            shown = "?" if total is None else total
            log.info(
                "progress %s: %d/%s (done in %.1f s%s)", self._stage, done, shown, elapsed, speed
            )
            return
        log.info(
            "progress %s: %d/%s (%s/s, eta %s)",
            self._stage,
            done,
            "?" if total is None else total,
            "?" if rate is None else f"{rate:.0f}",
            "-" if rate is None else eta_text(done, total, rate),
        )

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        with self._lock:
            self._log_line(final=True)
        if self._progress is not None:
            self._progress.stop()


async def follow(reporter: ProgressReporter, probe: Probe, work: asyncio.Future[Any]) -> None:
    """Report `probe()` every POLL_S until `work` is done, and once more at the end. The work's
    own failure is left to whoever awaits it."""
    while True:
        finished, _ = await asyncio.wait({work}, timeout=POLL_S)
        reporter(*await probe())
        if finished:
            return
