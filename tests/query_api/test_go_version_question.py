"""A question about the Go version a module builds with (`what Go version does the module
require`, `which go version is required`) is about its go.mod's `go` directive. QA on
spf13/afero: it matched no config form, ranked path.go (a comment's `require`) first and
go.mod third, pointed at its `module` and `require` lines, not at `go 1.24.0`."""

from __future__ import annotations

from pathlib import Path

import pytest

from processors.path_roles import Role, manifest_list, roles_about
from query_api.retrieval.go_directives import directive_naming
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    "query",
    [
        "what Go version does the module require",
        "which go version is required",
        "what is the minimum go version",
        "where is the go version set",
        "which version of golang is used",
    ],
)
def test_a_question_about_go_versions_is_about_the_go_directive(query: str) -> None:
    assert Role.CONFIG in roles_about(query), query
    assert manifest_list(query) == "go", query


@pytest.mark.parametrize(
    "query", ["Bump minimum go version to 1.16", "Fix failing tests on Windows with Go 1.20"]
)
def test_a_change_of_the_go_version_is_a_request(query: str) -> None:
    assert manifest_list(query) is None


def test_the_directive_with_its_toolchain() -> None:
    lines = ["module example.com/m", "", "go 1.22.0", "", "toolchain go1.22.4", "", "require x v1"]
    assert directive_naming("go.mod", lines, {"go"}) == (3, 5)
    assert directive_naming("go.mod", lines, {"dependencies"}) is None
    assert directive_naming("go.sum", lines, {"go"}) is None
    assert directive_naming("go.mod", ["module example.com/m"], {"go"}) is None


REQUIRING = (
    "package vfs\n\n// Walk does not require a version of the file info: it reads names\n"
    "// instead, which can be more efficient since it does not require a stat.\n"
    "func Walk(root string) error {\n\treturn nil\n}\n"
)
FILES = {
    "go.mod": ("module github.com/example/vfs\n\ngo 1.24.0\n\nrequire golang.org/x/text v0.34.0\n"),
    "path.go": REQUIRING,
    "walk.go": REQUIRING.replace("Walk(", "WalkDir("),
    "util.go": REQUIRING.replace("Walk(", "Exists("),
}


async def test_go_mod_answers_at_its_go_directive(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "vfs") as app:
        query = "what Go version does the module require"
        found = await app.service.search(t.SearchArgs(repoId="vfs", query=query))
        assert found.hits[0].entry.path == "go.mod", [h.entry.path for h in found.hits]
        hit = found.hits[0]
        # at `go 1.24.0`, not at the `module` and `require` lines holding the question's words
        assert (hit.startLine, hit.endLine) == (3, 3), hit
