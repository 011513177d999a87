"""`where are the unit tests`, `where are the integration tests`: a question asking for the
repository's tests, with no subject, lists its test files and the files holding a test
module first, pointed at their tests (query_api/retrieval/repo_tests.py). QA on
ajeetdsouza/zoxide answered no test for the first and CHANGELOG.md first for the second."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.repo_tests import kinds_asked
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

STORE = """\
/// The store of visited directories: each has a score that ages.
pub struct Store { dirs: Vec<(String, f64)> }

impl Store {
    pub fn add(&mut self, path: &str) {
        self.dirs.push((path.to_string(), 1.0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_keeps_the_path() {
        let mut store = Store { dirs: Vec::new() };
        store.add("/tmp");
        assert_eq!(store.dirs.len(), 1);
    }
}
"""

SHELL = """\
/// Renders the shell hook: the shell integration that records each directory visited.
pub fn hook(shell: &str) -> String {
    format!("# {shell} integration: a unit of shell code per prompt")
}
"""

CLI_TEST = """\
use std::process::Command;

#[test]
fn prints_help() {
    let out = Command::new(env!("CARGO_BIN_EXE_visits")).arg("--help").output().unwrap();
    assert!(out.status.success());
}
"""

CHANGELOG = """\
# Changelog

## 0.2.0
- Shell integration: the hook now handles the unit separator in paths.
- Integration with the integration terminal of editors.
"""

FILES = {
    "Cargo.toml": '[package]\nname = "visits"\nversion = "0.2.0"\ncodegen-units = 1\n',
    "CHANGELOG.md": CHANGELOG,
    "src/main.rs": "mod shell;\nmod store;\n\nfn main() {}\n",
    "src/store.rs": STORE,
    "src/shell.rs": SHELL,
    "tests/cli.rs": CLI_TEST,
}


async def _answers(tmp_path: Path, queries: list[str]) -> list[list[t.SearchHit]]:
    async with indexed_app(tmp_path, FILES) as app:
        return [
            (await app.service.search(t.SearchArgs(repoId="repo", query=query))).hits
            for query in queries
        ]


def _paths(hits: list[t.SearchHit]) -> list[str]:
    return [hit.entry.path for hit in hits if hit.entry.path]


async def test_a_question_for_the_repositorys_tests_lists_them_first(tmp_path: Path) -> None:
    unit, integration = await _answers(
        tmp_path, ["where are the unit tests", "where are the integration tests"]
    )
    assert _paths(unit)[:2] == ["src/store.rs", "tests/cli.rs"]
    assert _paths(integration)[:2] == ["tests/cli.rs", "src/store.rs"]
    store = next(hit for hit in unit if hit.entry.path == "src/store.rs")
    assert "#[cfg(test)]" in (store.snippet or "")  # its tests, not a `unit` elsewhere


def test_only_a_question_with_no_subject_asks_for_the_repositorys_tests() -> None:
    assert kinds_asked("where are the unit tests") == frozenset({"unit"})
    assert kinds_asked("where are the tests located") == frozenset()
    assert kinds_asked("tests for the store") is None
    assert kinds_asked("unit tests for Store") is None
    assert kinds_asked("Add unit tests for the store") is None
    assert kinds_asked("Fix flaky integration tests") is None
