"""A hit whose only lines matching the query lie in its licence header points at none of them
(query_api/retrieval/hit_details.locate_in_file): the header is the same text in every file,
and a query that is not about the licence is never answered there."""

from __future__ import annotations

from query_api.retrieval.hit_details import locate_in_file, query_terms

# apache/commons-io src/main/java/org/apache/commons/io/FileDeleteStrategy.java, shortened
FILE_DELETE_STRATEGY = "\n".join(
    [
        "/*",
        " * Licensed to the Apache Software Foundation (ASF) under one or more",
        " * contributor license agreements.  See the NOTICE file distributed with",
        " * this work for additional information regarding copyright ownership.",
        " *",
        " * Unless required by applicable law or agreed to in writing, software",
        ' * distributed under the License is distributed on an "AS IS" BASIS,',
        " * See the License for the specific language governing permissions and",
        " * limitations under the License.",
        " */",
        "package org.apache.commons.io;",
        "",
        "public class FileDeleteStrategy {",
        "    public void delete(final File fileToDelete) throws IOException {",
        "        doDelete(fileToDelete);",
        "    }",
        "}",
    ]
)


def test_no_licence_line_is_a_hit_for_a_query_not_about_the_licence() -> None:
    """QA on apache/commons-io: 'DeferredFileOutputStream NPE clean up and new file
    permission tests' pointed FileDeleteStrategy.java (found by its vectors) at line 14 of
    its Apache header, `governing permissions and`, its snippet that line alone."""
    found = locate_in_file(FILE_DELETE_STRATEGY, [], query_terms("permission checks"))
    assert found is None or found.start_line >= 11, found


def test_a_query_about_the_licence_still_points_at_the_header() -> None:
    found = locate_in_file(FILE_DELETE_STRATEGY, [], query_terms("copyright ownership notice"))
    assert found is not None and found.start_line <= 4 <= found.end_line, found
    assert "copyright ownership" in found.snippet, found
