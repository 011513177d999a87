"""A users query for a one-word member qualified by its type (`who uses
StringSubstitutor.replace`) counts as users only the files naming that type in code, not
in a comment. QA on apache/commons-text: the deprecated StrSubstitutor.java, whose Javadoc
says `use {@link StringSubstitutor} instead` and whose code calls its own `replace`, came
first with the reason `uses:replace`, above the tests that do call StringSubstitutor's."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.users_first import naming_qualifier
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

PKG = "src/main/java/org/example/text"
FILES = {
    f"{PKG}/Substitutor.java": (
        "package org.example.text;\n\n"
        "public class Substitutor {\n"
        "    public String replace(final String source) {\n        return source;\n    }\n}\n"
    ),
    # names the type in its Javadoc only, and calls a replace of its own
    f"{PKG}/OldSubstitutor.java": (
        "package org.example.text;\n\n"
        "/**\n * @deprecated use {@link Substitutor} instead.\n */\n"
        "public class OldSubstitutor {\n"
        "    public String replace(final String source) {\n        return source;\n    }\n\n"
        "    public String run(final String source) {\n"
        "        return new OldSubstitutor().replace(source);\n    }\n}\n"
    ),
    f"{PKG}/Caller.java": (
        "package org.example.text;\n\n"
        "public class Caller {\n"
        "    public String go(final Substitutor substitutor) {\n"
        '        return substitutor.replace("x");\n    }\n}\n'
    ),
}


async def test_a_file_naming_the_type_in_a_comment_only_is_no_user(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        query = "who uses Substitutor.replace"
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        users = [h["entry"]["path"] for h in found["hits"] if "uses:replace" in h["reasons"]]
        assert users == [f"{PKG}/Caller.java"], found["hits"]


def test_naming_qualifier_reads_code_not_comments() -> None:
    bodies = {
        "a.java": "/** see {@link Substitutor} */\nclass A {}\n",
        "b.java": "// Substitutor is better\nclass B {}\n",
        "c.java": "class C {\n    Substitutor s;\n}\n",
    }
    assert naming_qualifier("Substitutor", bodies) == {"c.java"}
