"""`where is the multi_progress_println test`: a test's name written as code, with `test` after
it, asks where that test is, as `where is multi_progress_println` does. QA on
console-rs/indicatif: it matched no form and ranked src/multi.rs (at its own `mod tests`)
and src/progress_bar.rs above tests/render.rs, declaring `fn multi_progress_println()`."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.definition_sites import defined_name
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


def test_a_code_name_and_test_is_a_definition_query() -> None:
    assert defined_name("where is the multi_progress_println test") == "multi_progress_println"
    assert defined_name("where is the `testRetryAfter` test?") == "testRetryAfter"
    assert defined_name("where is the retry test") is None  # a word: the tests about it


MULTI = (
    "/// Prints a line above the bars of a multi progress.\n"
    "pub struct MultiProgress;\n\n"
    "impl MultiProgress {\n"
    "    pub fn println(&self, msg: &str) -> usize {\n        msg.len()\n    }\n"
    "}\n\n"
    "#[cfg(test)]\nmod tests {\n    use super::MultiProgress;\n\n"
    "    #[test]\n    fn multi_progress_sync() {\n"
    '        let multi = MultiProgress;\n        assert_eq!(multi.println("multi"), 5);\n'
    "    }\n}\n"
)
RENDER = "".join(
    f'#[test]\nfn render_case_{i}() {{\n    assert_eq!(MultiProgress.println("x"), 1);\n}}\n\n'
    for i in range(6)
) + (
    "#[test]\nfn multi_progress_println() {\n"
    '    let multi = MultiProgress;\n    multi.println("progress");\n}\n'
)
FILES = {
    "Cargo.toml": '[package]\nname = "gauge"\nversion = "0.1.0"\n',
    "src/lib.rs": "mod multi;\npub use crate::multi::MultiProgress;\n",
    "src/multi.rs": MULTI,
    "tests/render.rs": "use gauge::MultiProgress;\n\n" + RENDER,
}


async def test_the_file_declaring_the_test_is_first_at_it(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "gauge") as app:
        found = await app.service.search(
            t.SearchArgs(repoId="gauge", query="where is the multi_progress_println test")
        )
        first = found.hits[0]
        assert first.entry.path == "tests/render.rs", [h.entry.path for h in found.hits]
        lines = FILES["tests/render.rs"].split("\n")
        assert first.startLine is not None and first.endLine is not None
        shown = lines[first.startLine - 1 : first.endLine]
        assert "fn multi_progress_println() {" in shown, (first.startLine, first.snippet)
