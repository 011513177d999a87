"""A query about documentation (`where is --exact documented`) points a doc's hit at its
subject, not at the lines saying `documented`. QA on sharkdp/fd: doc/fd.1 came first, at
lines 527-531, `The regular expression syntax used by fd is documented here:`, and README.md
at line 63 for the same words, while fd.1's `--exact` section is at lines 120-123: the doc
words say what kind of file is asked for (docs_first.py ranks by the subject alone), and
they outnumbered the subject on a line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "doc/manual.md": (
        "# fd\n\n"
        "## Options\n\n"
        "`--glob`: match a glob pattern.\n\n"
        "`--exact`: perform an exact match of the whole filename.\n\n"
        "`--hidden`: search hidden files.\n\n"
        "## Syntax\n\n"
        "The regular expression syntax is documented here: see the regex docs.\n"
        "The glob syntax is documented here too, in the documentation of globset.\n"
    ),
    "src/cli.rs": (
        "pub struct Opts {\n"
        "    /// Perform an exact match of the whole filename.\n"
        "    pub exact: bool,\n"
        "}\n"
    ),
}


async def test_a_doc_hit_of_a_docs_query_points_at_its_subject(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        for query in ("where is --exact documented", "docs for --exact"):
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            hit = next(h for h in found["hits"] if h["entry"]["path"] == "doc/manual.md")
            assert hit["startLine"] <= 7 <= hit["endLine"], (query, hit)
            assert "7: `--exact`" in hit["snippet"], (query, hit)
            assert "documented here" not in hit["snippet"], (query, hit)
