"""A definition question naming a macro (`where is the allow_duplicates macro defined`) asks
for the macro's declaration, not a function of the same name (definition_sites._KINDS_NAMED:
a Rust `macro_rules!` and a C `#define` are declared as Other). QA on mitsuhiko/insta, whose
src/runtime.rs declares `fn allow_duplicates` and src/macros.rs `macro_rules! allow_duplicates`:
the function's file ranked first."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "src/runtime.rs": "/// Runs `f` allowing duplicate inline snapshot assertions in it.\n"
    "pub fn allow_duplicates<F: FnOnce() -> R, R>(f: F) -> R {\n"
    "    let allow_duplicates = true;\n    let _ = allow_duplicates;\n    f()\n}\n\n"
    "pub fn check_duplicates(allow_duplicates: bool) -> bool {\n    allow_duplicates\n}\n",
    "src/macros.rs": "/// Allows duplicate assertions in the block.\n#[macro_export]\n"
    "macro_rules! allow_duplicates {\n"
    "    ($($x:tt)*) => { $crate::runtime::allow_duplicates(|| { $($x)* }) };\n}\n",
    "src/lib.rs": "#[macro_use]\nmod macros;\npub mod runtime;\n",
}


async def test_a_macro_question_puts_the_macro_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        for query in (
            "where is the allow_duplicates macro defined",
            "where is the allow_duplicates macro",
        ):
            answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
            assert answer.hits, query
            first = answer.hits[0]
            assert first.entry.path == "src/macros.rs", (query, answer.hits)
            assert first.startLine is not None and first.endLine is not None
            assert first.startLine <= 3 <= first.endLine, (query, first)
        # without the kind, both declarations are meant
        query = "where is allow_duplicates defined"
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        paths = [hit.entry.path for hit in answer.hits]
        assert {"src/macros.rs", "src/runtime.rs"} <= set(paths[:2]), paths
