"""`tests for git status rendering` in a Rust crate: the file whose own `#[cfg(test)]` module
tests it comes before the sources holding no such tests (query_api/retrieval/
inline_tests_first.py). QA on eza-community/eza ranked src/fs/feature/git.rs, no tests,
above src/output/render/git.rs and its `mod test`."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.inline_tests_first import subject_of_tests, unit_tests_hold
from schemas import tools as t
from streams.stores.views.symbols import SymbolRow
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FEATURE = """\
/// Git status of a file: the git status cache reads each git repository's status once.
pub struct GitCache { statuses: Vec<(String, GitStatus)> }

impl GitCache {
    /// The git status of `path`, from the git status list of its git repository.
    pub fn status(&self, path: &str) -> GitStatus {
        // git status rendering needs the staged and unstaged git status of the file
        self.statuses.iter().find(|s| s.0 == path).map(|s| s.1).unwrap_or(GitStatus::Clean)
    }
}

#[derive(Clone, Copy)]
pub enum GitStatus { Clean, Modified, New }
"""

RENDER = """\
use crate::feature::git::GitStatus;

pub fn render(status: GitStatus) -> char {
    match status { GitStatus::Clean => '-', GitStatus::Modified => 'M', GitStatus::New => 'N' }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn git_modified() {
        assert_eq!(render(GitStatus::Modified), 'M');
    }

    #[test]
    fn git_new() {
        let style: Option<char> = Some(render(GitStatus::New));
        assert_eq!(style, Some('N'));
    }
}
"""

FILES = {
    "Cargo.toml": '[package]\nname = "lister"\nversion = "0.1.0"\n',
    "src/lib.rs": "pub mod feature;\npub mod output;\n",
    "src/feature/mod.rs": "pub mod git;\n",
    "src/feature/git.rs": FEATURE,
    "src/output/mod.rs": "pub mod git;\n",
    "src/output/git.rs": RENDER,
}


async def _paths(tmp_path: Path, queries: list[str]) -> list[list[str]]:
    async with indexed_app(tmp_path, FILES) as app:
        answers = [
            await app.service.search(t.SearchArgs(repoId="repo", query=query)) for query in queries
        ]
    return [[hit.entry.path for hit in answer.hits if hit.entry.path] for answer in answers]


async def test_the_file_whose_unit_tests_test_it_comes_first(tmp_path: Path) -> None:
    (unit,) = await _paths(tmp_path, ["tests for git status rendering"])
    assert unit[:2] == ["src/output/git.rs", "src/feature/git.rs"]


def _module(path: str, start: int, end: int) -> SymbolRow:
    return SymbolRow("repo", path, "test", "test", "Namespace", start, end, "", "#[cfg(test)]")


def test_words_its_tests_hold_only_as_types_do_not_make_them_the_tests_asked() -> None:
    rows = [_module("src/output/git.rs", 8, 21)]
    held = [
        unit_tests_hold(rows, lambda: RENDER, subject_of_tests(query))
        for query in ["tests for git status rendering", "tests for the --time-style option"]
    ]
    assert held == [True, False]  # no `time`; `style`, `option`: a variable's, a type's
