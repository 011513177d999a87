"""A hit on a file declaring a name in two cases points at the one the query spells
(query_api/retrieval/spelled_declarations.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

DATE_STRING = (
    "import { ValidationOptions } from '../ValidationOptions';\n"  # 1
    "import * as ValidatorJS from 'validator';\n"  # 2
    "\n"  # 3
    "export const IS_DATE_STRING = 'isDateString';\n"  # 4
    "\n"  # 5
    "export function isDateString(value: unknown, options?: ValidatorJS.Options): boolean {\n"
    "  return typeof value === 'string' && ValidatorJS.isISO8601(value, options);\n"  # 7
    "}\n"  # 8
    "\n"  # 9
    "export function IsDateString(\n"  # 10
    "  settings?: unknown,\n"  # 11
    "  validationOptions?: ValidationOptions\n"  # 12
    "): PropertyDecorator {\n"  # 13
    "  return ValidateBy({ name: IS_DATE_STRING }, validationOptions);\n"  # 14
    "}\n"  # 15
)


async def test_the_hit_is_the_declaration_spelled_as_the_query_writes_it(tmp_path: Path) -> None:
    """QA on typestack/class-validator: `fix: pass options to validator in @IsDateString
    decorator` pointed IsDateString.ts at `isDateString` (its signature holds `options` and
    `ValidatorJS`), and the change was in the `IsDateString` decorator."""
    files = {"src/decorator/string/IsDateString.ts": DATE_STRING}
    async with indexed_app(tmp_path, files) as app:
        for query, first in (
            ("fix: pass options to validator in `@IsDateString` decorator", 10),
            ("fix: pass options to validator in isDateString", 6),
            ("IsDateString passes options to isDateString", None),  # both cases: no move
        ):
            answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
            hit = answer.hits[0]
            if first is not None:
                assert hit.startLine == first, (query, hit)
