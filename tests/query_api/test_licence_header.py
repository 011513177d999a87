"""A file's licence header, which bundles and hit lines leave out (processors/licence_header.py)."""

from __future__ import annotations

from pytest import MonkeyPatch

from processors.licence_header import after_licence
from query_api.context.spans import select_spans
from query_api.retrieval import hit_details

GO_HEADER = [
    "// Copyright (c) 2016 Uber Technologies, Inc.",
    "//",
    "// Permission is hereby granted, free of charge, to any person obtaining a copy",
    "// THE SOFTWARE.",
    "",
]


def test_the_header_ends_after_the_opening_comment_that_names_a_licence() -> None:
    lines = [*GO_HEADER, "package zapcore", "", 'import "fmt"']
    assert after_licence(lines) == 6
    java = [
        "/* Jackson JSON-processor.",
        " *",
        " * Copyright (c) 2007- Tatu",
        " */",
        "",
        "package x;",
    ]
    assert after_licence(java) == 6
    assert after_licence(["#!/usr/bin/env python", "# Copyright 2020 A", "import os"]) == 3


def test_an_opening_comment_without_a_licence_is_the_files_own() -> None:
    assert after_licence(["// Package zapio provides io.Writers.", "package zapio"]) == 1
    assert after_licence(["package zapio", "// Copyright later on"]) == 1
    assert after_licence([]) == 1


def test_a_span_grown_toward_the_files_head_stops_below_its_licence() -> None:
    """QA on uber-go/zap: a span of buffered_write_syncer.go grown up from its first
    declaration opened with the 20-line MIT licence (lines 1-53 at 3,000 tokens)."""
    body = [f"\\tx{n} := flush(buffer, {n})" for n in range(30)]
    lines = [*GO_HEADER, "package zapcore", "", "func flushBuffer() {", *body, "}"]
    spans = select_spans([], len(lines), frozenset({"flush", "buffer"}), 40, 40, lines)
    assert spans and min(a for a, _, _ in spans) >= 6, spans


def test_a_passage_opening_with_the_licence_points_below_it(monkeypatch: MonkeyPatch) -> None:
    """QA on uber-go/zap: hits found by meaning pointed at licence lines (exp/zapslog/doc.go
    14-25): a file's first passage holds its header."""
    lines = [
        *GO_HEADER,
        "package zapslog",
        "",
        "// Handler writes records.",
        "type Handler struct{}",
    ]
    monkeypatch.setattr(hit_details, "passage_lines", lambda *_: (1, len(lines)))
    found = hit_details._passage_location("r", "doc.go", "\n".join(lines), "v")
    assert found is not None and found.start_line == 6, found
    assert found.snippet.startswith("6: package zapslog"), found


def test_a_passage_holding_only_the_licence_points_below_it(monkeypatch: MonkeyPatch) -> None:
    """QA on apache/commons-csv: `what does the benchmark-prereq.sh script do` pointed the
    script at lines 1-15, its shebang and licence: the best passage ends inside the header
    (a long one is cut in pieces), so its start was kept."""
    lines = [
        "#!/usr/bin/env bash",
        "##",
        "# Licensed to the Apache Software Foundation (ASF) under one",
        "# or more contributor license agreements.",
        "# Unless required by applicable law or agreed to in writing, software",
        "# limitations under the License.",
        "",
        "wget -P /tmp https://example.org/csv-1.0.jar",
        "mvn -V install:install-file -Dfile=/tmp/csv-1.0.jar",
    ]
    monkeypatch.setattr(hit_details, "passage_lines", lambda *_: (1, 5))
    found = hit_details._passage_location("r", "prereq.sh", "\n".join(lines), "v")
    assert found is not None and found.start_line == 8, found
    assert found.snippet.startswith("8: wget"), found
