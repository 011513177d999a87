"""A hit's lines, of those matching the query as well, are not its licence header's
(query_api/retrieval/hit_details.locate_in_file)."""

from __future__ import annotations

from query_api.retrieval.hit_details import locate_in_file, query_terms

# apache/commons-cli src/main/java/org/apache/commons/cli/help/package-info.java, shortened
PACKAGE_INFO = "\n".join(
    [
        "/*",
        "  Licensed to the Apache Software Foundation (ASF) under one or more",
        '  (the "License"); you may not use this file except in compliance with',
        "  limitations under the License.",
        " */",
        "",
        "/**",
        " * The help production system.",
        " * This package contains the classes to produce help output.",
        " */",
        "package org.apache.commons.cli.help;",
    ]
)


def test_a_line_below_the_licence_wins_over_a_licence_line_scoring_the_same() -> None:
    """QA on apache/commons-cli: 'Fix issue with groups not being reported in help output'
    pointed package-info.java's hit at line 6 of its licence (`you may not use this file`,
    matching `not`) over line 21, `produce help output`, which matches `output` as well."""
    terms = query_terms("groups not being reported in output")
    found = locate_in_file(PACKAGE_INFO, [], terms)
    assert found is not None and found.start_line == 9, found
    assert found.snippet.startswith("9: * This package contains"), found


def test_a_query_about_the_licence_still_finds_its_lines() -> None:
    found = locate_in_file(PACKAGE_INFO, [], query_terms("Apache Software Foundation licence"))
    assert found is not None and found.start_line == 2, found
