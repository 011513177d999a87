"""repocontext_refresh: read-your-writes for an agent that just edited files."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from tests.integration.mcp_helpers import (
    call,
    call_error,
    search_paths,
    stdio_session,
    wait_indexed,
)

pytestmark = pytest.mark.anyio


@pytest.mark.slow  # waits out the watcher's edits
async def test_refresh_returns_once_the_edit_is_searchable(
    sample_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The watcher sees these edits too; at its 50 ms default it can publish one before the
    # refresh call arrives on a loaded machine (CI: `published` 0), so it waits 3 s here.
    monkeypatch.setenv("REPOCONTEXT_DEBOUNCE_MS", "3000")
    async with stdio_session(tmp_path / "data", str(sample_repo)) as session:
        await wait_indexed(session, "sample")
        target = sample_repo / "src" / "billing" / "ledger.py"
        target.write_text("def settle_platypus_account():\n    pass\n")
        # an old mtime: only a read (not the manifest's size and mtime) can see this edit
        os.utime(target, ns=(1_000_000_000, 1_000_000_000))
        result = await call(
            session,
            "repocontext_refresh",
            {"repoId": "sample", "paths": ["src/billing/ledger.py"], "timeoutSeconds": 30},
        )
        assert result["published"] == 1 and result["searchable"] is True
        # no polling: the answer promised searchability
        assert await search_paths(session, "sample", "platypus") == ["src/billing/ledger.py"]

        (sample_repo / "docs" / "guide.md").unlink()
        (sample_repo / "docs" / "new.md").write_text("echidna notes\n")
        whole = await call(session, "repocontext_refresh", {"repoId": "sample"})
        assert whole["published"] == 2 and whole["searchable"] is True
        assert await search_paths(session, "sample", "echidna") == ["docs/new.md"]
        assert await search_paths(session, "sample", "quarterly") == []

        again = await call(session, "repocontext_refresh", {"repoId": "sample", "paths": ["."]})
        assert again["published"] == 0 and again["searchable"] is True

        # the absolute path an agent sees on disk names the same repository file
        target.write_text("def settle_wombat_account():\n    pass\n")
        os.utime(target, ns=(1_000_000_000, 1_000_000_000))
        absolute = await call(
            session,
            "repocontext_refresh",
            {"repoId": "sample", "paths": [str(target.resolve())], "timeoutSeconds": 30},
        )
        assert absolute["published"] == 1 and absolute["searchable"] is True
        assert await search_paths(session, "sample", "wombat") == ["src/billing/ledger.py"]

        for bad in ("../outside.py", "/etc/passwd", "src/../../x"):
            text = await call_error(
                session, "repocontext_refresh", {"repoId": "sample", "paths": [bad]}
            )
            assert "`paths`" in text and "leaves the repository" in text
        text = await call_error(session, "repocontext_refresh", {"repoId": "nope"})
        assert "unknown repository" in text


async def test_a_named_path_that_is_not_indexed_is_said(sample_repo: Path, tmp_path: Path) -> None:
    """QA over MCP on ky: refresh of a path that does not exist, a symbolic link out of the
    tree and a binary file each answered `published: 0, searchable: true` and nothing else,
    which reads as 'your file is current in the index'; a search then found none of them."""
    outside = tmp_path / "outside.txt"
    outside.write_text("settle_hidden_account\n")
    (sample_repo / "src" / "link.py").symlink_to(outside)
    (sample_repo / "src" / "blob.py").write_bytes(b"x = 1\n\x00\x01\x02")
    named = ["src/billing/ledger.py", "src", "src/missing.py", "src/link.py", "src/blob.py"]
    async with stdio_session(tmp_path / "data", str(sample_repo)) as session:
        await wait_indexed(session, "sample")
        result = await call(session, "repocontext_refresh", {"repoId": "sample", "paths": named})
        assert result["searchable"] is True
        assert result["notIndexed"] == ["src/missing.py", "src/link.py", "src/blob.py"]
        assert "3 of the paths named are not indexed" in result["note"], result
        current = await call(
            session, "repocontext_refresh", {"repoId": "sample", "paths": named[:2]}
        )
        assert "notIndexed" not in current and "note" not in current


async def test_a_path_missing_its_leading_folders_names_the_file(
    sample_repo: Path, tmp_path: Path
) -> None:
    """QA on pallets/jinja: refresh of `jinja2/utils.py` (the file is src/jinja2/utils.py)
    re-read nothing and said only "missing, ignored, binary, ...", so an agent that had just
    edited the file was not told that paths are from the repository root."""
    async with stdio_session(tmp_path / "data", str(sample_repo)) as session:
        await wait_indexed(session, "sample")
        args = {"repoId": "sample", "paths": ["billing/invoice.py", "src/missing.py"]}
        result = await call(session, "repocontext_refresh", args)
        assert result["notIndexed"] == ["billing/invoice.py", "src/missing.py"], result
        assert result["note"].endswith(
            "; paths are from the repository root: billing/invoice.py is the end of "
            "src/billing/invoice.py"
        ), result


async def test_a_file_not_yet_applied_is_not_said_to_be_unindexed(
    sample_repo: Path, tmp_path: Path
) -> None:
    """A refresh that times out before the views apply the re-read cannot tell a file that
    will not be indexed from one the agent just wrote: it says neither (`searchable: false`
    is the answer). The views' write lock, held here, keeps the re-read from being applied."""
    async with stdio_session(tmp_path / "data", str(sample_repo)) as session:
        await wait_indexed(session, "sample")
        (sample_repo / "src" / "fresh.py").write_text("def count_quokkas():\n    pass\n")
        views = sqlite3.connect(tmp_path / "data" / "views.db", timeout=30)
        try:
            views.execute("BEGIN IMMEDIATE")
            args = {"repoId": "sample", "paths": ["src/fresh.py"], "timeoutSeconds": 1}
            blocked = await call(session, "repocontext_refresh", args)
            assert blocked["searchable"] is False, blocked
            assert "notIndexed" not in blocked and "note" not in blocked, blocked
        finally:
            views.rollback()
            views.close()
        args = {"repoId": "sample", "paths": ["src/fresh.py"], "timeoutSeconds": 30}
        applied = await call(session, "repocontext_refresh", args)
        assert applied["searchable"] is True and "notIndexed" not in applied, applied
        assert await search_paths(session, "sample", "quokkas") == ["src/fresh.py"]
