"""`what does dynblock do`: a question asking what a package does is answered first by the
file documenting it (Go's `// Package dynblock ...`, else a doc file of the folder). QA on
hashicorp/hcl put ext/dynblock/public.go fourth, below three files of the package whose hit
was their `package dynblock` clause."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.package_docs import asked_package
from schemas import tools as t
from tests.ingested import indexed_app

OTHER = """package dynblock

// {name} walks dynblock blocks: each dynblock "dynamic" block of the dynblock body.
func {name}(body dynblockBody) []dynblockBody {{
\treturn walkDynblock(body, "dynblock")
}}
"""
PUBLIC = """// Copyright IBM Corp. 2014, 2025

// Package dynblock provides an extension to HCL that allows dynamic
// declaration of nested blocks in certain contexts.
package dynblock

func Expand(body Body) Body { return body }
"""
FILES = {
    "ext/dynblock/variables.go": OTHER.format(name="variables"),
    "ext/dynblock/unknown_body.go": OTHER.format(name="unknownBody"),
    "ext/dynblock/expand_body.go": OTHER.format(name="expandBody"),
    "ext/dynblock/public.go": PUBLIC,
    "ext/userfunc/README.md": "# userfunc\n\nHCL functions declared in HCL.\n",
    "ext/userfunc/decode.go": "package userfunc\n\n// decode reads userfunc blocks.\n",
    "ext/userfunc/public.go": "package userfunc\n\n// userfunc decodes userfunc functions.\n",
}


def test_the_forms_of_the_question() -> None:
    assert asked_package("what does dynblock do") == "dynblock"
    assert asked_package("what is the hclsimple package for?") == "hclsimple"
    assert asked_package("what is the gohcl package") == "gohcl"
    assert asked_package("what does Expand do with dynamic blocks") is None


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("query", "path"),
    [
        ("what does dynblock do", "ext/dynblock/public.go"),
        ("what is the userfunc package for", "ext/userfunc/README.md"),
    ],
)
async def test_the_file_documenting_the_package_goes_first(
    tmp_path: Path, query: str, path: str
) -> None:
    async with indexed_app(tmp_path, FILES, "hcl") as app:
        found = await app.service.search(t.SearchArgs(repoId="hcl", query=query))
    assert found.hits[0].entry.path == path, found.hits


JAVA_CLASS = (
    "package org.app.multimap;\n\n/** A {name} multimap: a multimap of the multimap package. */\n"
    "public class {name} {{\n    /** The multimap's size. */\n    int size() {{ return 0; }}\n}}\n"
)
JAVA = {
    "src/main/java/org/app/multimap/package-info.java": (
        "/*\n * Licensed under the Apache License.\n */\n\n"
        "/**\n * Defines the multimap interfaces and implementations.\n */\n"
        "package org.app.multimap;\n"
    ),
    **{
        f"src/main/java/org/app/multimap/{name}.java": JAVA_CLASS.format(name=name)
        for name in ("HashMultimap", "TreeMultimap", "LinkedMultimap", "ArrayMultimap")
    },
    "src/site/xdoc/release_1_1.xml": (
        "<document><body>\n<p>Added the multimap package: interfaces documented in the "
        "multimap package.</p>\n</body></document>\n"
    ),
}


def test_the_forms_asking_for_a_packages_docs() -> None:
    assert asked_package("where is the multimap package documented") == "multimap"
    assert asked_package("where are the multimap package docs") == "multimap"
    assert asked_package("Javadoc for the trie package") == "trie"
    assert asked_package("Update the package docs") is None


@pytest.mark.anyio
@pytest.mark.parametrize(
    "query",
    [
        "what is the multimap package for",
        "Javadoc for the multimap package",
    ],
)
async def test_a_java_package_is_documented_in_its_package_info(tmp_path: Path, query: str) -> None:
    """QA on apache/commons-collections: `what is the multimap package for` ranked six
    files' `package ...multimap;` clauses first, above multimap/package-info.java."""
    async with indexed_app(tmp_path, JAVA, "app") as app:
        found = await app.service.search(t.SearchArgs(repoId="app", query=query))
    path = "src/main/java/org/app/multimap/package-info.java"
    assert found.hits[0].entry.path == path, [hit.entry.path for hit in found.hits]
