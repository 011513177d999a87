"""Tool gating (spec §1.1) for the tools this service has so far."""

from __future__ import annotations

from typing import Any

from query_api.server.mcp_server import tool_definition
from query_api.server.tool_catalog import TOOLS, visible_tools

READ_ONLY = {
    "repocontext_health",
    "repocontext_search",
    "repocontext_index_status",
    "repocontext_outline",  # symbols issue
    "repocontext_related",  # symbols issue
}
WORKSPACE_WRITES = {"repocontext_add_repo", "repocontext_remove_repo", "repocontext_reset_index"}
# memory, claims, context, stats (issue 5); exact reference lists: test_tool_gating_reference
MEMORY_READS = {
    f"repocontext_{n}"
    for n in ["recall", "scan", "list_topics", "neighbors", "context", "stats", "claim_status"]
}
MEMORY_WRITES = {
    f"repocontext_{n}"
    for n in ["remember", "update", "forget", "claim", "renew_claim", "release_claim"]
}
READ_ONLY |= MEMORY_READS


def names(**kw: Any) -> set[str]:
    return {t.name for t in visible_tools(**kw)}


def test_read_only_without_root() -> None:
    assert names(writes=False, has_root=False, workspace_mode=False) == READ_ONLY


def test_workspace_with_writes_and_root() -> None:
    expected = READ_ONLY | WORKSPACE_WRITES | {"repocontext_list_repos", "repocontext_refresh"}
    expected |= {"repocontext_eval"}  # reads git history from disk, so root-only
    expected |= MEMORY_WRITES
    expected |= {"repocontext_changed"}  # read-only, but takes a path (symbols issue)
    assert names(writes=True, has_root=True, workspace_mode=True) == expected


def test_path_tools_withheld_without_root() -> None:
    got = names(writes=True, has_root=False, workspace_mode=True)
    assert "repocontext_add_repo" not in got
    assert {"repocontext_remove_repo", "repocontext_reset_index"} <= got


def test_writes_off_hides_every_write_tool() -> None:
    got = names(writes=False, has_root=True, workspace_mode=True)
    assert not got & WORKSPACE_WRITES


def test_every_tool_is_named_like_the_reference() -> None:
    assert all(t.name.startswith("repocontext_") for t in TOOLS)
    assert len({t.name for t in TOOLS}) == len(TOOLS)


def test_search_says_repo_id_may_be_omitted() -> None:
    """Search without repoId searches every readable repository; the description, and its
    first sentence (all the compact profile lists), must not read as if repoId were needed."""
    search = next(t for t in TOOLS if t.name == "repocontext_search")
    assert "repoId" not in search.args.model_json_schema().get("required", [])
    for compact in (False, True):
        assert "repoId is omitted" in (tool_definition(search, compact).description or "")
