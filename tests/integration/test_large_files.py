"""Large files are searchable to their end (issue 25 item 3), over the real MCP client: a word
past the 64 Ki body cap is found, the hit and the outline say the file was truncated, a file
longer than the indexed limit says where search stops, and a replay of the log rebuilds the
same answers."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from query_api.settings import Settings
from repocontext.app import EmbeddedApp
from schemas.events import INDEXED_CHARS_RANGE, MAX_BODY_CHARS, MAX_INDEXED_CHARS
from streams.sources.walker import configure_indexed_limit
from streams.stores.views.search import keyword_hits
from tests.conftest import write_sample_repo
from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio
LIMIT = INDEXED_CHARS_RANGE[0] + 32_768  # a small indexed limit, so the test files stay small
FILLER = "def filler_{n}(value):\n    return value + {n}\n"


def long_module(lines: int, words: dict[int, str]) -> str:
    """A Python module of `lines` filler functions with `words[i]` written after line i."""
    out = []
    for n in range(lines):
        out.append(FILLER.format(n=n))
        if n in words:
            out.append(f"# {words[n]}\n")
    return "".join(out)


def write_repo(root: Path) -> tuple[str, str]:
    repo = root / "ws" / "repo"
    repo.mkdir(parents=True)
    write_sample_repo(repo)
    # ~46 characters per filler: 1,700 lines put the words past 64 Ki but inside LIMIT
    long_text = long_module(
        1_800, {1_700: "zanzibar_quokka past the body cap", 1_750: "MarmosetTamarin1750 too"}
    )
    huge_text = long_module(6_000, {1_700: "pangolin_marmot", 5_000: "axolotl_wombat"})
    assert MAX_BODY_CHARS < long_text.index("zanzibar_quokka") < LIMIT < len(long_text) + LIMIT
    assert MAX_BODY_CHARS < long_text.index("MarmosetTamarin1750") < LIMIT
    assert MAX_BODY_CHARS < huge_text.index("pangolin_marmot") < LIMIT
    assert huge_text.index("axolotl_wombat") > LIMIT
    (repo / "long.py").write_text(long_text)
    (repo / "huge.py").write_text(huge_text)
    return long_text, huge_text


def views_state(data: Path, settings: Settings) -> dict[str, Any]:
    conn = sqlite3.connect(data / "views.db")
    try:
        files = conn.execute(
            "SELECT path, digest, line_count, truncated, indexed_chars FROM files ORDER BY path"
        ).fetchall()
        content = conn.execute("SELECT path, digest, body, truncated FROM content ORDER BY path")
        bodies = content.fetchall()
    finally:
        conn.close()
    return {"files": files, "content": bodies}


async def searches(app: EmbeddedApp) -> dict[str, list[tuple[str, float, tuple[str, ...]]]]:
    queries = ("zanzibar_quokka", "pangolin_marmot", "axolotl_wombat", "filler value")
    return {
        q: [(h.path, round(h.score, 9), h.reasons) for h in keyword_hits(app.views, "repo", q, 10)]
        for q in queries
    }


async def test_large_files_are_searchable_to_their_end_and_say_truncated(tmp_path: Path) -> None:
    long_text, _ = write_repo(tmp_path)
    configure_indexed_limit(LIMIT)
    try:
        async with memory_rig(tmp_path, index=True) as (app, s):
            found = await call(
                s, "repocontext_search", {"repoId": "repo", "query": "zanzibar_quokka"}
            )
            top = found["hits"][0]
            assert top["entry"]["path"] == "long.py"
            assert top["entry"]["fields"]["truncated"] == "true"  # the body stops at 64 Ki
            assert "indexedChars" not in top["entry"]["fields"]  # search covered all of it
            # a camelCase name past the body is one too (its lower-cased spelling is not
            # its words: marmosettamarin, 1750)
            camel = await call(
                s, "repocontext_search", {"repoId": "repo", "query": "MarmosetTamarin1750"}
            )
            assert camel["hits"][0]["entry"]["path"] == "long.py", camel

            deep = await call(
                s, "repocontext_search", {"repoId": "repo", "query": "pangolin_marmot"}
            )
            fields = deep["hits"][0]["entry"]["fields"]
            assert deep["hits"][0]["entry"]["path"] == "huge.py"
            assert (fields["truncated"], fields["indexedChars"]) == ("true", str(LIMIT))
            beyond = await call(
                s, "repocontext_search", {"repoId": "repo", "query": "axolotl_wombat"}
            )
            assert all(h["entry"]["path"] != "huge.py" for h in beyond["hits"])  # past the limit
            # "no file contains it" would overclaim: the note counts the files read in part
            # (huge.py and the sample repository's huge.txt)
            assert (
                beyond["hits"] == []
                and "2 files are longer than the indexed limit and searched only in part"
                " (huge.py, huge.txt;"
                in (beyond["note"])
            ), beyond.get("note")
            # half of an identifier in the index is not the identifier (its other half lies
            # past the limit): no hit rather than a file that only shares a fragment
            half = await call(
                s, "repocontext_search", {"repoId": "repo", "query": "pangolin_wombat"}
            )
            assert half["hits"] == [] and "pangolin_wombat" in half["note"]

            outline = await call(s, "repocontext_outline", {"repoId": "repo", "path": "huge.py"})
            assert (outline["truncated"], outline["indexedChars"]) == (True, LIMIT)
            whole = await call(
                s, "repocontext_outline", {"repoId": "repo", "path": "src/billing/ledger.py"}
            )
            assert "truncated" not in whole and "indexedChars" not in whole  # most files: nothing

            # the tools still return at most the first 64 Ki characters
            row = app.views.get_content("repo", "long.py")
            assert row is not None and row.truncated and row.body == long_text[:MAX_BODY_CHARS]
            settings = app.settings
            before = (views_state(settings.data_dir, settings), await searches(app))
        for suffix in ("", "-wal", "-shm"):  # replay: fresh views from the log alone
            Path(str(settings.views_path) + suffix).unlink(missing_ok=True)
        async with EmbeddedApp(settings, watch=False) as app:
            await app.runtime.run_until_idle()
            after = (views_state(settings.data_dir, settings), await searches(app))
        assert after == before
    finally:
        configure_indexed_limit(MAX_INDEXED_CHARS)
