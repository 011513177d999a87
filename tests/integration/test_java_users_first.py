"""A query for the users of a Java method (`what calls Options.getMatchingOptions`) places
the files calling it first: the real index, the keyword ladder, the MCP client. QA on
apache/commons-cli: a class calls a method of its own package's class with no import
(`options.getMatchingOptions(token)`), and the dependents count a member's bare references
only through an import, so the callers were not found and the declaring file came first.
A method name the repository declares once, of several words, is what its bare
references call."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.users_first import distinctive
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

PKG = "src/main/java/org/apache/commons/cli"
FILES = {
    f"{PKG}/Options.java": (
        "package org.apache.commons.cli;\n\nimport java.util.List;\n\n"
        "public class Options {\n"
        "    /** The options matching a long option's prefix. */\n"
        "    public List<String> getMatchingOptions(final String opt) {\n"
        "        return List.of(opt);\n    }\n\n"
        "    public Options addOption(final String opt) {\n        return this;\n    }\n}\n"
    ),
    f"{PKG}/DefaultParser.java": (
        "package org.apache.commons.cli;\n\n"
        "public class DefaultParser {\n    private Options options;\n\n"
        "    private void handleLongOption(final String token) {\n"
        "        final var matching = options.getMatchingOptions(token);\n    }\n}\n"
    ),
    # holds the query's words, calls neither method
    f"{PKG}/HelpFormatter.java": (
        "package org.apache.commons.cli;\n\n"
        "/** What calls the options: matching options are printed, options get their help. */\n"
        "public class HelpFormatter {\n"
        "    public String getMatchingOptionsHelp(final Options options) {\n"
        '        return "matching options";\n    }\n}\n'
    ),
}


async def test_a_query_for_the_callers_of_a_java_method_ranks_them_first(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        for query in ("what calls Options.getMatchingOptions", "callers of getMatchingOptions"):
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            first = found["hits"][0]
            assert first["entry"]["path"] == f"{PKG}/DefaultParser.java", found["hits"]
            assert "uses:getMatchingOptions" in first["reasons"], first
            paths = [h["entry"]["path"] for h in found["hits"]]
            assert f"{PKG}/HelpFormatter.java" not in paths[:1]


def test_only_a_name_of_several_words_is_taken_for_its_one_declaration() -> None:
    assert distinctive("getMatchingOptions") and distinctive("parse_args")
    assert not distinctive("add") and not distinctive("parse")
