"""A Rust integration test named `test_<module>.rs` in a crate's tests/ folder tests that
module (tested_by.marked_subject). QA on mitsuhiko/insta, whose insta/tests/test_redaction.rs
and test_glob.rs test insta/src/redaction.rs and glob.rs: 'tests for redaction' ranked five
source files above test_redaction.rs (seventh) and 'tests for glob' left test_glob.rs out of
the first ten, both being the tests of no file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from query_api.symbols.tested_by import names_subject, subject_of_test
from schemas import tools as t
from streams.stores.views.named_files import path_named_files
from tests.ingested import indexed_app
from tests.query_api.test_symbol_dependents import Repo, repo_holding

TEST = "use mycrate::redact;\n\n#[test]\nfn test_redact() {\n    assert_eq!(redact(1), 0);\n}\n"
FILES = {
    "mycrate/Cargo.toml": '[package]\nname = "mycrate"\nversion = "0.1.0"\n',
    "mycrate/src/lib.rs": "pub mod redaction;\npub mod glob;\npub use redaction::redact;\n",
    "mycrate/src/redaction.rs": "/// Redacts a value.\npub fn redact(value: u32) -> u32 {\n"
    "    value * 0\n}\n",
    "mycrate/src/glob.rs": "/// Collects files.\npub fn collect() -> Vec<String> {\n"
    "    vec![]\n}\n",
    "mycrate/src/settings.rs": "/// Settings holding redaction rules.\npub struct Settings {\n"
    "    pub redaction: bool,\n}\n",
    "mycrate/tests/test_redaction.rs": TEST,
    "mycrate/tests/test_basic.rs": "#[test]\nfn test_basic() {\n    assert!(true);\n}\n",
}


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repo]:
    with repo_holding(tmp_path, FILES) as r:
        yield r


def test_a_rust_test_names_its_module_after_the_prefix(repo: Repo) -> None:
    def lookup(name: str) -> list[str]:
        return repo.store.read(lambda c: path_named_files(c, "r", name, as_written=False))

    assert subject_of_test("mycrate/tests/test_redaction.rs", lookup) == (
        "mycrate/src/redaction.rs"
    )
    assert repo.resolver.named_tests("r", "mycrate/src/redaction.rs") == [
        "mycrate/tests/test_redaction.rs"
    ]
    # the test of no module it does not name
    assert subject_of_test("mycrate/tests/test_basic.rs", lookup) is None


def test_only_a_test_file_names_a_subject_so() -> None:
    # a module of the code named so is a module, no test
    assert names_subject("mycrate/src/test_redaction.rs", "mycrate/src/redaction.rs") is None
    # another language keeps its own markers
    assert names_subject("lib/tests/test_redaction.js", "lib/src/redaction.js") is None


@pytest.mark.anyio
async def test_tests_for_a_module_put_its_rust_test_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        for query in ("tests for redaction", "tests for the redaction module"):
            answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
            paths = [hit.entry.path for hit in answer.hits]
            assert paths[:2] == ["mycrate/tests/test_redaction.rs", "mycrate/src/redaction.rs"], (
                query,
                paths,
            )
