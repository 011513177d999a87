"""A pasted JVM stack trace names places: each `at pkg.Class.method(File.java:N)` frame is
the file of that package at line N. The files its frames name rank first, innermost first
(the last `Caused by:` first), and each hit points at its frame's line. QA on
apache/commons-text: a StringIndexOutOfBoundsException through
`CsvTranslators$CsvUnescaper.translateWhole(CsvTranslators.java:80)` pointed the hit at the
lines holding the trace's words, not line 80, and the frames' order was the words'."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.named_lines import jvm_frames
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

PKG = "src/main/java/org/example/text"
_PAD = "".join(f"    // unescaping text, line {n}\n" for n in range(19)) + (
    "    // java.lang.String checkIndex, charAt: a string index out of bounds, length\n"
)
FILES = {
    f"{PKG}/Escapers.java": (
        "package org.example.text;\n\n"
        "/** Escapers and unescapers of text: a string index out of bounds is an error. */\n"
        "public final class Escapers {\n" + _PAD + "    static final class Unescaper {\n"
        "        String translateWhole(final String input) {\n"
        "            return input.substring(1, input.trim().hashCode());\n"
        "        }\n    }\n}\n"
    ),
    f"{PKG}/Translator.java": (
        "package org.example.text;\n\n"
        "public class Translator {\n"
        "    String translate(final String input) {\n"
        "        return new Escapers.Unescaper().translateWhole(input);\n    }\n}\n"
    ),
    # holds the trace's words, named by no frame
    f"{PKG}/StringIndexOutOfBoundsHelp.java": (
        "package org.example.text;\n\n"
        "/** java lang string index out of bounds exception: index length check index. */\n"
        "public class StringIndexOutOfBoundsHelp {\n"
        "    String checkIndex(final String index, final String length) {\n"
        "        return index + length;\n    }\n}\n"
    ),
}
UNESCAPE_LINE = 27  # `return input.substring(...)`, none of the trace's words

TRACE = f"""java.lang.StringIndexOutOfBoundsException: index -1, length 1
\tat java.base/java.lang.String.checkIndex(String.java:4563)
\tat java.base/java.lang.String.charAt(String.java:1515)
\tat org.example.text.Escapers$Unescaper.translateWhole(Escapers.java:{UNESCAPE_LINE})
\tat org.example.text.Translator.translate(Translator.java:5)
\tat com.example.App.main(App.java:12)"""


async def test_the_frames_files_come_first_at_their_lines(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    body = FILES[f"{PKG}/Escapers.java"].split("\n")
    assert "input.substring" in body[UNESCAPE_LINE - 1]
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": TRACE})
        hits = found["hits"]
        paths = [h["entry"]["path"] for h in hits]
        assert paths[:2] == [f"{PKG}/Escapers.java", f"{PKG}/Translator.java"], hits
        first = hits[0]
        assert first["startLine"] == UNESCAPE_LINE, first  # the frame's line, not the class
        assert first["snippet"].startswith(f"{UNESCAPE_LINE}: "), first


def test_a_caused_by_section_comes_first_and_the_platform_is_left_out() -> None:
    trace = (
        "java.lang.RuntimeException: wrapped\n"
        "\tat app//com.acme.Outer$Inner.<init>(Outer.java:3)\n"
        "\tat Main.main(Main.java:9)\n"
        "Caused by: java.lang.IllegalStateException: root\n"
        "\tat java.base/java.util.Objects.requireNonNull(Objects.java:233)\n"
        "\tat com.acme.Worker.lambda$run$0(Worker.kt:7)\n"
        "\t... 3 more\n"
    )
    assert jvm_frames(trace) == [
        ("com/acme/Worker.kt", 7),
        ("com/acme/Outer.java", 3),
        ("Main.java", 9),
    ]


STALE = f"""java.lang.IllegalStateException: no mapping
\tat org.example.text.Escapers$Unescaper.translateWhole(Escapers.java:{UNESCAPE_LINE - 20})
\tat com.example.App.main(App.java:12)"""


async def test_a_frames_line_outside_its_method_points_at_the_method(tmp_path: Path) -> None:
    """QA on apache/commons-csv: a trace from a released jar named
    `CSVParser$CSVRecordIterator.getNextRecord(CSVParser.java:290)`, and the hit pointed at
    line 290 of the checkout, the `@Override` of remove(); getNextRecord is at 251. The
    frame's method says where its line has moved, as a Python frame's quoted code does."""
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": STALE})
        first = found["hits"][0]
        assert first["entry"]["path"] == f"{PKG}/Escapers.java", first
        assert first["startLine"] == UNESCAPE_LINE - 1, first  # translateWhole's head
        assert "translateWhole" in first["snippet"], first
        assert "another version" in found.get("note", ""), found
