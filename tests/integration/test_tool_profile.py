"""The compact tool profile: fewer tools, shorter definitions, same answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from query_api.server.tool_catalog import COMPACT_TOOLS
from tests.integration.mcp_helpers import call, search_paths, stdio_session

pytestmark = pytest.mark.anyio


async def tools_list_json(data_dir: Path, *args: str) -> tuple[set[str], str]:
    async with stdio_session(data_dir, *args) as session:
        listed = await session.list_tools()
        payload = json.dumps(listed.model_dump(mode="json", exclude_none=True))
        if "compact" in args:
            # no index_status in this profile: refresh answers once the index is searchable
            await call(session, "repocontext_refresh", {"repoId": "sample", "timeoutSeconds": 60})
            assert await search_paths(session, "sample", "InvoiceCalculator")
        return {t.name for t in listed.tools}, payload


@pytest.mark.slow  # two servers, each profile
async def test_compact_profile_is_smaller_and_still_answers(
    sample_repo: Path, tmp_path: Path
) -> None:
    full_names, full = await tools_list_json(tmp_path / "a", str(sample_repo))
    small_names, small = await tools_list_json(
        tmp_path / "b", str(sample_repo), "--tool-profile", "compact"
    )
    assert small_names <= set(COMPACT_TOOLS) and small_names < full_names
    assert "repocontext_search" in small_names
    assert len(small) * 3 < len(full)  # titles, long descriptions and output schemas dropped
