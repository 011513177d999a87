"""How much of the machine background embedding may take, and at what OS priority.

Background (passage) encoding runs in a child process whose nice value is raised
(passage_process.py), so the kernel gives a query's encoder, the MCP server and the indexer
the CPU first whenever they want it. Its width follows the cores other processes leave idle,
measured from /proc/stat between batches with this process's own CPU time taken out: a quiet
2-core laptop embeds on 2 threads, a busy one on 1.
"""

from __future__ import annotations

import os
import time

BACKGROUND_NICE = 10  # CFS weight 110 against 1024 at nice 0: ≈ 10 % of a contended core
SAMPLE_MIN_S = 0.5  # shorter intervals say more about scheduling noise than about load


def _busy_seconds() -> float | None:
    """CPU seconds all cores spent busy since boot (user+nice+system+irq+softirq+steal)."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            fields = stat.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    ticks = [int(x) for x in fields[1:9]]
    busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6] + ticks[7]
    return busy / os.sysconf("SC_CLK_TCK")


def _own_seconds() -> float:
    t = os.times()
    return t.user + t.system


class IdleCores:
    """Cores other processes leave idle, from the interval since the previous sample."""

    def __init__(self) -> None:
        self.cores = os.cpu_count() or 1
        self._last = (time.monotonic(), _busy_seconds(), _own_seconds())
        self._idle = 1.0

    def __call__(self) -> float:
        now, busy, own = time.monotonic(), _busy_seconds(), _own_seconds()
        then, busy_then, own_then = self._last
        if busy is None or busy_then is None:
            return 1.0
        if now - then >= SAMPLE_MIN_S:
            others = max(0.0, (busy - busy_then) - (own - own_then)) / (now - then)
            self._idle = max(0.0, self.cores - others)
            self._last = (now, busy, own)
        return self._idle

    def workers(self, most: int) -> int:
        """Encoder threads for the next background batch: 1 .. `most`."""
        return max(1, min(most, int(self() + 0.25)))
