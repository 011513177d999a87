"""A question about a Rust crate's minimum supported Rust version (`where is the MSRV set`,
`what is the minimum supported rust version`) is about its manifest's `rust-version` and the
CI job checking it. QA on console-rs/indicatif: `where is the MSRV set` matched no config
form and answered ten source files holding `set_` methods, Cargo.toml (`rust-version =
"1.85"`) and the workflow's `msrv:` job nowhere."""

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
        "where is the MSRV set",
        "what is the MSRV",
        "what is the minimum supported rust version",
        "which rust version is the minimum supported",
    ],
)
def test_a_question_about_the_msrv_is_about_config(query: str) -> None:
    assert Role.CONFIG in roles_about(query), query


def test_a_change_of_the_msrv_is_a_request() -> None:
    assert roles_about("Bump MSRV to 1.85 (for rand)") == set()


SOURCE = "".join(
    f"/// Sets the value of bar {i}.\npub fn set_value_{i}(value: u64) -> u64 {{\n"
    f"    value + {i}\n}}\n\n"
    for i in range(10)
)
FILES = {
    "Cargo.toml": (
        '[package]\nname = "gauge"\nversion = "0.1.0"\nedition = "2021"\n'
        'rust-version = "1.70"\n\n[dependencies]\nitoa = "1.0"\n'
    ),
    ".github/workflows/ci.yml": (
        "name: CI\non: [push]\njobs:\n  msrv:\n    runs-on: ubuntu-latest\n"
        "    steps:\n      - uses: dtolnay/rust-toolchain@1.70\n      - run: cargo check\n"
    ),
    "src/lib.rs": "mod value;\n",
    "src/value.rs": SOURCE,
}


async def test_the_manifest_and_the_ci_job_answer(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "gauge") as app:
        found = await app.service.search(
            t.SearchArgs(repoId="gauge", query="where is the MSRV set")
        )
        paths = [h.entry.path for h in found.hits]
        assert set(paths[:2]) == {"Cargo.toml", ".github/workflows/ci.yml"}, paths
        manifest = next(h for h in found.hits if h.entry.path == "Cargo.toml")
        assert manifest.startLine == 5, manifest


async def test_the_manifest_is_pointed_at_its_rust_version(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "gauge") as app:
        query = "what is the minimum supported rust version"
        found = await app.service.search(t.SearchArgs(repoId="gauge", query=query))
        manifest = next(h for h in found.hits if h.entry.path == "Cargo.toml")
        assert manifest.startLine == 5, manifest
