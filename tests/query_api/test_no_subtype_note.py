"""An answer to `who extends X` / `what implements X` that found no subtype says its hits
only use X (use_sites.no_subtype_note)."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "src/ValidationError.ts": "export class ValidationError {\n  property = '';\n}\n",
    "src/BaseError.ts": "export class BaseError {\n  code = 1;\n}\n",
    "src/Executor.ts": (
        "import { ValidationError } from './ValidationError';\n"
        "import { BaseError } from './BaseError';\n\n"
        "export function execute(): ValidationError {\n  return new ValidationError();\n}\n\n"
        "export class HttpError extends BaseError {\n  status = 400;\n}\n"
    ),
}


async def test_an_answer_with_no_subtype_says_its_hits_use_it(tmp_path: Path) -> None:
    """QA on typestack/class-validator: `who extends ValidationError`, which no class
    extends, listed ten files using it with `uses:ValidationError` and no word."""
    async with indexed_app(tmp_path, FILES) as app:
        answer = await app.service.search(
            t.SearchArgs(repoId="repo", query="who extends ValidationError")
        )
        assert answer.hits and answer.hits[0].entry.path == "src/Executor.ts", answer.hits
        assert answer.note and "extending or implementing ValidationError" in answer.note
        answer = await app.service.search(
            t.SearchArgs(repoId="repo", query="who extends BaseError")
        )
        assert answer.hits and answer.hits[0].entry.path == "src/Executor.ts", answer.hits
        assert not answer.note or "extending or implementing" not in answer.note, answer.note
