"""A query about the docs of a name (`docs for NoOptDefVal`, `where is ParseErrorsAllowlist
documented`) puts first only the doc files that hold the name, not every doc file the search
found by a fragment of it: the real index, the keyword ladder, the MCP client. QA on
spf13/pflag: `docs for NoOptDefVal` put LICENSE 2nd (its `IN NO EVENT` holds `no`), and
`where is ParseErrorsAllowlist documented` put README.md and LICENSE above flag.go, the one
file documenting it; neither doc names it."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.docs_first import holds_subject
from query_api.retrieval.hit_details import query_terms
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "flag.go": (
        "package pflag\n\n"
        "// ParseErrorsAllowlist defines the parsing errors that can be ignored.\n"
        "type ParseErrorsAllowlist struct {\n\tUnknownFlags bool\n}\n\n"
        "// Flag is a flag; NoOptDefVal is its value when set without an option.\n"
        "type Flag struct {\n\tNoOptDefVal string\n}\n"
    ),
    "README.md": (
        "# pflag\n\nAfter you create a flag it is possible to set the pflag.NoOptDefVal for\n"
        "it. Parse errors of unknown flags can go to an allowlist.\n"
    ),
    "LICENSE": (
        "THIS SOFTWARE IS PROVIDED AS IS. IN NO EVENT SHALL THE COPYRIGHT OWNER BE LIABLE\n"
        "for any errors, whether in the documentation or in the parse of it.\n"
    ),
}


async def test_a_doc_not_naming_the_name_is_not_put_first(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(
            s, "repocontext_search", {"repoId": "repo", "query": "docs for NoOptDefVal"}
        )
        paths = [h["entry"]["path"] for h in found["hits"]]
        assert paths[0] == "README.md", found["hits"]
        assert "LICENSE" not in paths[:2], found["hits"]
        query = "where is ParseErrorsAllowlist documented"
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        assert found["hits"][0]["entry"]["path"] == "flag.go", found["hits"]


def test_what_holds_the_subject_of_a_query_about_docs() -> None:
    readme = "Set `flags.SortFlags = false` to keep the order; see the --reload-delay option."
    assert holds_subject(readme, query_terms("where is FlagSet.SortFlags documented"))
    assert holds_subject(readme, query_terms("docs for the reload delay"))
    assert not holds_subject(readme, query_terms("where is SortFlagsFunc documented"))
    assert holds_subject("anything", query_terms("where is it documented"))  # no subject
