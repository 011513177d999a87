"""`which files import libphonenumber-js`: a package written with a hyphen, which no code name
holds, is asked for its importers. QA on typestack/class-validator: the query matched no users
form, so files sharing the words `libphonenumber` and `js` ranked as they came."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.users_first import used_name
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "package.json": '{"name": "cv", "dependencies": {"libphonenumber-js": "1"}}\n',
    "src/other.ts": (
        "// phone number helpers: the libphonenumber docs, libphonenumber js, libphonenumber\n"
        "export const x = 1\n"
    ),
    "src/phone/IsPhoneNumber.ts": (
        "import { parsePhoneNumber } from 'libphonenumber-js';\n"
        "export function isPhoneNumber(v: string) { return parsePhoneNumber(v) }\n"
    ),
    "src/util.ts": (
        "import { parsePhoneNumberFromString } from 'libphonenumber-js/max';\n"
        "export const y = parsePhoneNumberFromString\n"
    ),
}


def test_the_forms_reading_a_hyphenated_package() -> None:
    assert used_name("which files import libphonenumber-js") == "libphonenumber-js"
    assert used_name("where is class-transformer imported?") == "class-transformer"
    assert used_name("what depends on the serde-json crate") == "serde-json"
    assert used_name("fix libphonenumber-js import") is None  # a change request


async def test_a_hyphenated_package_s_importers_come_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "cv") as app:
        answer = await app.service.search(
            t.SearchArgs(repoId="cv", query="which files import libphonenumber-js")
        )
    first = sorted(h.entry.path or "" for h in answer.hits[:2])
    assert first == ["src/phone/IsPhoneNumber.ts", "src/util.ts"], answer.hits
    assert all("uses:libphonenumber-js" in h.reasons for h in answer.hits[:2]), answer.hits
    assert all(h.startLine == 1 for h in answer.hits[:2]), answer.hits
