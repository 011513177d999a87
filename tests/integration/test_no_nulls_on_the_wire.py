"""No null travels in a tool answer (QA: a search without repoId sent "repoId": null, remember
and forget "expiresAtUtc": null, claim_status its unset lease fields in both blocks, scan
"continuationToken": null). An absent optional field says what a null said; the tools' output
schemas no longer require those fields, so the answers stay valid against them. Real app and
MCP client."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession

from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio
KEY = "repo/repo/mem/notes/n1"


def nulls(value: Any, where: str = "") -> list[str]:
    """The paths of every null inside `value`."""
    if value is None:
        return [where or "."]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in nulls(v, f"{where}.{k}")]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in nulls(v, f"{where}[{i}]")]
    return []


async def checked(
    s: ClientSession, schemas: dict[str, Any], tool: str, args: dict[str, Any]
) -> Any:
    result = await s.call_tool(tool, args)
    assert not result.isError, result.content
    payload = result.structuredContent
    assert payload is not None and nulls(payload) == [], (tool, nulls(payload))
    text = " ".join(getattr(block, "text", "") for block in result.content)
    assert ": null" not in text, (tool, text)
    missing = set(schemas[tool].get("required", [])) - set(payload)
    assert missing == set(), (tool, missing)  # what is left out is not required
    return payload


async def test_answers_carry_no_nulls(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True) as (_, s):
        listed = await s.list_tools()
        schemas = {tool.name: tool.outputSchema for tool in listed.tools if tool.outputSchema}

        every = await checked(s, schemas, "repocontext_search", {"query": "ledger"})
        assert "repoId" not in every and every["searchedRepos"] == ["repo"]
        made = await checked(
            s,
            schemas,
            "repocontext_remember",
            {"repoId": "repo", "topic": "notes", "id": "n1", "title": "durable"},
        )
        assert made["expires"] is False and "expiresAtUtc" not in made
        status = await checked(s, schemas, "repocontext_claim_status", {"key": KEY})
        assert status["claimed"] is False and "owner" not in status
        page = await checked(s, schemas, "repocontext_scan", {"repoId": "repo", "scope": "Memory"})
        assert page["hasMore"] is False and "continuationToken" not in page
        gone = await checked(s, schemas, "repocontext_forget", {"key": KEY})
        assert "expiresAtUtc" not in gone
        await call(s, "repocontext_health", {})
