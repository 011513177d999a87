"""The text block a model reads says what the structured answer says about files longer than
their stored 64 Ki characters (issue 25 item 3) and what the walk left out (issue 24 item 10):
outline names the line the stored text stops in, each bundle entry of such a file carries a
marker, a search hit on it says so, and index_status counts the skipped files by reason.
Driven through the real MCP client and server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession

from processors.structural import count_lines
from schemas.events import MAX_BODY_CHARS
from tests.integration.memory_rig import memory_rig, rig_settings
from tests.integration.test_truncated_files import long_module

pytestmark = pytest.mark.anyio


async def answer(
    s: ClientSession, tool: str, args: dict[str, object]
) -> tuple[dict[str, Any], str]:
    """(structuredContent, text block) of a call that must succeed."""
    result = await s.call_tool(tool, args)
    assert not result.isError and result.structuredContent is not None, result.content
    assert len(result.content) == 1
    return result.structuredContent, result.content[0].text  # type: ignore[union-attr]


async def test_the_text_says_where_a_long_file_stops_and_what_was_skipped(
    tmp_path: Path,
) -> None:
    repo = rig_settings(tmp_path).workspace_root
    assert repo is not None
    text = long_module()
    (repo / "repo" / "ledger_rules.py").write_text(text)
    (repo / "repo" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    stop = text[:MAX_BODY_CHARS].count("\n") + 1
    async with memory_rig(tmp_path, index=True) as (_, s):
        outline, said = await answer(
            s, "repocontext_outline", {"repoId": "repo", "path": "ledger_rules.py"}
        )
        assert outline["truncatedAtLine"] == stop
        size = len(text.encode())
        assert outline["sizeBytes"] == size and "lineCount" not in outline  # total not held
        assert f"text stops at line {stop} of a {size:,}-byte file (64 Ki characters stored)" in (
            said
        ), said[:400]
        assert "declarations 1-400 of 3,000; offset 400 lists the next" in said, said[:400]
        # the head line is about the file: all its declarations, not the page's 400 (nor 0
        # past the end, which read as a file that declares nothing)
        assert said.startswith("ledger_rules.py in repo: 3000 symbols, "), said[:200]
        _, said = await answer(
            s, "repocontext_outline", {"repoId": "repo", "path": "ledger_rules.py", "offset": 2800}
        )
        assert "declarations 2,801-3,000 of 3,000\n" in said, said[:400]
        assert "declarations listed to the end" in said
        assert "ledger_rules.settle_ledger_2999" in said  # listed past the stop
        _, said = await answer(
            s, "repocontext_outline", {"repoId": "repo", "path": "ledger_rules.py", "offset": 9000}
        )
        assert "offset past the last of 3,000 declarations\n" in said, said[:400]
        assert said.startswith("ledger_rules.py in repo: 3000 symbols, "), said[:200]
        ledger: dict[str, object] = {"repoId": "repo", "path": "src/billing/ledger.py"}
        whole, small = await answer(s, "repocontext_outline", ledger)
        assert "text stops" not in small
        lines = count_lines((repo / "repo" / "src" / "billing" / "ledger.py").read_text())
        assert whole["lineCount"] == lines and whole["sizeBytes"] > 0
        assert small.startswith(f"src/billing/ledger.py in repo: {lines} lines, "), small

        bundle, said = await answer(
            s,
            "repocontext_context",
            {"repoId": "repo", "task": "settle ledger entry", "responseBudgetTokens": 8192},
        )
        cut = [e for e in bundle["entries"] if e.get("truncatedAtLine")]
        assert [e["path"] for e in cut] == ["ledger_rules.py"]
        headers = [line for line in said.split("\n") if line.startswith("== ")]
        marked = [h for h in headers if f"(stored text stops at line {stop})" in h]
        assert len(marked) == 1 and marked[0].startswith("== ledger_rules.py"), headers
        assert len(headers) == len(bundle["entries"])

        _, said = await answer(
            s, "repocontext_search", {"repoId": "repo", "query": "settle_ledger_2999"}
        )
        first = said.split("\n")[1]
        assert first.startswith("1. ledger_rules.py"), said
        assert "(text stops at 64 Ki characters; searched to its end)" in first, said

        status, said = await answer(s, "repocontext_index_status", {"repoId": "repo"})
        assert status["skippedByReason"] == {"binary": 1} and status["filesTruncated"] == 2
        assert "skipped: 1 file (binary 1)" in said, said
        assert "truncated: 2 files past the 64 Ki characters stored" in said, said
        assert "filesSkipped" not in said and "skippedByReason" not in said
