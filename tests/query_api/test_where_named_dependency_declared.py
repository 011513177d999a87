"""`where is the askama dependency declared` asks for the manifest's entry of that dependency,
as `where are the dependencies declared` asks for its list. QA on ajeetdsouza/zoxide: it
matched no config form, and src/shell.rs, using askama, ranked above Cargo.toml's
`askama = ...` line."""

from __future__ import annotations

from pathlib import Path

import pytest

from processors.path_roles import Role, config_subject, manifest_list, roles_about
from schemas import tools as t
from tests.ingested import indexed_app
from tests.query_api.located import located_hits

pytestmark = pytest.mark.anyio

QUERIES = [
    "where is the askama dependency declared",
    "where is the rinja/askama dependency declared?",
    "where is the askama dep",
    "where are the tokio dependencies",
]
FILES = {
    "Cargo.toml": (
        '[package]\nname = "jump"\nversion = "0.1.0"\n\n[dependencies]\n'
        'anyhow = "1.0"\naskama = { version = "0.14", default-features = false }\n'
        'tokio = "1"\n'
    ),
    "src/shell.rs": (
        "use askama::Template;\n\n/// Renders the shell scripts with askama.\n"
        '#[derive(askama::Template)]\n#[template(path = "bash.txt")]\n'
        "pub struct Bash;\n\npub fn render() -> String {\n"
        "    // askama renders the template\n    Bash.render().unwrap()\n}\n"
    ),
    "src/main.rs": 'mod shell;\n\nfn main() {\n    println!("{}", shell::render());\n}\n',
}


@pytest.mark.parametrize("query", QUERIES)
def test_a_named_dependency_is_a_manifest_question(query: str) -> None:
    assert Role.CONFIG in roles_about(query), query
    assert manifest_list(query) == "dependencies", query
    assert not {"dependency", "dep", "dependencies", "declared"} & set(
        config_subject(query).split()
    )


@pytest.mark.parametrize(
    "query",
    [
        "where is the dependencies keyword implemented",
        "where is the dependency injection container defined",
        "what depends on Stream",
    ],
)
def test_code_about_dependencies_is_no_manifest_question(query: str) -> None:
    assert Role.CONFIG not in roles_about(query), query


async def test_the_manifest_answers(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        answer = await app.service.search(
            t.SearchArgs(repoId="repo", query="where is the askama dependency declared")
        )
        paths = [h.entry.path for h in answer.hits]
        assert paths and paths[0] == "Cargo.toml", paths
        hit = answer.hits[0]
        assert hit.startLine is not None and hit.endLine is not None, hit
        assert hit.startLine <= 7 <= hit.endLine, hit  # the [dependencies] table holding it


CARGO = "\n".join(
    [
        "[package]",  # 1
        'name = "cargo-snap"',  # 2
        "",
        "[dependencies]",  # 4
        'snap = { version = "=1.48.0", path = "../snap", features = [',  # 5
        '    "console",',  # 6: a feature, no dependency
        "] }",  # 7
        'console = "0.15"',  # 8
        "serde.workspace = true",  # 9
        "",
        "[dependencies.git2]",  # 11
        'version = "0.20"',  # 12
        "default-features = false",  # 13
        "",
    ]
)
PYPROJECT = "\n".join(
    [
        "[project]",  # 1
        'name = "tool"',  # 2
        "dependencies = [",  # 3
        '    "click>=8",',  # 4
        "    \"requests>=2.31; python_version >= '3.10'\",",  # 5
        "]",  # 6
        "",
    ]
)


@pytest.mark.parametrize(
    ("query", "lines"),
    [
        ("where is the console dependency declared", (8, 8)),
        ("where is the snap dependency declared", (5, 7)),
        ("where is the serde dependency declared?", (9, 9)),
        ("where is the git2 dependency declared", (11, 13)),
        ("where are the snap dependencies declared", (4, 9)),  # snap's: the table
    ],
)
def test_the_manifest_points_at_the_named_entry(
    tmp_path: Path, query: str, lines: tuple[int, int]
) -> None:
    """QA on mitsuhiko/insta: `where is the serde dependency declared` pointed both
    Cargo.toml at their whole `[dependencies]` table (manifest_keys.dependency_entry)."""
    [hit] = located_hits(tmp_path, {"Cargo.toml": CARGO}, query)
    assert (hit.startLine, hit.endLine) == lines, hit


def test_a_requirement_list_points_at_the_named_one(tmp_path: Path) -> None:
    query = "where is the requests dependency declared"
    [hit] = located_hits(tmp_path, {"pyproject.toml": PYPROJECT}, query)
    assert (hit.startLine, hit.endLine) == (5, 5), hit
