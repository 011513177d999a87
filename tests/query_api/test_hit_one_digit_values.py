"""A one-digit number in a query is a value pasted with it (`Tests run: 12, Failures: 1`,
`expected: <3> but was: <5>`), no word to point a hit's lines by while another is left
(query_api/retrieval/hit_details.locating_terms)."""

from __future__ import annotations

from query_api.retrieval.hit_details import locate_in_file, locating_terms, query_terms

BODY = "\n".join(
    [
        "/**",
        " * Strategy for deleting files.",
        " * @since 1.3",
        " */",
        "public class FileDeleteStrategy {",
        "    public void run() {",
        "    }",
        "}",
    ]
)
SUREFIRE = (
    "[ERROR] Tests run: 12, Failures: 1, Errors: 0, Skipped: 0 <<< FAILURE!\n"
    "org.opentest4j.AssertionFailedError: expected: <3> but was: <5>"
)


def test_a_pasted_failure_s_counts_point_at_no_since_line() -> None:
    """QA on apache/commons-io: a pasted Surefire failure pointed FileDeleteStrategy.java at
    ` * @since 1.3`, which holds its `1` and `3`."""
    found = locate_in_file(BODY, [], locating_terms(query_terms(SUREFIRE)))
    assert found is not None and found.start_line == 6, found


def test_a_number_alone_still_locates() -> None:
    terms = locating_terms(query_terms("3"))
    found = locate_in_file(BODY, [], terms)
    assert found is not None and found.start_line == 3, found


def test_a_longer_number_is_still_a_word() -> None:
    assert "404" in locating_terms(query_terms("HTTP 404 on retry")).words
