"""A dependencies question naming one of a project's packages (`which dependencies does guice
core have`, `what dependencies does the servlet extension have`) is answered by the manifest in
the folder named so, before the root's parent manifest. QA on google/guice: both ranked the
root pom.xml first and left core/pom.xml and extensions/servlet/pom.xml out of the first ten."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.manifest_files import package_manifests
from schemas import tools as t
from tests.ingested import indexed_app

POM = "<project>\n  <artifactId>{name}</artifactId>\n  <dependencies>\n  </dependencies>\n"
SOURCE = (
    "package app;\n\n// Part{n}: the core servlet of app, with its dependencies.\n"
    "class Part{n} {{}}\n"
)
FILES = {
    "pom.xml": POM.format(name="app-parent"),
    "core/pom.xml": POM.format(name="app-core"),
    "extensions/servlet/pom.xml": POM.format(name="app-servlet"),
    **{f"core/src/app/Part{n}.java": SOURCE.format(n=n) for n in range(40)},
}


def test_a_manifest_in_a_folder_a_word_names_is_the_package_s() -> None:
    paths = ["pom.xml", "core/pom.xml", "extensions/servlet/pom.xml", "core/src/Core.java"]
    assert package_manifests(paths, ["core"]) == ["core/pom.xml"]
    assert package_manifests(paths, ["servlet", "extension"]) == ["extensions/servlet/pom.xml"]
    assert package_manifests(paths, ["app"]) == []


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("query", "manifest"),
    [
        ("which dependencies does app core have", "core/pom.xml"),
        ("what dependencies does the servlet extension have", "extensions/servlet/pom.xml"),
        ("what dependencies does app have", "pom.xml"),
    ],
)
async def test_the_package_manifest_answers_it(tmp_path: Path, query: str, manifest: str) -> None:
    async with indexed_app(tmp_path, FILES, "app") as app:
        found = await app.service.search(t.SearchArgs(repoId="app", query=query))
    assert found.hits[0].entry.path == manifest, [h.entry.path for h in found.hits]
