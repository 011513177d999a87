"""`tests for TextStringBuilder.reverse` points a test file longer than the stored 64 Ki
characters at the test named for the member (`testReverse`) when that test lies past the
stored text, as it does for an unqualified name. QA on apache/commons-text:
TextStringBuilderTest.java (its `testReverse` at line 2,144, the stored text ending at line
1,790) pointed at lines 101-106, `test_LANG_1131_EqualsWithNullTextStringBuilder`, which hold
only the class's name: the qualified name was matched whole against test names."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas.events import MAX_BODY_CHARS
from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import memory_rig, rig_settings

pytestmark = pytest.mark.anyio

PKG = "src/main/java/org/example"
TESTS = "src/test/java/org/example"
SOURCE = (
    "package org.example;\n\npublic class TextBuffer {\n"
    "    public TextBuffer reverse() {\n        return this;\n    }\n}\n"
)
FILLER = (
    "    @Test\n    void testAppend{n}() {{\n"
    "        final TextBuffer sb = new TextBuffer();\n"
    '        assertEquals("{n}", sb.toString());\n    }}\n\n'
)
LATE = (
    "    @Test\n    void testReverse() {\n"
    "        final TextBuffer sb = new TextBuffer();\n"
    '        assertEquals("", sb.reverse().toString());\n    }\n}\n'
)


async def test_a_test_of_a_qualified_member_past_the_stored_text_is_the_hits(
    tmp_path: Path,
) -> None:
    root = rig_settings(tmp_path).workspace_root
    assert root is not None
    head = "package org.example;\n\nclass TextBufferTest {\n\n"
    text = head + "".join(FILLER.format(n=n) for n in range(700)) + LATE
    assert text.index("testReverse") > MAX_BODY_CHARS
    (root / "repo" / PKG).mkdir(parents=True)
    (root / "repo" / TESTS).mkdir(parents=True)
    (root / "repo" / PKG / "TextBuffer.java").write_text(SOURCE)
    (root / "repo" / TESTS / "TextBufferTest.java").write_text(text)
    start = text[: text.index("void testReverse")].count("\n") + 1
    async with memory_rig(tmp_path, index=True) as (_, s):
        query = "tests for TextBuffer.reverse"
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        hit = next(h for h in found["hits"] if h["entry"]["path"].endswith("TextBufferTest.java"))
        assert hit["startLine"] <= start <= hit["endLine"], hit
        # the text is not stored: the test's head, from the symbols
        assert "testReverse" in hit["snippet"], hit
