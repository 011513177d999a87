"""A question about a project's dependencies (`what dependencies does serde_json have`,
`which crates does it depend on`) is about its manifest: config files first. QA on
serde-rs/json: Cargo.toml, holding `[dependencies]`, ranked 19th, below every source naming
`serde_json`; config files are pushed down unless a query is about them."""

from __future__ import annotations

from pathlib import Path

import pytest

from processors.path_roles import Role, roles_about
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    "query",
    [
        "what dependencies does serde_json have",
        "what are the dev-dependencies",
        "which crates does serde_json depend on",
        "which version of serde do we depend on",
        "what packages does the app depend on",
    ],
)
def test_a_question_about_dependencies_is_about_config(query: str) -> None:
    assert roles_about(query) == {Role.CONFIG}, query


@pytest.mark.parametrize(
    "query",
    ["update the dependencies", "Bump dependencies", "what does the Deserializer depend on"],
)
def test_a_change_or_a_codes_dependencies_is_not(query: str) -> None:
    assert Role.CONFIG not in roles_about(query), query


SOURCE = "".join(
    f"/// Converts with serde_json, one of the json helpers.\npub fn json_{i}() -> u8 {{\n"
    f"    {i}\n}}\n"
    for i in range(8)
)
FILES = {
    "Cargo.toml": (
        '[package]\nname = "serde_json"\nversion = "1.0.0"\n\n'
        '[dependencies]\nitoa = "1.0"\nmemchr = "2"\n'
    ),
    "src/lib.rs": "mod convert;\n",
    "src/convert.rs": SOURCE,
}


async def test_the_manifest_answers_what_the_dependencies_are(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        found = await app.service.search(
            t.SearchArgs(repoId="repo", query="what dependencies does serde_json have")
        )
        assert found.hits[0].entry.path == "Cargo.toml", [h.entry.path for h in found.hits]
