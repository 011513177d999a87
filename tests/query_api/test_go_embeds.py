"""A Go package's `//go:embed` directive: the files it embeds have the embedding file as
their dependent (query_api/symbols/go_embeds.py), over real views fed by the processors."""

from __future__ import annotations

from pathlib import Path

import pytest

from processors.symbols.languages.go import read_embeds
from query_api.symbols.go_embeds import embeds
from tests.query_api.test_symbol_dependents import Repo, repo_holding

SERVER = """package web

import "embed"

//go:embed templates/*.html "static files" all:assets
var content embed.FS

//go:embed version.txt
var version string

func Version() string { return version }
"""


def test_a_directive_names_repository_paths_and_refuses_what_go_refuses() -> None:
    assert read_embeds('//go:embed a/*.html "b c.txt" `d` all:e', "web") == [
        "go:embed web/a/*.html",
        "go:embed web/b c.txt",
        "go:embed web/d",
        "go:embed all:web/e",
    ]
    assert read_embeds("//go:embed ../x /etc/passwd ./y a//b", "web") == []
    assert read_embeds("//go:embed x.txt", "") == ["go:embed x.txt"]


@pytest.mark.parametrize(
    ("pattern", "path", "embedded"),
    [
        ("web/templates/*.html", "web/templates/index.html", True),
        ("web/templates/*.html", "web/templates/sub/index.html", False),  # * stops at /
        ("web/templates/*.html", "web/templates/index.txt", False),
        ("web/static files", "web/static files/app.js", True),  # a folder: what it holds
        ("web/static files", "web/static files/.hidden", False),
        ("web/static files", "web/static files/_draft/a.js", False),
        ("all:web/assets", "web/assets/_draft/a.js", True),
        ("web/v[0-9].txt", "web/v1.txt", True),
        ("web/v[^0-9].txt", "web/v1.txt", False),
        ("web/[z-a].txt", "web/a.txt", False),  # a class Go refuses embeds nothing
    ],
)  # fmt: skip
def test_a_pattern_embeds_files_by_gos_rules(pattern: str, path: str, embedded: bool) -> None:
    assert embeds(pattern, path) is embedded


def test_an_embedded_template_has_the_embedding_file_as_its_dependent(tmp_path: Path) -> None:
    files = {
        "web/server.go": SERVER,
        "web/templates/index.html": "<html>{{ .Title }}</html>\n",
        "web/version.txt": "1.2.3\n",
        "web/assets/_draft/app.js": "export const a = 1;\n",
        "other/page.html": "<html></html>\n",
    }
    with repo_holding(tmp_path, files) as repo:
        _assert_embedded(repo)


def _assert_embedded(repo: Repo) -> None:
    assert repo.dependents("web/templates/index.html") == [("web/server.go", "<file>")]
    assert repo.dependents("web/version.txt") == [("web/server.go", "<file>")]
    assert repo.dependents("web/assets/_draft/app.js") == [("web/server.go", "<file>")]
    assert repo.dependents("other/page.html") == []
    assert "go:embed web/templates/*.html" in repo.resolver.imports("r", "web/server.go")
