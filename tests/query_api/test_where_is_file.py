"""`where is the tsconfig`: a question asking where one file is, by its name or its name
less its extension, puts the file called so first, the root's when several packages hold one.
QA on tinyhttp/tinyhttp: the root tsconfig.json ranked below two packages' and below the
source files naming `tsconfig`; a bare name several files share named none."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "tsconfig.json": '{"compilerOptions": {"strict": true, "target": "es2019"}}\n',
    "packages/app/tsconfig.json": '{"extends": "../../tsconfig.json", "include": ["src"]}\n',
    "packages/app/src/app.ts": (
        "// reads the tsconfig paths of the app\nexport const tsconfig = 'tsconfig.json'\n"
        "export function loadTsconfig() { return tsconfig }\n"
    ),
    "packages/cookie/tsconfig.json": '{"extends": "../../tsconfig.json"}\n',
    "packages/cookie/src/index.ts": "export function parse(s: string) { return s }\n",
    "scripts/build.ts": "// build with the tsconfig\nexport const t = 'tsconfig'\n",
}


async def test_where_is_a_file_puts_the_root_s_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "tiny") as app:
        answers = [
            await app.service.search(t.SearchArgs(repoId="tiny", query=query))
            for query in (
                "where is the tsconfig",
                "where is the tsconfig.json?",
                "show me the index",
            )
        ]
    stem, name, index = ([h.entry.path for h in a.hits] for a in answers)
    assert stem[0] == "tsconfig.json", stem
    assert name[0] == "tsconfig.json", name
    assert index[0] == "packages/cookie/src/index.ts", index  # one file: wherever it is
