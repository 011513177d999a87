"""The users of a static member the query names with its type are the files calling it
through that type (query_api/retrieval/static_users.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "src/validation/ValidationTypes.ts": (
        "export class ValidationTypes {\n"
        "  static CUSTOM_VALIDATION = 'customValidation';\n"
        "  static isValid(type: string): boolean {\n"
        "    return type !== 'isValid';\n"
        "  }\n}\n"
    ),
    "src/register-decorator.ts": (
        "import { ValidationTypes } from './validation/ValidationTypes';\n\n"
        "export function registerDecorator(name: string): string {\n"
        "  return ValidationTypes.isValid(name) ? name : ValidationTypes.CUSTOM_VALIDATION;\n"
        "}\n"
    ),
    "src/decorator/IsPhoneNumber.ts": (
        "import { parsePhoneNumber } from 'libphonenumber-js/max';\n\n"
        "export function isPhoneNumber(value: string): boolean {\n"
        "  const phoneNumber = parsePhoneNumber(value);\n"
        "  return phoneNumber.isValid();\n"
        "}\n"
    ),
}


async def test_a_static_members_users_call_it_through_its_type(tmp_path: Path) -> None:
    """QA on typestack/class-validator: `what calls ValidationTypes.isValid` marked
    IsPhoneNumber.ts (`phoneNumber.isValid()`, libphonenumber's) as a user."""
    async with indexed_app(tmp_path, FILES) as app:
        query = "what calls ValidationTypes.isValid"
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        users = [h.entry.path for h in answer.hits if "uses:isValid" in h.reasons]
        assert users == ["src/register-decorator.ts"], answer.hits
