"""A users query naming a package the repository imports rather than declares (`which
decorators use validator.js`, `what imports validator.js`) places the files importing it, or
a module of it, as their import entries write it."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.users_first import last_part
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


def _decorator(name: str, imports: str) -> str:
    return (
        f"{imports}\n"
        "import { ValidateBy } from './ValidateBy';\n\n"
        f"export function {name}(): PropertyDecorator {{\n"
        f"  return ValidateBy({{ name: '{name}' }});\n}}\n"
    )


FILES = {
    "src/decorator/IsEmail.ts": _decorator(
        "IsEmail", "import isEmailValidator from 'validator/lib/isEmail';"
    ),
    "src/decorator/IsUUID.ts": _decorator("IsUUID", "import * as ValidatorJS from 'validator';"),
    "src/decorator/IsPhone.ts": _decorator(
        "IsPhone", "import { parsePhoneNumber } from 'libphonenumber-js/max';"
    ),
    "src/decorator/ValidateBy.ts": "export function ValidateBy(o: object) { return o; }\n",
    # the repository's own Validator, holding the words `validator` and `js` alike
    "src/validation/Validator.ts": (
        "// the validator runs the js validation of each decorator\n"
        "export class Validator {\n  validate(js: object) { return js; }\n}\n"
    ),
    "src/index.ts": "import { Validator } from './validation/Validator';\nexport { Validator };\n",
}


def test_a_module_file_name_is_no_qualified_name() -> None:
    assert last_part("validator.js") == "validator.js"
    assert last_part("Logger.AddCallerSkip") == "AddCallerSkip"
    assert last_part("flask.app.Flask.run") == "run"


async def test_the_importers_of_a_package_are_its_users(tmp_path: Path) -> None:
    """QA on typestack/class-validator: `which decorators use validator.js` ranked
    src/validation/Validator.ts first, placed none of the 107 files importing `validator` or
    `validator/lib/...`, and said none of its hits used `js`."""
    async with indexed_app(tmp_path, FILES) as app:
        for query in ("which decorators use validator.js", "what imports validator.js"):
            answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
            paths = [h.entry.path for h in answer.hits]
            assert set(paths[:2]) == {"src/decorator/IsEmail.ts", "src/decorator/IsUUID.ts"}, (
                query,
                answer.hits,
            )
            assert "uses:validator.js" in answer.hits[0].reasons, answer.hits[0]
            assert not answer.note, answer.note
