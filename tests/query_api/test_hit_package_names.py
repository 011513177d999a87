"""A Python name written through its package's re-export (`jinja2.Environment`, which
jinja2/__init__.py imports from jinja2/environment.py) names the module's declaration, as
`jinja2.environment.Environment` does (query_api/retrieval/named_declaration.py). QA on
pallets/jinja: `jinja2.Environment` pointed environment.py's hit at lines 1551-1567, a
docstring of TemplateExpression saying ":meth:`jinja2.Environment.compile_expression`",
not at the class (line 145)."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.hit_details import HitLocator, enrich
from schemas import tools as t
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.streams.symbol_records import records

PATH = "src/jinja2/environment.py"
FILES = {
    "src/jinja2/__init__.py": "from .environment import Environment as Environment\n",
    PATH: "\n".join(
        [
            "import typing as t",  # 1
            "",
            "",
            "class Environment:",  # 4
            '    """The core component."""',  # 5
            "",
            "    def compile_expression(self, source):",  # 7
            "        return source",  # 8
            "",
            "",
            "class TemplateExpression:",  # 11
            '    """What :meth:`jinja2.Environment.compile_expression` returns."""',  # 12
            "",
            "    def __call__(self):",  # 14
            "        return None",  # 15
            "",
        ]
    ),
}


def _hit(tmp_path: Path, query: str) -> t.SearchHit:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        for path, body in FILES.items():
            views.apply(records(path, body), {})
        entry = t.EntryView(key=f"repo/r/file/{PATH}", exists=True, kind="File", path=PATH)
        hit = t.SearchHit(score=1.0, entry=entry, reasons=["path-name-match"])
        [shown] = enrich(HitLocator(views), "r", query, [hit], details=True).hits
        return shown


@pytest.mark.parametrize(
    ("query", "start"),
    [
        ("jinja2.Environment", 4),
        ("jinja2.environment.Environment", 4),
        ("jinja2.Environment.compile_expression", 7),
    ],
)
def test_a_name_through_its_packages_re_export_names_the_declaration(
    tmp_path: Path, query: str, start: int
) -> None:
    hit = _hit(tmp_path, query)
    assert hit.startLine == start, (query, hit)
