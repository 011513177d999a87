"""An answer to `where is X defined` none of whose hits declares X says so. QA on pallets/
werkzeug: `where is url_quote defined` (removed in 3.0) answered urls.py first, its reason
`symbol:werkzeug.urls._codec_error_url_quote` and its line a string naming
`werkzeug.url_quote`, then three files calling `quote`, with no note: read as an answer, it
sends the agent to a declaration that does not exist."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "src/pkg/__init__.py": "",
    "src/pkg/urls.py": (
        "from urllib.parse import quote\n\n\n"
        "def _codec_error_url_quote(e: Exception) -> str:\n"
        "    return 'werkzeug.url_quote'\n\n\n"
        "def iri_to_uri(iri: str) -> str:\n    return quote(iri)\n"
    ),
    "src/pkg/utils.py": "def redirect(location: str) -> str:\n    return location\n",
}


async def test_a_definition_no_hit_declares_is_said_so(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(
            s, "repocontext_search", {"repoId": "repo", "query": "where is url_quote defined"}
        )
        assert found["hits"], found
        assert "none of these hits declares url_quote" in found.get("note", ""), found
        for query in ("where is iri_to_uri defined", "where is the redirect function"):
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            assert found["hits"], found
            assert "declares" not in found.get("note", ""), (query, found)


async def test_a_word_asked_about_gets_no_such_note(tmp_path: Path) -> None:
    """`where are redirects defined` may ask about a concept: no declaration is its answer."""
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        query = "where are redirects defined"
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        assert "declares" not in found.get("note", ""), found
