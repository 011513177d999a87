"""The passage encoder child hands its activations' memory back between batches (issue 21
item 4): glibc raises its mmap threshold to the largest block freed so far, after which the
encoder's large temporaries come from the heap and stay resident. The child fixes the
threshold at 1 MiB (passage_worker.map_large_blocks). Checked in a fresh interpreter, as the
child starts: a 24 MiB block freed, then a 16 MiB one used and freed."""

from __future__ import annotations

import subprocess
import sys

import pytest

PROBE = """
import sys
from streams.embedders.passage_worker import map_large_blocks
if sys.argv[1] == "fixed":
    assert map_large_blocks()
import numpy as np

def anon_kib():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("RssAnon:"))

before = anon_kib()
big = np.ones(24 << 20, dtype=np.uint8)
del big
block = np.ones(16 << 20, dtype=np.uint8)
del block
print(anon_kib() - before)
"""


def held_kib(mode: str) -> int:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, mode], capture_output=True, text=True, check=True
    )
    return int(out.stdout.strip())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc and /proc")
def test_a_freed_large_block_leaves_nothing_resident() -> None:
    assert held_kib("fixed") < 4096  # the 16 MiB block went back to the OS
