"""A file writing the error message a query pastes points at the line writing it, not at a
declaration named with the message's words (query_api/retrieval/message_lines.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

NOT_EMPTY = (
    "import { ValidationOptions } from '../ValidationOptions';\n"  # 1
    "import { buildMessage, ValidateBy } from './ValidateBy';\n"  # 2
    "\n"  # 3
    "export const IS_NOT_EMPTY = 'isNotEmpty';\n"  # 4
    "\n"  # 5
    "/**\n"  # 6
    " * Checks if given value is not empty (!== '', !== null, !== undefined).\n"  # 7
    " */\n"  # 8
    "export function isNotEmpty(value: unknown): boolean {\n"  # 9
    "  return value !== '' && value !== null && value !== undefined;\n"  # 10
    "}\n"  # 11
    "\n"  # 12
    "export function IsNotEmpty(validationOptions?: ValidationOptions): PropertyDecorator {\n"
    "  return ValidateBy(\n"  # 14
    "    {\n"  # 15
    "      name: IS_NOT_EMPTY,\n"  # 16
    "      validator: {\n"  # 17
    "        validate: (value, args): boolean => isNotEmpty(value),\n"  # 18
    "        defaultMessage: buildMessage(\n"  # 19
    "          eachPrefix => eachPrefix + '$property should not be empty',\n"  # 20
    "          validationOptions\n"  # 21
    "        ),\n"  # 22
    "      },\n"  # 23
    "    },\n"  # 24
    "    validationOptions\n"  # 25
    "  );\n"  # 26
    "}\n"  # 27
)
FILES = {
    "src/decorator/IsNotEmpty.ts": NOT_EMPTY,
    "src/decorator/IsDefined.ts": "export const IS_DEFINED = 'isDefined';\n",
}


async def test_the_hit_is_at_the_line_writing_the_message(tmp_path: Path) -> None:
    """QA on typestack/class-validator: `BadRequestException: password should not be empty`
    pointed IsNotEmpty.ts at `export const IS_NOT_EMPTY = 'isNotEmpty';` (line 4), a
    declaration named with the message's words, not at the line writing it."""
    async with indexed_app(tmp_path, FILES) as app:
        query = "BadRequestException: password should not be empty"
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        hit = next(h for h in answer.hits if h.entry.path == "src/decorator/IsNotEmpty.ts")
        assert hit.snippet and hit.snippet.startswith("20: eachPrefix =>"), hit
        assert (hit.startLine, hit.endLine) == (13, 27), hit
        # no message pasted: the lines its words find
        answer = await app.service.search(t.SearchArgs(repoId="repo", query="is not empty"))
        hit = next(h for h in answer.hits if h.entry.path == "src/decorator/IsNotEmpty.ts")
        assert not (hit.snippet or "").startswith("20: "), hit
