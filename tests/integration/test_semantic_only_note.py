"""An answer whose hits hold no word and no whole identifier of the query, kept because a
passage is semantically close, says so in its note: such hits are neighbours by meaning, not
matches. QA on sharkdp/fd: after deleting `zz_qa_marker_fn`, the agent's check that nothing
refers to it any more (`zz_qa_marker_fn`) answered src/dir_entry.rs and src/fmt/mod.rs with
the reason `content-match` (BM25 matched the name's parts, `fn`) and no note, as if two files
still held it; an identifier of a code word's parts sits above the calibrated floor."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp.shared.memory import create_connected_server_and_client_session

from query_api.core.search_ranking import semantic_only_note
from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import hash_vectors, memory_rig

pytestmark = pytest.mark.anyio


async def test_hits_kept_by_meaning_alone_say_no_file_holds_the_query(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every passage is close enough: the hash embedder's cosines are not MiniLM's
    monkeypatch.setattr("query_api.core.search_ranking.SEMANTIC_FLOOR", -1.0)
    monkeypatch.setattr("query_api.retrieval.no_match.SEMANTIC_FLOOR", -1.0)
    async with (
        memory_rig(tmp_path, index=True) as (app, _),
        hash_vectors(app),
        create_connected_server_and_client_session(app.mcp_server()) as s,
    ):
        query = {"repoId": "repo", "query": "zebra_quokka_unique"}
        found = await call(s, "repocontext_search", query)
        assert found["hits"], found
        assert "no file or memory entry in 'repo' contains 'zebra_quokka_unique'" in (
            found.get("note", "")
        ), found.get("note")
        # a query a file holds gets no such note
        held = await call(s, "repocontext_search", {"repoId": "repo", "query": "ledger"})
        assert held["hits"] and "contains" not in held.get("note", ""), held.get("note")


def test_the_note_says_the_hits_are_close_by_meaning_only() -> None:
    note = semantic_only_note("zz_qa_marker_fn", "src", 0.41)
    assert note == (
        "no file or memory entry in 'src' contains 'zz_qa_marker_fn'; these hits are only "
        "semantically close to it (best cosine 0.41)"
    )
