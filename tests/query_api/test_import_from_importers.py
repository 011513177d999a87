"""An importers question written as Python's import statement reads (`which files import
from coverage.types`, `which files import coverage.types`) asks for the module's importers.
QA on nedbat/coveragepy: `import from` matched no users form and ranked coverage/types.py
itself first, then files by their words; `import` (not `imports`) was no importers query."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILLER = "".join(f"\n\ndef helper_{n}(value):\n    return value * {n}\n" for n in range(10))
FILES = {
    "pkg/__init__.py": "",
    "pkg/types.py": (
        '"""The types of the package."""\n\nTLineNo = int\nTArc = tuple[int, int]\n' + FILLER
    ),
    "pkg/results.py": "from pkg.types import TLineNo\n\n\ndef lines(n: TLineNo) -> int:\n"
    "    return n\n",
    "pkg/parser.py": "from pkg.types import TArc\n\n\ndef arcs(a: TArc) -> TArc:\n    return a\n",
    # files holding the words `types` and `files` only
    "pkg/files.py": (
        '"""Which files hold which types: the types of files, imported from the disk."""\n\n'
        "def file_types(files):\n    # the types of the files\n"
        "    return [type(f) for f in files]\n"
    ),
}


@pytest.mark.parametrize(
    "query",
    [
        "which files import from pkg.types",
        "which files import pkg.types",
        "what imports from pkg.types",
    ],
)
async def test_the_importers_of_a_module_are_placed(tmp_path: Path, query: str) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        paths = [h.entry.path for h in answer.hits]
        assert set(paths[:2]) == {"pkg/results.py", "pkg/parser.py"}, (query, answer.hits)
        assert any(r.startswith("uses:") for r in answer.hits[0].reasons), answer.hits[0]
