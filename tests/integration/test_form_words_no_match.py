"""Whether an answer holds the query is judged on what keyword search reads of it: a query
asking where a name is defined or what calls it, less the words of that form (form_words.py).
QA on hyperium/hyper: `where is zz_quokka_fn defined` and `what calls zz_quokka_fn`, a name no
file holds, answered three files each with `content-match` and no note saying that nothing
holds it (the users query said only that none of them uses it): a file holding `defined` or
`calls` counted as a match. And such a query of a code name no file holds answers no hits:
nothing defines or uses a name no file holds, and files close to it in meaning are neither
(QA on serde-rs/json: `what calls zz_nothing_fn` listed ten files with a note saying they were
only semantically close); a word a question may mean as a concept keeps its hits by meaning."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from mcp import ClientSession
from mcp.shared.memory import create_connected_server_and_client_session

from query_api.retrieval.no_match import SEMANTIC_FLOOR, no_match_note
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import hash_vectors, memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "src/dispatch.rs": (
        "/// Any subsequent calls on a closed connection are defined to fail.\n"
        "pub fn poll_read_head() -> bool {\n    false\n}\n"
    ),
    "src/conn.rs": "/// Where the connection is used.\npub fn poll_msg() -> u8 {\n    1\n}\n",
}


@asynccontextmanager
async def _session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[ClientSession]:
    """A client of the server over FILES indexed with vectors, every passage close enough (the
    hash embedder's cosines are not MiniLM's)."""
    monkeypatch.setattr("query_api.core.search_ranking.SEMANTIC_FLOOR", -1.0)
    monkeypatch.setattr("query_api.retrieval.no_match.SEMANTIC_FLOOR", -1.0)
    write_files(tmp_path / "ws" / "repo", FILES)
    async with (
        memory_rig(tmp_path, index=True) as (app, _),
        hash_vectors(app),
        create_connected_server_and_client_session(app.mcp_server()) as s,
    ):
        yield s


async def test_a_code_name_no_file_holds_has_no_hits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with _session(tmp_path, monkeypatch) as s:
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


async def test_a_name_nothing_holds_is_said_so_whatever_the_form(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with _session(tmp_path, monkeypatch) as s:
        for query in (
            "where is zz_quokka_fn defined",
            "what calls zz_quokka_fn",
            "where is zz_quokka_fn used?",
        ):
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            note = found.get("note", "")
            assert "no file or memory entry in 'repo' contains 'zz_quokka_fn'" in note, found
        # a name a file holds gets no such note
        found = await call(
            s, "repocontext_search", {"repoId": "repo", "query": "where is poll_msg defined"}
        )
        assert "contains" not in found.get("note", ""), found


def test_the_note_names_what_no_file_holds_and_a_best_cosine_under_the_floor() -> None:
    assert no_match_note("zz_quokka_fn", "src", 0.3482) == (
        "no file or memory entry in 'src' contains 'zz_quokka_fn', and no passage is "
        f"semantically close (best cosine 0.348 < {SEMANTIC_FLOOR})"
    )
    assert "best cosine 0.13 <" in no_match_note("x", "src", 0.13)
