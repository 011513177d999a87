"""A definition query may name a declaration by the package exporting it (`typer.run` for
`typer.main.run`, as `typer/__init__.py` re-exports it): that declaration is the one asked
for, after one whose qualified name ends with the query's. QA on fastapi/typer: `where is
typer.run defined` answered typer/main.py, whose `run` lies past its stored text, with the
note `none of these hits declares run`."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.definition_sites import declaration_of, no_definition_note
from query_api.retrieval.hit_details import HitLocator
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.query_api.located import file_hit
from tests.streams.symbol_records import records

PADDING = "".join(f"def helper_{n}():\n    return {n}  # {'x' * 60}\n\n\n" for n in range(900))
MAIN = PADDING + "def run(function):\n    return function()\n"
INIT = "from .main import run as run\n"


def test_a_name_qualified_by_its_package_is_declared_so(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        for path, text in (("pkg/main.py", MAIN), ("pkg/__init__.py", INIT)):
            views.apply(records(path, text), {})
        locator = HitLocator(views)
        symbols = locator.symbols_of("r", "pkg/main.py")
        body = locator.body("r", "pkg/main.py") or ""
        assert "def run" not in body  # past the stored text: only the symbols say it
        found = declaration_of(symbols, ["pkg", "run"])
        assert found is not None and found.fq_name == "pkg.main.run", found
        assert declaration_of(symbols, ["other", "run"]) is None
        assert declaration_of(symbols, ["main", "pkg", "run"]) is None  # out of order
        hits = [file_hit("pkg/main.py"), file_hit("pkg/__init__.py")]
        assert no_definition_note(locator, "r", "where is pkg.run defined", hits) is None
        note = no_definition_note(locator, "r", "where is pkg.gone defined", hits)
        assert note == "none of these hits declares gone"
