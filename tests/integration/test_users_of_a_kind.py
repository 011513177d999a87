"""A users query may write the name with its kind, as a sentence does: `what calls the
StringSubstitutorReader constructor`, `where is the Wrapper class used`. QA on
apache/commons-text: no users form matched `the X constructor`, so keyword search read
`constructor` as a word, ranked the declaring file first and pointed hits at `Default
constructor.` comments."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.form_words import keyword_text
from query_api.retrieval.users_first import used_name
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

PKG = "src/main/java/org/acme/io"
FILES = {
    f"{PKG}/SubstitutingReader.java": (
        "package org.acme.io;\n\n"
        "/** A reader substituting variables. */\n"
        "public class SubstitutingReader {\n"
        "    /** The constructor: a constructor of the reader. */\n"
        "    public SubstitutingReader(final String source) {\n    }\n}\n"
    ),
    f"{PKG}/Pipeline.java": (
        "package org.acme.io;\n\n"
        "public class Pipeline {\n"
        "    public Object open(final String source) {\n"
        "        return new SubstitutingReader(source);\n    }\n}\n"
    ),
    # holds the words, constructs nothing
    f"{PKG}/Builders.java": (
        "package org.acme.io;\n\n"
        "/** Default constructor helpers: what calls a constructor, the reader's builders. */\n"
        "public class Builders {\n"
        "    /** Default constructor. */\n    public Builders() {\n    }\n}\n"
    ),
}


async def test_the_callers_of_the_constructor_come_first(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        for query in (
            "what calls the SubstitutingReader constructor",
            "where is the SubstitutingReader class used?",
        ):
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            first = found["hits"][0]
            assert first["entry"]["path"] == f"{PKG}/Pipeline.java", (query, found["hits"])
            assert "uses:SubstitutingReader" in first["reasons"], first


def test_the_kind_is_no_part_of_the_name_nor_a_word_searched() -> None:
    assert used_name("what calls the Foo constructor") == "Foo"
    assert used_name("callers of the Foo.bar method") == "Foo.bar"
    assert used_name("where is the Foo class used") == "Foo"
    assert used_name("what calls Foo") == "Foo"
    assert "constructor" not in keyword_text("what calls the Foo constructor")
