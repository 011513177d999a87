"""A tool call does only its own work in the MCP layer: the SDK's per-call tool lookup, which
for a name not listed re-ran tools/list and logged a warning, is not used
(query_api/server/mcp_server.py `_Server`). Real app, the SDK's in-process client."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, call_error
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio


async def test_an_unknown_tool_is_refused_without_relisting_or_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with memory_rig(tmp_path) as (_, session):
        with caplog.at_level(logging.INFO, logger="mcp"):
            for _ in range(3):
                text = await call_error(session, "repocontext_no_such_tool", {})
                assert "unknown tool 'repocontext_no_such_tool'" in text
            repos = await call(session, "repocontext_list_repos", {})
        assert [r["repoId"] for r in repos["repositories"]] == ["repo"]
        said = [r.getMessage() for r in caplog.records if r.name.startswith("mcp.")]
        assert not [m for m in said if "not listed" in m or "cache miss" in m.lower()], said
