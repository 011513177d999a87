"""The real server over stdio, driven by the real `mcp` client."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.integration.mcp_helpers import (
    call,
    call_error,
    search_paths,
    stdio_session,
    wait_for,
    wait_indexed,
)

pytestmark = pytest.mark.anyio

WORKSPACE_TOOLS = {
    "repocontext_health",
    "repocontext_search",
    "repocontext_index_status",
    "repocontext_list_repos",
    "repocontext_add_repo",
    "repocontext_remove_repo",
    "repocontext_reset_index",
    "repocontext_refresh",
    "repocontext_eval",
    "repocontext_outline",  # symbols issue
    "repocontext_related",
    "repocontext_changed",
}
# memory, claims, context and stats (issue 5; exact reference lists: test_tool_gating_reference)
MEMORY_READS = ("recall", "scan", "list_topics", "neighbors", "context", "stats", "claim_status")
WORKSPACE_TOOLS |= {
    f"repocontext_{n}"
    for n in [
        "recall",
        "scan",
        "list_topics",
        "neighbors",
        "context",
        "stats",
        "claim_status",
        "remember",
        "update",
        "forget",
        "claim",
        "renew_claim",
        "release_claim",
    ]
}


async def test_index_search_and_live_edits(sample_repo: Path, tmp_path: Path) -> None:
    async with stdio_session(tmp_path / "data", str(sample_repo)) as session:
        tools = {t.name for t in (await session.list_tools()).tools}
        assert tools == WORKSPACE_TOOLS
        await wait_indexed(session, "sample")

        result = await call(
            session, "repocontext_search", {"repoId": "sample", "query": "InvoiceCalculator"}
        )
        assert result["mode"] == "keyword"
        assert result["retrievalPath"] == "keyword.no_embedder"
        top = result["hits"][0]
        assert top["entry"]["path"] == "src/billing/invoice.py"
        assert top["entry"]["key"] == "repo/sample/file/src/billing/invoice.py"
        assert top["entry"]["kind"] == "File" and top["entry"]["exists"] is True
        assert top["entry"]["fields"]["digest"].startswith("xx128:")
        assert "vectorId" not in top  # a keyword hit has none, and a null is not sent
        assert "content-match" in top["reasons"]
        # where to look: the class, and the line that names it
        assert (top["startLine"], top["endLine"]) == (1, 3)
        assert top["snippet"] == "1: class InvoiceCalculator:"
        assert all(v not in (None, [], {}, "") for v in top["entry"].values())
        assert result["freshness"]["eventsBehind"] >= 0

        # identifier-aware: a camelCase hump and a path segment both match
        assert "src/httpServer.ts" in await search_paths(session, "sample", "http server")
        assert (await search_paths(session, "sample", "ledger"))[0] == "src/billing/ledger.py"

        # ignored, binary: never indexed; invalid UTF-8 and huge files: indexed, bounded
        assert await search_paths(session, "sample", "ignoredtoken") == []
        assert await search_paths(session, "sample", "ignoredlogline") == []
        assert await search_paths(session, "sample", "binarytoken") == []
        assert await search_paths(session, "sample", "zanzibarword") == ["latin1.txt"]
        assert await search_paths(session, "sample", "hugefilemarker") == ["huge.txt"]
        # past the 64 Ki body cap, inside the indexed limit: searchable to the file's end
        assert await search_paths(session, "sample", "tailmarker") == ["huge.txt"]

        # live: create, modify, delete
        new_file = sample_repo / "src" / "fresh_module.py"
        new_file.write_text("def quokkafunction():\n    pass\n")

        async def found() -> bool:
            return "src/fresh_module.py" in await search_paths(session, "sample", "quokkafunction")

        await wait_for(found, what="a new file to become searchable")
        new_file.write_text("def wombatfunction():\n    pass\n")

        async def changed() -> bool:
            return await search_paths(session, "sample", "wombatfunction") == [
                "src/fresh_module.py"
            ] and not await search_paths(session, "sample", "quokkafunction")

        await wait_for(changed, what="an edit to become searchable")
        new_file.unlink()

        async def gone() -> bool:
            return not await search_paths(session, "sample", "wombatfunction")

        await wait_for(gone, what="a deleted file to leave the index")

        # the deletion's content and structure records travel apart: search may drop the
        # file a moment before the file count does
        async def counted() -> dict[str, Any] | None:
            listed: dict[str, Any] = await call(session, "repocontext_list_repos", {})
            return listed if listed["repositories"][0]["fileCount"] == 7 else None

        repos = await wait_for(counted, what="the file count to drop the deleted file")
        assert repos["count"] == 1
        row = repos["repositories"][0]
        assert row["repoId"] == "sample" and row["indexedRoot"] == str(sample_repo.resolve())
        # .gitignore, 3 sources, guide.md, latin1.txt, huge.txt (no binary, no ignored files)
        assert row["fileCount"] == 7

        health = await call(session, "repocontext_health", {})
        assert health["retrievalReady"] is True
        assert health["retrievalPhase"] == "keyword_only"


async def test_add_repo_answers_with_the_running_snapshot(
    sample_repo: Path, tmp_path: Path
) -> None:
    # a workspace root and no repository yet: add_repo is the first onboarding
    root = str(sample_repo.parent)
    async with stdio_session(tmp_path / "data", "--workspace-root", root) as session:
        accepted = await call(session, "repocontext_add_repo", {"path": str(sample_repo)})
        # spec §1.5: the job progress snapshot at acceptance reports Running
        assert accepted["repoId"] == "sample"
        assert (accepted["status"], accepted["phase"]) == ("Running", "Walking")
        assert accepted["startedAt"] is not None and accepted.get("completedAt") is None
        assert accepted["attempt"] == 1
        await wait_indexed(session, "sample")
        done = await call(session, "repocontext_index_status", {"repoId": "sample"})
        assert (done["status"], done["phase"], done["attempt"]) == ("Completed", "Done", 1)


async def test_bad_arguments_get_clear_errors(sample_repo: Path, tmp_path: Path) -> None:
    async with stdio_session(tmp_path / "data", str(sample_repo)) as session:
        text = await call_error(
            session, "repocontext_search", {"repoId": "sample", "query": "x", "k": "many"}
        )
        assert "`k`" in text
        text = await call_error(
            session, "repocontext_search", {"repoId": "sample", "query": "x", "colour": 1}
        )
        assert "`colour`" in text and "unknown argument" in text
        text = await call_error(session, "repocontext_search", {"repoId": "", "query": "x"})
        assert "`repoId`" in text  # (omitted, it searches every repository)
        text = await call_error(session, "repocontext_search", {"repoId": "nope", "query": "x"})
        assert "unknown repository" in text
        text = await call_error(session, "repocontext_add_repo", {"path": "../../etc"})
        assert "outside the workspace root" in text
        text = await call_error(session, "repocontext_add_repo", {"path": "/etc"})
        assert "outside the workspace root" in text
        text = await call_error(session, "repocontext_add_repo", {"path": "no/such/dir"})
        assert "does not exist" in text
        text = await call_error(session, "repocontext_no_such_tool", {})
        assert "unknown tool" in text
        # a number outside its range is refused by name, with the range
        text = await call_error(
            session, "repocontext_search", {"repoId": "sample", "query": "x", "k": 10**30}
        )
        assert "`k` must be from 1 to 100" in text


@pytest.mark.slow  # reindexes over stdio
async def test_reset_and_remove(sample_repo: Path, tmp_path: Path) -> None:
    async with stdio_session(tmp_path / "data", str(sample_repo)) as session:
        await wait_indexed(session, "sample")
        reset = await call(session, "repocontext_reset_index", {"repoId": "sample"})
        assert reset["memoryPreserved"] is True and reset["entriesDeleted"] > 0
        assert reset["treesSwept"]
        # rebuilt from the log, not from disk
        assert (await search_paths(session, "sample", "InvoiceCalculator"))[0].endswith(
            "invoice.py"
        )
        removed = await call(session, "repocontext_remove_repo", {"repoId": "sample"})
        assert removed["entriesRemoved"] >= 8  # 7 files + the registration

        async def unlisted() -> bool:
            repos = await call(session, "repocontext_list_repos", {})
            return bool(repos["count"] == 0)

        await wait_for(unlisted, what="the repository to be removed")
        nothing = await call(session, "repocontext_remove_repo", {"repoId": "sample"})
        assert nothing["entriesRemoved"] == 0


@pytest.mark.slow  # several stdio servers
async def test_read_only_and_rootless_surfaces(sample_repo: Path, tmp_path: Path) -> None:
    async with stdio_session(tmp_path / "ro", str(sample_repo), "--read-only") as session:
        tools = {t.name for t in (await session.list_tools()).tools}
        assert tools == {
            "repocontext_health",
            "repocontext_search",
            "repocontext_index_status",
            "repocontext_list_repos",
            "repocontext_refresh",  # re-reads the disk but writes nothing there
            "repocontext_eval",  # reads git history, writes nothing
            "repocontext_outline",  # symbols issue: read-only
            "repocontext_related",
            "repocontext_changed",  # read-only; listed because a root is configured
        } | {f"repocontext_{n}" for n in MEMORY_READS}
        text = await call_error(session, "repocontext_add_repo", {"path": str(sample_repo)})
        assert "unknown tool" in text
    async with stdio_session(tmp_path / "noroot") as session:
        tools = {t.name for t in (await session.list_tools()).tools}
        assert "repocontext_add_repo" not in tools
        assert "repocontext_refresh" not in tools and "repocontext_eval" not in tools
        assert "repocontext_remove_repo" in tools
