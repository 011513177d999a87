"""A release request points the file declaring the project's version at that declaration.
QA on PyCQA/flake8: `Release 5.0.4` pointed src/flake8/__init__.py at its docstring (lines
1-28), not at `__version__ = "7.3.0"` (line 20), which the release commit changes."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

INIT = '"""The tool.\n\nIt checks code.\n"""\nimport logging\n\nLOG = 1\n__version__ = "5.0.3"\n'
FILES = {
    "src/tool/__init__.py": INIT,
    "src/tool/pool.py": "def release(pool):\n    # release 5 pools\n    return pool\n",
    "package.json": '{\n  "name": "tool",\n  "version": "5.0.3"\n}\n',
}


async def test_a_release_points_the_version_files_at_the_version(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        answer = await app.service.search(t.SearchArgs(repoId="repo", query="Release 5.0.4"))
        lines = {h.entry.path: (h.startLine, h.snippet) for h in answer.hits}
        assert lines["src/tool/__init__.py"] == (8, '8: __version__ = "5.0.3"'), answer.hits
        assert lines["package.json"] == (3, '3: "version": "5.0.3"'), answer.hits
        other = await app.service.search(t.SearchArgs(repoId="repo", query="release the pool"))
        assert all(h.startLine != 8 for h in other.hits if h.entry.path == "src/tool/__init__.py")
