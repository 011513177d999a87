"""A hit whose file never holds a qualified name `A.b` whole points at the lines holding its
member `b` before those holding the words of its qualifier
(query_api/retrieval/hit_details._detailed, part_terms.by_members)."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.hit_details import query_terms
from query_api.retrieval.part_terms import by_members
from tests.query_api.located import located_hits

# apache/commons-io src/test/java/org/apache/commons/io/output/ByteArrayOutputStreamTest.java,
# shortened: the test calling writeRepeat, then a helper whose signature spells the class
TEST = "\n".join(
    [
        "package org.apache.commons.io.output;",
        "",
        "class ByteArrayOutputStreamTest {",
        "",
        "    @Test",
        "    void testWriteRepeat() throws IOException {",
        "        try (UnsynchronizedByteArrayOutputStream baout = new Unsynchronized()) {",
        "            baout.writeRepeat('A', 0);",
        "            assertEquals(0, baout.size());",
        "        }",
        "    }",
        "",
        "    private int writeByte(final AbstractByteArrayOutputStream<?> baout, final int n) {",
        "        baout.write(100);",
        "        return 1;",
        "    }",
        "}",
    ]
)
PATH = "src/test/java/org/apache/commons/io/output/ByteArrayOutputStreamTest.java"


def test_a_qualified_name_never_whole_points_at_its_member(tmp_path: Path) -> None:
    """QA on apache/commons-io: `tests for AbstractByteArrayOutputStream.writeRepeat` pointed
    ByteArrayOutputStreamTest.java at the `writeByte` helper (line 537), whose signature holds
    the words of `AbstractByteArrayOutputStream` and `write`, not at testWriteRepeat's
    `baout.writeRepeat('A', 0);` (line 440)."""
    query = "where is AbstractByteArrayOutputStream.writeRepeat tested"
    (hit,) = located_hits(tmp_path, {PATH: TEST}, query)
    assert hit.startLine is not None and hit.startLine <= 8 <= (hit.endLine or 0), hit
    assert "8: baout.writeRepeat" in (hit.snippet or ""), hit
    assert "writeByte" not in (hit.snippet or ""), hit


def test_members_are_the_last_parts_as_the_query_spells_them() -> None:
    members = by_members(query_terms("tests for AbstractByteArrayOutputStream.writeRepeat"))
    assert members is not None and members.identifiers == ("writerepeat",), members
    assert members.split_identifiers == (frozenset({"write", "repeat"}),), members
    assert by_members(query_terms("tests for writeRepeat")) is None
