"""A Go test file whose hit is only its package clause points at its first test, for a query
about tests. QA on hashicorp/hcl: `tests for dynblock` pointed ext/dynblock/expand_body_test.go
and variables_test.go at `package dynblock` (line 4), the one line holding the query's word."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

TEST = """// Copyright IBM Corp.

package dynblock

import (
\t"testing"
)

func helper() int { return 1 }

func TestExpand(t *testing.T) {
\tif helper() != 1 {
\t\tt.Fatal("no")
\t}
}
"""
SOURCE = "package dynblock\n\n// Expand expands dynamic blocks.\nfunc Expand() {}\n"
FILES = {"ext/dynblock/expand_body_test.go": TEST, "ext/dynblock/expand_body.go": SOURCE}


async def test_a_test_file_at_its_package_clause_points_at_its_first_test(
    tmp_path: Path,
) -> None:
    async with indexed_app(tmp_path, FILES, "hcl") as app:
        found = await app.service.search(t.SearchArgs(repoId="hcl", query="tests for dynblock"))
        other = await app.service.search(t.SearchArgs(repoId="hcl", query="dynblock package"))
    test = next(h for h in found.hits if h.entry.path == "ext/dynblock/expand_body_test.go")
    assert test.startLine == 11, test
    assert (test.snippet or "").startswith("11: func TestExpand(t *testing.T) {"), test
    # a query not about tests keeps the lines its words found
    kept = next(h for h in other.hits if h.entry.path == "ext/dynblock/expand_body_test.go")
    assert kept.startLine == 3, kept
