"""A definition question whose declaration lies past the text a file stores (MAX_BODY_CHARS:
search and declarations reach further) points the hit at the declaration's lines, not at the
first lines sharing the query's words. QA on tokio-rs/tracing: `where is the valueset macro
defined` pointed tracing/src/macros.rs (115 KB) at lines 41-52, invocations of
`valueset_all!`, while `macro_rules! valueset` starts at line 2990."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from schemas.events import MAX_BODY_CHARS
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


def _macros() -> tuple[str, int]:
    """A macros file whose `macro_rules! valueset` starts past MAX_BODY_CHARS, and its line."""
    head = (
        "#[macro_export]\nmacro_rules! span {\n"
        "    ($name:expr, $($f:tt)*) => { $crate::valueset_all!($($f)*) };\n}\n"
    )
    filler = "".join(
        f"/// The level {n} helper: formats a field list into values for spans.\n"
        f"pub fn helper_{n}(x: u32) -> u32 {{ x + {n} }}\n"
        for n in range(MAX_BODY_CHARS // 100 + 100)
    )
    text = head + filler
    line = text.count("\n") + 2
    text += "\n#[doc(hidden)]\n#[macro_export]\nmacro_rules! valueset {\n"
    text += "    ($fields:expr, $($k:ident = $v:expr),*) => { &[$(($k, $v)),*] };\n}\n"
    assert len(text[: text.index("macro_rules! valueset")]) > MAX_BODY_CHARS
    return text, line


async def test_a_declaration_past_the_stored_text_is_pointed_at(tmp_path: Path) -> None:
    text, line = _macros()
    files = {"src/macros.rs": text, "src/lib.rs": "#[macro_use]\nmod macros;\n"}
    async with indexed_app(tmp_path, files) as app:
        query = "where is the valueset macro defined"
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        first = answer.hits[0]
        assert first.entry.path == "src/macros.rs", answer.hits
        assert first.startLine is not None and first.endLine is not None
        assert first.startLine <= line + 2 <= first.endLine, (line, first)
        assert first.reasons[0] == "symbol:valueset", first.reasons
