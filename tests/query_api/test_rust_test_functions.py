"""A Rust file's unit tests written as `#[test]` functions beside its code, in no `mod tests`
(hyperfine's style), are its tests as a `#[cfg(test)]` module's are: a question about them
points the file's hit at them, `where are the unit tests` lists the file, and no note says
that no test calls what they call (query_api/symbols/rust_tests.test_ranges,
query_api/retrieval/test_module_lines.py). QA on sharkdp/hyperfine: `tests for relative speed`
pointed relative_speed.rs at its struct, `tests for compute_with_check` said no test calls it."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval import test_module_lines
from schemas import tools as t
from streams.stores.views.symbols import SymbolRow
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

SPEED = """\
use std::cmp::Ordering;

/// A result annotated with its speed relative to the fastest.
pub struct WithRelativeSpeed {
    pub mean: f64,
    pub relative_speed: f64,
}

pub fn compute_ratio(means: &[f64]) -> Vec<WithRelativeSpeed> {
    let fastest = means.iter().cloned().fold(f64::INFINITY, f64::min);
    means
        .iter()
        .map(|&mean| WithRelativeSpeed { mean, relative_speed: mean / fastest })
        .collect()
}

#[cfg(test)]
fn create_means() -> Vec<f64> {
    vec![3.0, 2.0, 5.0]
}

#[test]
fn test_compute_ratio() {
    let annotated = compute_ratio(&create_means());
    assert_eq!(1.5, annotated[0].relative_speed);
}

pub fn compare(a: f64, b: f64) -> Ordering {
    a.partial_cmp(&b).unwrap()
}
"""

FILES = {
    "Cargo.toml": '[package]\nname = "timeit"\nversion = "0.1.0"\n',
    "src/main.rs": "mod speed;\n\nfn main() {\n    speed::compute_ratio(&[1.0]);\n}\n",
    "src/speed.rs": SPEED,
    "src/options.rs": (
        "/// How to sort the relative speed comparison\npub enum SortOrder { Speed, Name }\n"
        "/// The time unit of the results\npub enum Unit { Second, MilliSecond }\n"
    ),
}


def _row(name: str, kind: str, start: int, end: int) -> SymbolRow:
    return SymbolRow("repo", "src/speed.rs", name, name, kind, start, end, "", "")


def test_test_functions_outside_a_module_are_the_files_tests() -> None:
    lines = SPEED.split("\n")
    symbols = [
        _row("WithRelativeSpeed", "Type", 4, 7),
        _row("compute_ratio", "Function", 9, 15),
        _row("create_means", "Function", 17, 20),
        _row("test_compute_ratio", "Function", 22, 26),
        _row("compare", "Function", 28, 30),
    ]
    assert test_module_lines.test_module_ranges(symbols, lines) == [(17, 20), (22, 26)]


async def _hits(tmp_path: Path, queries: list[str]) -> list[t.SearchResult]:
    async with indexed_app(tmp_path, FILES) as app:
        return [
            await app.service.search(t.SearchArgs(repoId="repo", query=query)) for query in queries
        ]


async def test_questions_about_them_point_at_them(tmp_path: Path) -> None:
    speed, ratio, listed = await _hits(
        tmp_path,
        ["tests for relative speed", "tests for compute_ratio", "where are the unit tests"],
    )
    first = speed.hits[0]
    assert first.entry.path == "src/speed.rs"
    assert 17 <= (first.startLine or 0) <= 26, first.snippet
    first = ratio.hits[0]
    assert first.entry.path == "src/speed.rs"
    assert (first.startLine, first.endLine) == (22, 26), first.snippet
    assert "no test file" not in (ratio.note or ""), ratio.note
    assert listed.hits[0].entry.path == "src/speed.rs"
