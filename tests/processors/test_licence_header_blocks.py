"""A licence header written as one block comment whose inner lines carry no `*`
(processors/licence_header.py): the Apache style of every commons-* Java file."""

from __future__ import annotations

from processors.licence_header import after_licence

# apache/commons-cli src/main/java/org/apache/commons/cli/help/package-info.java, lines 1-18
APACHE = [
    "/*",
    "  Licensed to the Apache Software Foundation (ASF) under one or more",
    "  contributor license agreements.  See the NOTICE file distributed with",
    "  this work for additional information regarding copyright ownership.",
    "  The ASF licenses this file to You under the Apache License, Version 2.0",
    '  (the "License"); you may not use this file except in compliance with',
    "  the License.  You may obtain a copy of the License at",
    "",
    "      https://www.apache.org/licenses/LICENSE-2.0",
    "",
    "  Unless required by applicable law or agreed to in writing, software",
    '  distributed under the License is distributed on an "AS IS" BASIS,',
    "  WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.",
    "  See the License for the specific language governing permissions and",
    "  limitations under the License.",
    " */",
    "",
    "/**",
    " * The help production system.",
    " */",
    "package org.apache.commons.cli.help;",
]


def test_a_block_comment_whose_lines_carry_no_star_is_one_header() -> None:
    """QA on apache/commons-cli: every Java file opens with this header, and after_licence
    read it as the lone `/*` line (its next line is no comment by its prefix), so spans and
    hit lines kept it: package-info.java's hit pointed at line 6, `(the "License"); you may
    not use this file`."""
    assert after_licence(APACHE) == 18


def test_the_same_in_an_html_comment() -> None:
    lines = ["<!--", "  Licensed to the Apache Software Foundation (ASF)", "-->", "<html>"]
    assert after_licence(lines) == 4


def test_a_block_comment_naming_no_licence_is_the_files_own() -> None:
    lines = ["/*", "  The help production system,", "  written for users.", " */", "package x;"]
    assert after_licence(lines) == 1


def test_an_unclosed_block_is_no_header() -> None:
    assert after_licence(["/*", "  Licensed under the Apache License", "class X {}"]) == 1
