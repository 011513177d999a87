"""A question about a manifest's lists (`which crates does indicatif depend on`, `which
features does indicatif have`, `where are the feature flags defined`) is answered by the
manifest, at the list's section. QA on console-rs/indicatif: neither question placed
Cargo.toml in the first ten, the dependency questions because their own words (`have`,
`crates`, `depend`) were taken for the subject every config file had to hold, the features
ones because they were no config question at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from processors.path_roles import Role, roles_about
from query_api.retrieval.docs_first import asked_pages_first
from query_api.retrieval.manifest_files import DEPENDENCIES
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    "query",
    [
        "which features does indicatif have",
        "which features does the crate have",
        "what features does this project support",
        "what cargo features are there",
        "what are the feature flags",
        "where are the feature flags defined",
        "Cargo features",
    ],
)
def test_a_question_about_features_is_about_config(query: str) -> None:
    assert roles_about(query) == {Role.CONFIG}, query


@pytest.mark.parametrize(
    "query",
    ["add a feature flag for rayon", "what features does the ProgressBar support"],
)
def test_a_change_or_a_types_features_is_not(query: str) -> None:
    assert Role.CONFIG not in roles_about(query), query


SOURCE = "".join(
    f"/// The gauge have feature flags of its own: it can depend on crates like gauge {i}.\n"
    f"pub fn gauge_{i}() -> u8 {{\n    {i}\n}}\n"
    for i in range(8)
)
FILES = {
    "Cargo.toml": (
        '[package]\nname = "gauge"\nversion = "1.0.0"\n\n'
        '[dependencies]\nitoa = "1.0"\nrayon = { version = "1", optional = true }\n\n'
        '[dev-dependencies]\nonce_cell = "1"\n\n'
        '[dependencies.git2]\nversion = "0.19"\noptional = true\n\n'
        '[features]\ndefault = ["wide"]\nwide = []\nin_memory = ["itoa"]\n'
    ),
    "deny.toml": '[licenses]\nallow = ["MIT"]\n',
    ".github/workflows/ci.yml": (
        "name: CI\non: [push]\njobs:\n  test:\n    strategy:\n      matrix:\n"
        "        features: [--all-features, --no-default-features, --features wide]\n"
        "    steps:\n      - run: cargo test ${{ matrix.features }}\n"
    ),
    "src/lib.rs": "mod gauge;\n",
    "src/gauge.rs": SOURCE,
}


@pytest.mark.parametrize(
    ("query", "header"),
    [
        ("which crates does gauge depend on", "[dependencies]"),
        ("what dependencies does gauge have", "[dependencies]"),
        ("which features does gauge have", "[features]"),
        ("which features does the crate have", "[features]"),
        # a package named with a digit is one word of two parts (QA on eza-community/eza
        # pointed Cargo.toml at `[dependencies]`, not at its `[dependencies.git2]`)
        ("which version of git2 does gauge use", "[dependencies.git2]"),
        ("where are the feature flags defined", "[features]"),
    ],
)
async def test_the_manifest_answers_at_the_lists_section(
    tmp_path: Path, query: str, header: str
) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        found = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        first = found.hits[0]
        assert first.entry.path == "Cargo.toml", [h.entry.path for h in found.hits]
        lines = FILES["Cargo.toml"].split("\n")
        assert first.startLine is not None
        assert lines[first.startLine - 1] == header, (first.startLine, first.snippet)


def _hit(path: str, score: float) -> t.SearchHit:
    entry = t.EntryView(key=f"repo/repo/file/{path}", exists=True, kind="File", path=path)
    return t.SearchHit(score=score, entry=entry, reasons=["content-match"])


@pytest.mark.parametrize(
    "query", ["which features does the crate have", "what is the minimum supported rust version"]
)
def test_a_question_for_any_list_brings_the_manifest_in(query: str) -> None:
    """Config is fused by score and never embedded: on eza-community/eza the fusion left
    Cargo.toml out of the first fifty for `which features does the crate have`, under files
    writing `use crate::`. The manifests come in as for a dependencies question."""

    def named(words: frozenset[str]) -> list[t.SearchHit]:  # manifest_files' contract
        return [_hit("Cargo.toml", 0.0)] if DEPENDENCIES in words else []

    hits = [_hit("src/output/details.rs", 0.9), _hit("deny.toml", 0.8)]
    answer = asked_pages_first(query, hits, lambda _path, _terms: False, named)
    assert [hit.entry.path for hit in answer][:1] == ["Cargo.toml"]
