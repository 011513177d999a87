"""QdrantClientVectorStore over HTTP when the server is not there yet, goes away, comes back
empty, or wants an api key; against tests/qdrant_server.py (Qdrant's REST API over qdrant-edge,
standing in for a Qdrant server)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from streams.embedders.base import EmbeddingSpace
from streams.stores.vectors import QdrantClientVectorStore, VectorPoint, VectorStoreUnavailable
from tests.conftest import free_port
from tests.qdrant_server import QdrantServer

SPACE = EmbeddingSpace("adapter-test", 4, True)

pytestmark = [
    pytest.mark.slow,  # each test starts and stops the Qdrant stand-in and waits out timeouts
    # qdrant-client's background version check, while the server is down
    pytest.mark.filterwarnings("ignore:Failed to obtain server version:UserWarning"),
    pytest.mark.filterwarnings("ignore:Api key is used with an insecure connection:UserWarning"),
]


def point(n: int) -> VectorPoint:
    payload = {"repo_id": "r", "kind": "file", "source_key": f"r/f{n}", "path": f"f{n}", "idx": 0}
    return VectorPoint(f"00000000-0000-4000-8000-{n:012d}", [1.0, float(n), 0.0, 0.5], payload)


def test_starts_without_server_and_creates_the_collection_once_it_answers(
    tmp_path: Path,
) -> None:
    port = free_port()
    store = QdrantClientVectorStore(SPACE, url=f"http://127.0.0.1:{port}", timeout_s=2)
    try:
        for call in (store.count, store.state, lambda: store.upsert([point(1)])):
            with pytest.raises(VectorStoreUnavailable, match="unreachable") as failed:
                call()
            assert f"127.0.0.1:{port}" in str(failed.value)
            assert f"creating collection {SPACE.collection}" in str(failed.value)

        with QdrantServer(tmp_path / "a", port=port):
            store.upsert([point(1), point(2)])  # the same object: collection made now
            assert store.count(repo_id="r") == 2
            assert store.search([1.0, 2.0, 0.0, 0.5], 1, repo_id="r", exact=True)[0].id == (
                point(2).id
            )

        with pytest.raises(VectorStoreUnavailable, match=r"count failed: unreachable"):
            store.count()  # collection already made: the failing call is named
        with QdrantServer(tmp_path / "a", port=port) as server:  # restarted on the same storage
            assert store.count() == 2
            # the server loses the collection (a fresh volume, an operator): 404, then re-made
            httpx.delete(f"{server.url}/collections/{SPACE.collection}").raise_for_status()
            with pytest.raises(VectorStoreUnavailable, match="doesn't exist") as gone:
                store.count()
            assert gone.value.status == 404
            assert store.count() == 0  # re-created on the next call
            store.upsert([point(3)])
            assert store.payloads([point(3).id])[point(3).id]["source_key"] == "r/f3"
    finally:
        store.close()


def test_api_key(tmp_path: Path) -> None:
    with QdrantServer(tmp_path / "q", api_key="s3cret-key") as server:
        for key in ("wrong-key", None):
            bad = QdrantClientVectorStore(SPACE, url=server.url, api_key=key)
            with pytest.raises(VectorStoreUnavailable, match="401 Unauthorized") as refused:
                bad.count()
            assert "api key" in str(refused.value) and "s3cret" not in str(refused.value)
            assert refused.value.status == 401
            bad.close()

        good = QdrantClientVectorStore(SPACE, url=server.url, api_key="s3cret-key")
        good.upsert([point(1)])
        assert good.count() == 1 and good.state().points == 1
        good.close()

        # the facade itself: `/` stays open (qdrant-client's version check), bodies are checked
        assert httpx.get(server.url + "/").json()["version"]
        headers = {"api-key": "s3cret-key"}
        url = f"{server.url}/collections/{SPACE.collection}/points/count"
        assert httpx.post(url, json={"exact": True}).status_code == 401
        assert httpx.post(url, json={"exact": True}, headers=headers).json()["result"] == {
            "count": 1
        }
        invalid = httpx.post(url, json={"exact": "very"}, headers=headers)
        assert invalid.status_code == 400 and "exact" in invalid.json()["status"]["error"]
        missing = httpx.post(f"{server.url}/collections/nope/points/count", headers=headers)
        assert missing.status_code == 404
