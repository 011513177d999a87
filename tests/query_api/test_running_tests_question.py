"""`how do I run the tests` asks how the project runs them: its CI workflow, its Makefile's
target, its manifest's script, not the test modules. QA on console-rs/indicatif: it answered
ten files' `mod tests` blocks, the workflow running `cargo test` in none of its places."""

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
        "how do I run the tests",
        "how are the tests run?",
        "how to run the test suite",
        "what command runs the tests",
    ],
)
def test_a_question_about_running_the_tests_is_about_config(query: str) -> None:
    assert roles_about(query) == {Role.CONFIG}, query


def test_a_request_to_run_tests_is_not() -> None:
    assert Role.CONFIG not in roles_about("run the tests on windows too")


MODULES = {
    f"src/part_{i}.rs": (
        f"pub fn run_{i}() -> u8 {{\n    {i}\n}}\n\n#[cfg(test)]\nmod tests {{\n"
        f"    #[test]\n    fn runs() {{\n        assert_eq!(super::run_{i}(), {i});\n    }}\n}}\n"
    )
    for i in range(8)
}
FILES = {
    "Cargo.toml": '[package]\nname = "gauge"\nversion = "0.1.0"\n',
    ".github/workflows/ci.yml": (
        "name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n"
        "    steps:\n      - uses: actions/checkout@v4\n      - run: cargo test --all-features\n"
    ),
    "src/lib.rs": "".join(f"mod part_{i};\n" for i in range(8)),
    **MODULES,
}


async def test_the_workflow_running_the_tests_answers(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "gauge") as app:
        found = await app.service.search(
            t.SearchArgs(repoId="gauge", query="how do I run the tests")
        )
        paths = [h.entry.path for h in found.hits]
        assert paths[0] == ".github/workflows/ci.yml", paths
