"""A pasted Maven Surefire or Gradle test failure ranks the test class's file first and
points its hit at the failing test method, as a `go test` failure does. QA on
apache/commons-text: Surefire's `[ERROR]   WordUtilsTest.testWrap_StringIntStringBoolean:580
expected: <...>` left WordUtilsTest.java out of the first ten; and a method of that name in
another test class is not the one that failed."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.failed_tests import failed_tests
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

MAIN = "src/main/java/org/acme/text"
TEST = "src/test/java/org/acme/text"
FILES = {
    f"{MAIN}/Wrapper.java": (
        "package org.acme.text;\n\n"
        "/** Wraps text; an error is expected when the columns are wrong. Tests run. */\n"
        "public class Wrapper {\n"
        "    public static String wrap(final String text, final int columns) {\n"
        "        return text;\n    }\n}\n"
    ),
    # the same test name in another class: not the one that failed
    f"{TEST}/OtherTest.java": (
        "package org.acme.text;\n\n"
        "class OtherTest {\n"
        "    @Test\n    void testWrapLongWords() {\n"
        '        assertEquals("expected", Wrapper.wrap("expected", 3));\n    }\n}\n'
    ),
    f"{TEST}/WrapperTest.java": (
        "package org.acme.text;\n\n"
        "class WrapperTest {\n"
        "    @Test\n    void testShort() {\n"
        '        assertEquals("a", Wrapper.wrap("a", 3));\n    }\n\n'
        "    @Test\n    void testWrapLongWords() {\n"
        '        assertEquals("ab\\ncd", Wrapper.wrap("abcd", 2));\n    }\n}\n'
    ),
}
SUREFIRE = """[ERROR] Tests run: 2, Failures: 1, Errors: 0, Skipped: 0
[ERROR] Failures:
[ERROR]   WrapperTest.testWrapLongWords:13 expected: <ab
cd> but was: <abcd>
[ERROR] Tests run: 9, Failures: 1, Errors: 0, Skipped: 0"""


async def test_the_failing_tests_file_comes_first_at_the_test(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    test_line = (
        FILES[f"{TEST}/WrapperTest.java"].split("\n").index("    void testWrapLongWords() {")
    )
    async with memory_rig(tmp_path, index=True) as (_, s):
        for query in (SUREFIRE, "WrapperTest > testWrapLongWords() FAILED"):
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            first = found["hits"][0]
            assert first["entry"]["path"] == f"{TEST}/WrapperTest.java", found["hits"]
            assert first["startLine"] <= test_line + 1 <= first["endLine"], first


def test_the_failed_tests_are_read_from_surefire_and_gradle_output() -> None:
    assert failed_tests(SUREFIRE) == ["WrapperTest.testWrapLongWords"]
    per_test = (
        "[ERROR] org.acme.text.WrapperTest.testWrapLongWords  Time elapsed: 0.01 s  <<< FAILURE!\n"
        "[ERROR] testShort(org.acme.text.WrapperTest)  Time elapsed: 0 s  <<< ERROR!\n"
    )
    assert failed_tests(per_test) == ["WrapperTest.testWrapLongWords", "WrapperTest.testShort"]
    assert failed_tests("org.acme.Outer$InnerTest > testX(String) FAILED") == ["InnerTest.testX"]
    summary = "[ERROR] Tests run: 5, Failures: 1 <<< FAILURE! - in org.acme.text.WrapperTest"
    assert failed_tests(summary) == []
    assert failed_tests("why does WrapperTest.testWrapLongWords fail") == []
