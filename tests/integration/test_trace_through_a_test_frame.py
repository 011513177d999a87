"""A pasted stack trace whose innermost frame is in a test keeps that test first: its
subject is not lifted above it, as it is for a test a request finds by its words. QA on
apache/commons-text: an AssertionFailedError `at ...WordUtilsTest.testWrap_StringIntStringBoolean
(WordUtilsTest.java:580)` ranked WordUtils.java first and the test, the one file the trace
names, second."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "src/main/java/org/acme/Wrapper.java": (
        "package org.acme;\n\n"
        "/** Wraps a line of text after a number of columns. */\n"
        "public class Wrapper {\n"
        "    public static String wrap(final String line, final int columns) {\n"
        "        return line;\n    }\n}\n"
    ),
    "src/test/java/org/acme/WrapperTest.java": (
        "package org.acme;\n\n"
        "class WrapperTest {\n"
        "    @Test\n    void testWrap() {\n"
        '        final String input = "Here is one line of text to wrap";\n'
        '        assertEquals("Here is one line\\nof text to wrap", Wrapper.wrap(input, 20));\n'
        "    }\n}\n"
    ),
}
TRACE = """org.opentest4j.AssertionFailedError: expected: <Here is one line
of text to wrap> but was: <Here is one line of text to wrap>
\tat org.junit.jupiter.api.AssertionUtils.fail(AssertionUtils.java:55)
\tat org.acme.WrapperTest.testWrap(WrapperTest.java:7)"""


async def test_the_test_a_trace_fails_in_stays_first(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": TRACE})
        paths = [h["entry"]["path"] for h in found["hits"]]
        assert paths[0] == "src/test/java/org/acme/WrapperTest.java", found["hits"]
        assert found["hits"][0]["startLine"] == 7, found["hits"][0]
