"""`where is the JSON syntax spec`: a question for one file by its name, after words naming
its folder, puts the file called so in the folder they name first, brought in when the
ranking lacks it. QA on hashicorp/hcl left json/spec.md (a doc: pushed down, never embedded)
out of the first ten, below code holding `json` and `spec`; the form read one word alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

CODE = """package json

// parse{n} reads JSON syntax as the spec says: a JSON spec body, per the syntax spec.
// The JSON syntax spec, the native syntax spec: JSON and syntax and spec again.
func parse{n}(src []byte) Spec {{ return Spec{{}} }}
"""
FILES = {
    "json/spec.md": "# HCL JSON Syntax Specification\n\nThis is the JSON syntax.\n",
    "hclsyntax/spec.md": "# HCL Native Syntax Specification\n\nThe native syntax.\n",
    "spec.md": "# HCL Syntax-Agnostic Information Model\n",
    "hcldec/spec.go": "package hcldec\n\n// Spec is a decoding spec.\ntype Spec interface{}\n",
    **{f"json/parse{n}.go": CODE.format(n=n) for n in range(80)},
}


@pytest.mark.parametrize(
    ("query", "path"),
    [
        ("where is the JSON syntax spec", "json/spec.md"),
        ("where is the native syntax spec", "hclsyntax/spec.md"),
        ("where is the hcldec spec", "hcldec/spec.go"),
    ],
)
async def test_the_file_named_so_in_the_folder_the_words_name(
    tmp_path: Path, query: str, path: str
) -> None:
    async with indexed_app(tmp_path, FILES, "hcl") as app:
        found = await app.service.search(t.SearchArgs(repoId="hcl", query=query))
    assert found.hits[0].entry.path == path, found.hits
    assert "path-name-match" in found.hits[0].reasons, found.hits[0]


async def test_words_naming_no_folder_name_no_file(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "hcl") as app:
        found = await app.service.search(
            t.SearchArgs(repoId="hcl", query="where is the yaml output spec")
        )
    assert found.hits[0].entry.path not in {"json/spec.md", "hclsyntax/spec.md", "spec.md"}
