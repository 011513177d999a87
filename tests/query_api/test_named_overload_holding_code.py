"""A qualified name with several overloads alike (`WordUtils.wrap`, no parameter types
written) points the hit at the overload whose lines hold the request's words, else at the
longest: the one holding the code, which Java's convenience overloads delegate to. QA on
apache/commons-text: `Keep WordUtils.wrap from splitting a surrogate pair` pointed at the
first `wrap`, `return wrap(str, wrapLength, null, false);`."""

from __future__ import annotations

from pathlib import Path

from tests.query_api.located import located_hits

PATH = "src/main/java/org/example/WordUtils.java"
BODY = "\n".join(
    [
        "package org.example;",  # 1
        "",  # 2
        "public class WordUtils {",  # 3
        "    public static String wrap(final String str, final int wrapLength) {",  # 4
        "        return wrap(str, wrapLength, null, false);",  # 5
        "    }",  # 6
        "",  # 7
        "    public static String wrap(final String str, final int wrapLength,",  # 8
        "            final String newLineStr, final boolean wrapLongWords) {",  # 9
        "        final StringBuilder out = new StringBuilder();",  # 10
        "        int offset = 0;",  # 11
        "        while (offset < str.length()) {",  # 12
        "            int at = Math.min(offset + wrapLength, str.length());",  # 13
        "            if (at < str.length() && Character.isLowSurrogate(str.charAt(at))) {",  # 14
        "                at++; // keep a surrogate pair whole",  # 15
        "            }",  # 16
        "            out.append(str, offset, at).append(newLineStr);",  # 17
        "            offset = at;",  # 18
        "        }",  # 19
        "        return out.toString();",  # 20
        "    }",  # 21
        "",  # 22
        "    public static String capitalize(final String str) {",  # 23
        "        return str;",  # 24
        "    }",  # 25
        "}",  # 26
        "",
    ]
)


def test_the_overload_holding_the_requests_words_is_the_hits(tmp_path: Path) -> None:
    query = "Keep WordUtils.wrap from splitting a surrogate pair"
    [hit] = located_hits(tmp_path, {PATH: BODY}, query)
    assert hit.startLine is not None and 8 <= hit.startLine <= 15 <= (hit.endLine or 0), hit
    assert "15: " in (hit.snippet or ""), hit


def test_else_the_longest_overload_is_the_hits(tmp_path: Path) -> None:
    [hit] = located_hits(tmp_path, {PATH: BODY}, "WordUtils.wrap should trim")
    assert hit.startLine is not None and 8 <= hit.startLine <= 21, hit
