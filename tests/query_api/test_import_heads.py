"""import_lines finds the lines that may open an import statement with one search of the
file (_import_heads) rather than matching each line: the lines it returns must be those the
line-by-line reading gives, on our own sources and on statements written over lines whose
inner lines start with an import's words."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from query_api.retrieval.line_preference import (
    MAX_IMPORT_LINES,
    _depth,
    _fenced_lines,
    _import_or_contents_lines,
    import_lines,
    is_import,
)

SOURCES = sorted((Path(__file__).resolve().parents[2] / "query_api").rglob("*.py"))


def line_by_line(lines: Sequence[str]) -> frozenset[int]:
    """The definition: each line tested in turn, a statement left open followed."""
    from query_api.retrieval.line_preference import _DYNAMIC, _OPENS

    out: set[int] = set()
    n = 0
    while n < len(lines):
        if is_import(lines[n]):
            out.add(n + 1)
            opened = _OPENS.search(lines[n]) is not None and not _DYNAMIC.match(lines[n])
            depth = _depth(lines[n]) if opened else 0
            last = min(len(lines), n + MAX_IMPORT_LINES)
            while depth > 0 and n + 1 < last:
                n += 1
                out.add(n + 1)
                depth += _depth(lines[n])
        n += 1
    return frozenset(out)


TRICKY = [
    "import {\n  use,\n  from,\n} from './x'\nconst a = require('a')\n\tuse std::io;\n",
    "use a::{\n    b,\n    c::{d, e},\n};\n\nfn main() {}\n  from x import (\n y,\n)\n",
    'package main\n\nimport (\n\t"fmt"\n\t"os"\n)\n\nvar x = 1\n#include <a.h>\n',
    "\r\nimport os\r\n  \x0bimport sys\nusing System;\nlet x = require('y')\n",
    "* [Intro](#intro)\n- [Use](#use)\n```js\nimport x from 'y'\n```\n~~~\n~~~\n",
    "",
    "import",
]


@pytest.mark.parametrize("text", TRICKY)
def test_tricky_statements_read_as_line_by_line(text: str) -> None:
    lines = text.split("\n")
    assert import_lines(lines) == line_by_line(lines)


def test_our_sources_read_as_line_by_line() -> None:
    for path in SOURCES:
        lines = path.read_text().split("\n")
        assert import_lines(lines) == line_by_line(lines), path


def test_contents_and_fences_of_a_page() -> None:
    lines = TRICKY[4].split("\n")
    assert _import_or_contents_lines(lines) == {1, 2, 4}
    assert _fenced_lines(lines) == {3, 4, 5, 6, 7}
    assert _fenced_lines(["no fence here", "x = 1"]) == frozenset()
