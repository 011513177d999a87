"""`where is the root pom`: a question qualifying the file it asks for as the root's (`root`,
`top-level`, `parent`) asks for the one nearest the root, not for a folder so named. QA on
OpenFeign/feign (a pom.xml in each of its 50 modules) named no file, no folder being called
`root`, and ranked three source files first, the root pom.xml not in the first sixteen."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from streams.stores.views.named_files import asked_file
from tests.streams.symbol_records import views_holding

FILES = {
    "pom.xml": "<project><modules><module>core</module></modules></project>\n",
    "core/pom.xml": "<project><parent>app</parent></project>\n",
    "gson/pom.xml": "<project><parent>app</parent></project>\n",
    "example-github/pom.xml": "<project><parent>app</parent></project>\n",  # an example's
    "core/src/main/java/app/Root.java": "package app;\n\nfinal class Root {}\n",
    "web/src/reducer.js": "export const reducer = (s) => s;\n",
    "web/src/rootReducer.js": "export const rootReducer = (s) => s;\n",
}


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("where is the root pom", ["pom.xml"]),
        ("where is the top-level pom.xml", ["pom.xml"]),
        ("where is the parent pom?", ["pom.xml"]),
        ("where is the gson pom", ["gson/pom.xml"]),  # a folder's, as before
        ("where is the pom", ["pom.xml"]),  # the root's, as before
    ],
)
def test_the_root_file_is_the_one_asked_for(tmp_path: Path, query: str, named: list[str]) -> None:
    with views_holding(tmp_path, FILES) as store:
        assert store.read(partial(asked_file, repo_id="r", query=query)) == named


def test_a_source_file_is_not_the_roots(tmp_path: Path) -> None:
    """`the root reducer` is rootReducer.js, a name written as words, never the shallowest
    reducer.js: the root's file is a build file's question."""
    with views_holding(tmp_path, FILES) as store:
        query = "where is the root reducer"
        named = store.read(partial(asked_file, repo_id="r", query=query))
        assert "web/src/reducer.js" not in named
