"""An error message quoted whole in a sentence (`getting "Unable to create TemplateLiteral due
to infinite type expansion" from Value.Create`), pasted without its error's class, ranks first
the file writing it, at that line. QA on sinclairzx81/typebox: such a message asked for no
file, and the one throwing it came fourth, below three files declaring `TemplateLiteral`."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.pasted_message import message_queries
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

MESSAGE = "Unable to create TemplateLiteral due to infinite type expansion"
FILES = {
    "src/value/create/from_template_literal.ts": (
        "import { CreateError } from './error.ts'\n\n"
        "export function FromTemplateLiteral(type: { pattern: string }): unknown {\n"
        "  const decoded = type.pattern\n"
        f"  if (decoded.length > 100) throw new CreateError(type, '{MESSAGE}')\n"
        "  return decoded\n"
        "}\n"
    ),
    **{
        f"src/type/{name}.ts": (
            f"/** A TemplateLiteral {name}: create the TemplateLiteral type's {name}. */\n"
            f"export function TemplateLiteral{name.title()}(pattern: string): string {{\n"
            "  return pattern // TemplateLiteral, TemplateLiteral, TemplateLiteral\n}\n"
        )
        for name in ("encode", "decode", "create", "static", "expansion")
    },
}


def test_a_quoted_sentence_of_a_few_words_is_a_message() -> None:
    assert message_queries(f'getting "{MESSAGE}" from Value.Create')
    assert message_queries(f"Value.Create throws '{MESSAGE}'")
    # a short quoted value, or none, is no message
    assert not message_queries('Rename "foo bar" to "baz" in the create step')
    assert not message_queries("Add support for the uuid format in Value.Create")


async def test_the_file_writing_a_quoted_message_comes_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        query = f'getting "{MESSAGE}" from Value.Create'
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        first = answer.hits[0]
        assert first.entry.path == "src/value/create/from_template_literal.ts", answer.hits
        assert first.snippet and first.snippet.startswith("5: "), first
