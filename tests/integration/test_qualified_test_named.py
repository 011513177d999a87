"""A request naming a qualified name only tests declare (`Add
WrapperTest.testInterpolatorSecure()`) ranks the test file declaring it first, as a lone test
name does. QA on apache/commons-text: `Add XmlStringLookupTest.testInterpolatorSecureOnBla()`
ranked XmlStringLookupTest.java 10th, below nine source files sharing its words: the files
declaring a qualified name were lifted only when their role is not pushed down."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

MAIN = "src/main/java/org/acme/lookup"
TEST = "src/test/java/org/acme/lookup"
FILES = {
    f"{MAIN}/XmlLookup.java": (
        "package org.acme.lookup;\n\n"
        "/** An XML lookup: secure processing on by default; the interpolator's xml lookup. */\n"
        "public class XmlLookup {\n"
        "    /** Secure processing for the interpolator. */\n"
        "    public String lookup(final String key, final boolean secure) {\n"
        "        return key;\n    }\n}\n"
    ),
    f"{MAIN}/Interpolator.java": (
        "package org.acme.lookup;\n\n"
        "/** The interpolator: secure lookups, xml lookups, interpolator lookups. */\n"
        "public class Interpolator {\n"
        "    public String interpolate(final String text) {\n        return text;\n    }\n}\n"
    ),
    f"{TEST}/XmlLookupTest.java": (
        "package org.acme.lookup;\n\n"
        "class XmlLookupTest {\n"
        "    @Test\n    void testLookup() {\n"
        '        assertEquals("a", new XmlLookup().lookup("a", false));\n    }\n\n'
        "    @Test\n    void testInterpolatorSecureOn() {\n"
        '        assertEquals("b", new XmlLookup().lookup("b", true));\n    }\n}\n'
    ),
}


async def test_a_test_named_by_its_qualified_name_ranks_first(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        query = "Add XmlLookupTest.testInterpolatorSecureOn() for secure xml interpolator lookups"
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        first = found["hits"][0]
        assert first["entry"]["path"] == f"{TEST}/XmlLookupTest.java", found["hits"]
        assert first["startLine"] <= 10 <= first["endLine"], first  # testInterpolatorSecureOn


async def test_a_qualified_name_a_source_declares_is_not_looked_up_in_tests(
    tmp_path: Path,
) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        query = "Add a secure flag to XmlLookup.lookup for the interpolator"
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        assert found["hits"][0]["entry"]["path"] == f"{MAIN}/XmlLookup.java", found["hits"]
