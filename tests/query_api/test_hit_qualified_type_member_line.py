"""A line naming a qualified name's last part whole (`IOException` for `java.io.IOException`)
counts for it (query_api/retrieval/hit_details.line_score): a file imports the name once and
writes it short everywhere else, so by the whole name alone its import line won."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.hit_details import line_score, query_terms
from tests.query_api.located import located_hits

PATH = "src/main/java/org/apache/commons/io/input/UnsynchronizedBufferedInputStream.java"
# apache/commons-io's UnsynchronizedBufferedInputStream.java, shortened
BODY = "\n".join(
    [
        "package org.apache.commons.io.input;",
        "",
        "import java.io.IOException;",
        "import java.io.InputStream;",
        "",
        "public final class UnsynchronizedBufferedInputStream extends FilterInputStream {",
        "",
        "    private byte[] buffer;",
        "",
        "    public int available() throws IOException {",
        "        final InputStream localIn = inputStream;",
        "        if (buffer == null || localIn == null) {",
        '            throw new IOException("Stream is closed");',
        "        }",
        "        return count - pos + localIn.available();",
        "    }",
        "}",
    ]
)


def test_a_pasted_exception_points_at_its_throw_not_at_its_import(tmp_path: Path) -> None:
    """QA on apache/commons-io: `java.io.IOException: Stream is closed` pointed
    UnsynchronizedBufferedInputStream.java at line 21, `import java.io.IOException;`, not at
    its `throw new IOException("Stream is closed");` lines (`stream`, in the path, is no word
    to locate by there)."""
    (hit,) = located_hits(tmp_path, {PATH: BODY}, "java.io.IOException: Stream is closed")
    assert hit.startLine is not None and hit.startLine >= 10, hit
    assert "13: throw new IOException" in (hit.snippet or ""), hit


def test_the_last_part_counts_whole_only() -> None:
    terms = query_terms("java.io.IOException: Stream is closed")
    assert line_score("throw new IOException(message);", terms) == 1
    assert line_score("throw new UncheckedIOExceptions(message);", terms) == 0
    assert line_score("import java.io.IOException;", terms) == 2
