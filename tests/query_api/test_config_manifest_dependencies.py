"""A question about a project's dependencies (`what dependencies does hcl have`, `what
version of go-cty does hcl use`) is answered by the manifest nearest the root, though it
holds none of the question's other words and is ranked below every file holding the
project's name. QA on hashicorp/hcl: both questions left go.mod out of the first ten."""

from __future__ import annotations

from pathlib import Path

import pytest

from processors.path_roles import Role, roles_about
from schemas import tools as t
from tests.ingested import indexed_app

GO_MOD = """module github.com/hashicorp/hcl/v2

go 1.24.0

require (
\tgithub.com/agext/levenshtein v1.2.1
\tgithub.com/zclconf/go-cty v1.16.3
)
"""
SOURCE = """package hcl

import "github.com/zclconf/go-cty/cty"

// Value{n} is an hcl value: hcl evaluates it with cty, hcl's type system.
func Value{n}() cty.Value {{ return cty.NilVal }}
"""
FILES = {
    "go.mod": GO_MOD,
    "sub/go.mod": "module example.com/sub\n\nrequire github.com/hashicorp/hcl/v2 v2.0.0\n",
    **{f"pkg{n}/value{n}.go": SOURCE.format(n=n) for n in range(60)},
}


def test_a_dependency_version_question_is_about_config() -> None:
    assert Role.CONFIG in roles_about("what version of go-cty does hcl use")
    assert Role.CONFIG in roles_about("which version of levenshtein is used")
    assert Role.CONFIG not in roles_about("what version of the parser is this")


@pytest.mark.anyio
@pytest.mark.parametrize(
    "query", ["what dependencies does hcl have", "what version of go-cty does hcl use"]
)
async def test_the_root_manifest_answers_it(tmp_path: Path, query: str) -> None:
    async with indexed_app(tmp_path, FILES, "hcl") as app:
        found = await app.service.search(t.SearchArgs(repoId="hcl", query=query))
    assert found.hits[0].entry.path == "go.mod", found.hits
