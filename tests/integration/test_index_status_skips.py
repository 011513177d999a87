"""index_status says what the walk left out and why (issue 24 QA): binaries are counted by
reason, on a re-walk too (where the stat fast path vouches for them without reading), and
the files whose text the tools return only in part are counted from the views."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from schemas.events import MAX_BODY_CHARS
from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import memory_rig, rig_settings

pytestmark = pytest.mark.anyio


async def test_index_status_counts_skipped_binaries_and_truncated_files(tmp_path: Path) -> None:
    repo = rig_settings(tmp_path).workspace_root
    assert repo is not None
    repo = repo / "repo"
    (repo / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (repo / "data.bin").write_bytes(b"\x00\x01\x02" * 100)
    (repo / "big.py").write_text("x = 1\n" * (MAX_BODY_CHARS // 6 + 100))
    an_hour_ago = time.time() - 3600  # old enough for the stat fast path to vouch for them
    for path in repo.rglob("*"):
        os.utime(path, (an_hour_ago, an_hour_ago))
    async with memory_rig(tmp_path, index=True) as (app, s):
        first = await call(s, "repocontext_index_status", {"repoId": "repo"})
        assert first["filesSkipped"] == 2 and first["skippedByReason"] == {"binary": 2}, first
        # big.py and the sample's huge.txt go on past the stored 64 Ki characters
        assert first["filesTruncated"] == 2 and first["filesSearchedInPart"] == 0
        assert first["filesScanned"] == first["filesAdded"] + 2
        registration = app.ingest.registrations["repo"]
        await app.ingest.reconcile(registration, force_full=False)  # a re-walk: nothing read
        again = await call(s, "repocontext_index_status", {"repoId": "repo"})
        assert again["filesAdded"] == 0 and again["filesUnchanged"] == first["filesAdded"]
        assert again["filesSkipped"] == 2 and again["skippedByReason"] == {"binary": 2}, again
        assert again["filesTruncated"] == 2


async def test_index_status_names_the_ignore_rules_the_walk_dropped(tmp_path: Path) -> None:
    """Rules past a .gitignore's 10,000 were dropped with a log line only (0880463, 912a1cb):
    the file they name was indexed and index_status said nothing. It now counts the lines
    dropped and names the ignore files, in the structured answer and its text."""
    repo = rig_settings(tmp_path).workspace_root
    assert repo is not None
    repo = repo / "repo"
    rules = "".join(f"pattern_{i}_*.tmp\n" for i in range(10_000))
    (repo / ".gitignore").write_text(rules + "late.secret\n")
    (repo / "late.secret").write_text("hidden = True\n")
    async with memory_rig(tmp_path, index=True) as (_, s):
        result = await s.call_tool("repocontext_index_status", {"repoId": "repo"})
        status, said = result.structuredContent, result.content[0].text  # type: ignore[union-attr]
        assert status is not None
        assert status["ignoreRulesDropped"] == 1, status
        assert status["ignoreRulesDroppedPaths"] == [".gitignore"], status
        assert "ignore rules dropped: 1 line of .gitignore" in said, said
        assert "ignoreRulesDropped" not in said
