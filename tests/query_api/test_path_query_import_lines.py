"""A query that is only a file's path (`rich/cells.py`) points each other hit importing that
file at its import, as `who imports rich/cells.py` does: those hits are there because they use
the file, and the path's folder words pick nothing of theirs. QA on Textualize/rich:
`rich/cells.py` pointed rich/segment.py at `log = getLogger("rich")`, where line 19 imports
from `.cells`."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.hit_details import HitLocator
from query_api.retrieval.use_sites import uses_located
from schemas import tools as t
from tests.query_api.located import located_hits

CELLS = "def cell_len(text):\n    return len(text)\n"
SEGMENT = (
    "from logging import getLogger\n"
    "\n"
    "from .cells import cell_len\n"  # 3
    "\n"
    'log = getLogger("rich")\n'  # 5: the folder's word
    "\n\n"
    "def length(text):\n"
    "    return cell_len(text)\n"
)
FILES = {"rich/cells.py": CELLS, "rich/segment.py": SEGMENT}


def _step(
    locator: HitLocator, repo_id: str, query: str, hits: list[t.SearchHit]
) -> list[t.SearchHit]:
    return uses_located(locator, repo_id, query, hits)[0]


def test_a_path_query_points_an_importer_at_its_import(tmp_path: Path) -> None:
    cells, segment = located_hits(tmp_path, FILES, "rich/cells.py", _step)
    assert (segment.startLine, segment.snippet) == (3, "3: from .cells import cell_len"), segment
    assert cells.startLine == 1  # the file named: at its head, as before


def test_a_sentence_is_no_path_query(tmp_path: Path) -> None:
    _, segment = located_hits(tmp_path, FILES, "why is rich/cells.py slow", _step)
    assert segment.startLine != 3, segment  # its words pick its lines, as before
