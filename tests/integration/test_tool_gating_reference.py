"""The reference's exact tool lists (spec §1.1) over the real MCP client: 12 read-only tools
with writes off and no root, 20 in single-repository mode with writes and a root, 23 in
workspace mode. Tools beyond the reference are listed separately and checked on their own."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp.shared.memory import create_connected_server_and_client_session

from query_api.settings import Settings
from repocontext.app import EmbeddedApp

pytestmark = pytest.mark.anyio

READ_ONLY_12 = {
    f"repocontext_{n}"
    for n in [
        "health",
        "recall",
        "scan",
        "list_topics",
        "search",
        "index_status",
        "neighbors",
        "outline",
        "related",
        "context",
        "stats",
        "claim_status",
    ]
}
MEMORY_WRITES = {
    f"repocontext_{n}"
    for n in ["remember", "update", "forget", "claim", "renew_claim", "release_claim"]
}
SINGLE_REPO_20 = READ_ONLY_12 | MEMORY_WRITES | {"repocontext_changed", "repocontext_bootstrap"}
WORKSPACE_23 = (
    READ_ONLY_12
    | MEMORY_WRITES
    | {"repocontext_changed", "repocontext_list_repos"}
    | {"repocontext_add_repo", "repocontext_remove_repo", "repocontext_reset_index"}
)
# Ours, beyond the reference: both read the workspace, so both need a root.
EXTRAS_WITH_ROOT = {"repocontext_refresh", "repocontext_eval"}


async def listed(tmp_path: Path, **kw: object) -> set[str]:
    settings = Settings(data_dir=tmp_path / "data", embedder="none", processor_workers=0)
    async with (
        EmbeddedApp(settings.model_copy(update=kw), watch=False) as app,
        create_connected_server_and_client_session(app.mcp_server()) as session,
    ):
        return {tool.name for tool in (await session.list_tools()).tools}


@pytest.mark.parametrize(
    ("config", "reference", "extras"),
    [
        ({"enable_writes": False, "workspace_mode": False}, READ_ONLY_12, set()),
        ({"enable_writes": True, "workspace_mode": False, "root": True}, SINGLE_REPO_20,
         EXTRAS_WITH_ROOT),
        ({"enable_writes": True, "workspace_mode": True, "root": True}, WORKSPACE_23,
         EXTRAS_WITH_ROOT),
    ],
)  # fmt: skip
async def test_reference_tool_lists(
    tmp_path: Path, config: dict[str, object], reference: set[str], extras: set[str]
) -> None:
    kw = {k: v for k, v in config.items() if k != "root"}
    if config.get("root"):
        kw["workspace_root"] = tmp_path
    names = await listed(tmp_path, **kw)
    assert names - extras == reference
    assert names & extras == extras
    assert len(reference) in (12, 20, 23)
