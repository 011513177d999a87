"""An overview question (`what does this project do`) is answered by the root README its form
names, even when the README holds none of its words: asking it again without its stop words
(`project`) is for answers that hold only those words, not for one its form placed. QA on
axios/axios, keyword search: `what does this project do` led with README.md, then was asked
again as `project` and answered with three test tsconfig.json files' `/* Projects */` comments,
a CHANGELOG line and package-lock.json, README.md nowhere."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

_CODE = "// what does this do? this does what it does\n"


def _repo(root: Path) -> Path:
    for i in range(12):
        path = root / "lib" / f"part{i}.js"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"{_CODE}export function part{i}() {{\n  return {i};\n}}\n")
    (root / "README.md").write_text("# kite\n\nPromise based HTTP client for the browser.\n")
    (root / "index.js").write_text("export * from './lib/part0.js';\n")
    (root / "test" / "ts").mkdir(parents=True)
    (root / "test" / "ts" / "tsconfig.json").write_text('{\n  /* Projects */\n  "a": 1\n}\n')
    return root


async def test_an_overview_question_keeps_its_readme(tmp_path: Path) -> None:
    _repo(tmp_path / "ws" / "repo")
    async with indexed_app(tmp_path) as app:
        asked = t.SearchArgs(repoId="repo", query="what does this project do", k=5)
        answer = await app.service.search(asked)
        assert [h.entry.path for h in answer.hits][:1] == ["README.md"], answer.hits
