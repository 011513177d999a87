"""A Qdrant server that is down is one warning per search, never a traceback per answer.

Every answer carries `freshness.vectors` (the repository's vector coverage) and every
`/health/ready` the plane's coverage; both read the Qdrant server. A replica whose server was
down logged `vector coverage unavailable` at ERROR with a ~40-line traceback for each of
them (28 tracebacks in 1.5 minutes of one replica answering a few calls), beside the
retrieval ladder's one-line warning that already says answers come from BM25. An
unreachable server is an expected condition of the distributed mode (deploy/DISTRIBUTED.md),
so it is said in one line without a traceback; other failures keep theirs.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from schemas.retrieval import RetrievalPath
from tests.conftest import free_port
from tests.vectors.test_ladder import open_rig

pytestmark = pytest.mark.anyio


async def test_coverage_of_an_unreachable_qdrant_server_logs_no_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    overrides: dict[str, Any] = {
        "vector_store": "qdrant",
        "qdrant_url": f"http://127.0.0.1:{free_port()}",  # nothing listens there
    }
    async for rig in open_rig(tmp_path, 0, **overrides):
        caplog.clear()
        with caplog.at_level(logging.INFO):
            path, paths = await rig.search("ledger")
            fresh = await rig.app.service.freshness("repo")
            coverage = rig.plane.coverage_of("repo")
            counts = rig.plane.embedded_counts("repo")
        assert path == RetrievalPath.KEYWORD_VECTOR_PLANE_UNAVAILABLE
        assert paths == ["ledger/reconcile.py"]
        assert fresh.vectors is None and coverage is None and counts is None
        tracebacks = [r for r in caplog.records if r.exc_info is not None]
        assert tracebacks == [], [r.getMessage() for r in tracebacks]
        said = [r.getMessage() for r in caplog.records if "vector co" in r.getMessage()]
        assert said and all("unreachable" in m for m in said), said


def test_opening_a_store_on_an_unreachable_server_warns_nothing() -> None:
    """qdrant-client's version check answers an unreachable server with a two-line
    UserWarning on stderr ("Failed to obtain server version ..."), at every start of a
    replica or worker whose server is down; the plane's own line says that already."""
    import threading
    import warnings

    from streams.embedders.base import EmbeddingSpace
    from streams.stores.vectors import QdrantClientVectorStore

    before = set(threading.enumerate())
    with warnings.catch_warnings(record=True) as caught:  # the filters are process-wide
        warnings.simplefilter("always")
        QdrantClientVectorStore(
            EmbeddingSpace("test-model", 8, True), url=f"http://127.0.0.1:{free_port()}"
        )
        for started in set(threading.enumerate()) - before:  # the client's check runs in one
            started.join(timeout=15)
    assert [str(w.message) for w in caught] == []
