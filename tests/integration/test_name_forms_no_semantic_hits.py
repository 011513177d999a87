"""A definition or users query of a code name no file holds (`what calls zz_nothing_fn`,
`where is ZzNothingType defined`) answers no hits: nothing defines or uses a name no file holds,
and files close to it in meaning are neither. QA on serde-rs/json: `what calls zz_nothing_fn`
listed ten files with a note saying they were only semantically close. A word a question may
mean as a concept (`where is parser defined`) keeps its hits by meaning."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp.shared.memory import create_connected_server_and_client_session

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import hash_vectors, memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "src/dispatch.rs": "/// Reads a message head.\npub fn read_head() -> bool {\n    false\n}\n",
    "src/conn.rs": "/// Where the connection is polled.\npub fn poll_msg() -> u8 {\n    1\n}\n",
}


async def test_a_code_name_no_file_holds_has_no_hits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every passage is close enough: the hash embedder's cosines are not MiniLM's
    monkeypatch.setattr("query_api.core.search_ranking.SEMANTIC_FLOOR", -1.0)
    monkeypatch.setattr("query_api.retrieval.no_match.SEMANTIC_FLOOR", -1.0)
    write_files(tmp_path / "ws" / "repo", FILES)
    async with (
        memory_rig(tmp_path, index=True) as (app, _),
        hash_vectors(app),
        create_connected_server_and_client_session(app.mcp_server()) as s,
    ):
        for query, name in (
            ("what calls zz_nothing_fn", "zz_nothing_fn"),
            ("where is ZzNothingType defined", "ZzNothingType"),
        ):
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            assert found["hits"] == [], found["hits"]
            assert f"contains '{name}'" in found.get("note", ""), found.get("note")
        # a word, not a name: its neighbours by meaning are kept, and said to be so
        found = await call(
            s, "repocontext_search", {"repoId": "repo", "query": "where is parsing defined"}
        )
        assert found["hits"], found
