"""A request about a declaration's doc comment has the hit's range open at that comment
(query_api/retrieval/doc_comments.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.doc_comments import asks_comment, comment_above
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

MAX_DATE = (
    "import { ValidateBy } from '../common/ValidateBy';\n"  # 1
    "\n"  # 2
    "export const MAX_DATE = 'maxDate';\n"  # 3
    "\n"  # 4
    "/**\n"  # 5
    " * Checks if the value is a date that's befor the specified date.\n"  # 6
    " */\n"  # 7
    "export function MaxDate(date: Date): PropertyDecorator {\n"  # 8
    "  return ValidateBy({ name: MAX_DATE, constraints: [date] });\n"  # 9
    "}\n"  # 10
)


def test_the_words_naming_a_comment() -> None:
    assert asks_comment("Fix Typo in MaxDate comment")
    assert asks_comment("docs: update JSDoc for @Min and @Max decorators")
    assert not asks_comment("fix MaxDate for dynamic dates")


def test_the_comment_block_above_a_declaration() -> None:
    lines = MAX_DATE.split("\n")
    assert comment_above(lines, 8) == 5
    assert comment_above(lines, 3) == 3  # a blank line above: no comment
    decorated = ["/** doc */", "@Injectable()", "export class A {}"]
    assert comment_above(decorated, 3) == 1


async def test_the_hit_opens_at_the_doc_comment(tmp_path: Path) -> None:
    """QA on typestack/class-validator: `Fix Typo in MaxDate comment` pointed MaxDate.ts at
    16-31, the function, and the typo was on line 14, in its JSDoc."""
    files = {"src/decorator/date/MaxDate.ts": MAX_DATE}
    async with indexed_app(tmp_path, files) as app:
        for query, first in (("Fix Typo in MaxDate comment", 5), ("fix MaxDate", 8)):
            answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
            hit = answer.hits[0]
            assert (hit.startLine, hit.endLine) == (first, 10), (query, hit)


def test_a_declaration_past_the_stored_text_has_no_comment_read() -> None:
    """A hit on a declaration past a large file's stored text (jackson-core's `Minor Javadoc
    fix` on the localisation benchmark) raised IndexError, failing the whole search."""
    lines = ["/** the reader */", "class Reader {}"]
    assert comment_above(lines, 2) == 1
    assert comment_above(lines, 3) == 3
    assert comment_above(lines, 4_000) == 4_000
