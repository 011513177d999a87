"""Progress for long work: a rich bar on a terminal, structured log lines otherwise."""

from __future__ import annotations

import logging
import sys
import threading
import time
from types import TracebackType

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

log = logging.getLogger("repocontext.progress")


class ProgressReporter:
    """Callable as `on_progress(done, total)` from any thread."""

    def __init__(self, label: str, *, interactive: bool | None = None) -> None:
        self.label = label
        self.interactive = sys.stderr.isatty() if interactive is None else interactive
        self._progress: Progress | None = None
        self._task: int | None = None
        self._last_log = 0.0
        self._lock = threading.Lock()

    def __enter__(self) -> ProgressReporter:
        if self.interactive:
            self._progress = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                transient=False,
            )
            self._progress.start()
            self._task = self._progress.add_task(self.label, total=None)
        return self

    def __call__(self, done: int, total: int | None) -> None:
        with self._lock:
            if self._progress is not None and self._task is not None:
                self._progress.update(self._task, completed=done, total=total)  # type: ignore[arg-type]
                return
            now = time.monotonic()
            if now - self._last_log >= 2.0 or (total is not None and done >= total):
                self._last_log = now
                log.info("progress task=%s done=%d total=%s", self.label, done, total)

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._progress is not None:
            self._progress.stop()
