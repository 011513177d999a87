"""Empty and whitespace-only files (spec §2.5): never sent to the embedder, recorded with a
contentless marker so a redelivery or replay finds them done, never searched or counted, and
the marker follows the file when it gains content, empties again or goes away."""

from __future__ import annotations

from pathlib import Path

import pytest

from processors.vectors import CONTENTLESS_IDX, file_key
from schemas import tools as t
from streams.embedders.base import EmbedResult, TextType
from streams.stores.vectors import point_id
from tests.vectors.fake_embedder import HashEmbedder
from tests.vectors.test_ladder import Rig, open_rig

pytestmark = pytest.mark.anyio


class RecordingEmbedder(HashEmbedder):
    """The ladder's deterministic embedder, remembering every text it was asked to embed."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

    def embed(self, texts: list[str], kind: TextType = "passage") -> EmbedResult:
        self.seen.extend(texts)
        return super().embed(texts, kind)


async def settle(rig: Rig, *paths: str) -> None:
    if paths:
        await rig.app.ingest.refresh("repo", list(paths))
    await rig.app.runtime.run_until_idle()
    await rig.indexer.run_until_idle()


async def test_contentless_files_are_marked_once_and_never_embedded(tmp_path: Path) -> None:
    async for rig in open_rig(tmp_path):
        recorder = RecordingEmbedder()
        rig.indexer.embedder = recorder  # before the first pass: it sees every passage
        repo = tmp_path / "ws" / "repo"
        (repo / "blank.py").write_text("  \n\t\n   \n")
        await settle(rig, "blank.py")
        markers = {
            p: point_id(file_key("repo", p), CONTENTLESS_IDX) for p in ("empty.py", "blank.py")
        }

        assert recorder.seen and not [text for text in recorder.seen if not text.strip()]
        found = rig.store.payloads(list(markers.values()))
        assert {found[m]["path"] for m in markers.values()} == set(markers)
        assert all(found[m]["kind"] == "contentless" for m in markers.values())
        assert rig.store.count(repo_id="repo", kind="contentless") == 2
        status = await rig.app.service.index_status(t.RepoIdArgs(repoId="repo"))
        assert status.filesEmbedded == 3  # the markers are not embeddings
        _, paths = await rig.search("quarterly ledger invoice retry", k=20)
        assert paths and not {"empty.py", "blank.py"} & set(paths)

        # A replay from 0 finds every marker done: nothing embedded, nothing rewritten.
        embedded, reused = recorder.texts_embedded, rig.indexer.counters.passages_reused
        for topic in rig.indexer.inputs:
            for p in range(await rig.app.log.partitions(topic)):
                await rig.app.log.commit(rig.indexer.group, {(topic, p): 0})
        await rig.indexer.run_until_idle()
        assert recorder.texts_embedded == embedded
        assert rig.indexer.counters.passages_reused - reused >= 3 + 2  # incl. both markers

        # The marker follows the file: content replaces it, emptiness brings it back,
        # deletion removes it.
        (repo / "empty.py").write_text("reconcile the quarterly ledger\n")
        await settle(rig, "empty.py")
        assert rig.store.payloads([markers["empty.py"]]) == {}
        status = await rig.app.service.index_status(t.RepoIdArgs(repoId="repo"))
        assert status.filesEmbedded == 4
        (repo / "empty.py").write_text("\n\n")
        await settle(rig, "empty.py")
        assert rig.store.count(repo_id="repo", kind="contentless") == 2
        assert rig.store.count(repo_id="repo", kind="file") == 3  # its window is gone
        (repo / "blank.py").unlink()
        await settle(rig, "blank.py")
        assert rig.store.payloads([markers["blank.py"]]) == {}
        assert rig.store.count(repo_id="repo", kind="contentless") == 1
        assert not [text for text in recorder.seen if not text.strip()]
