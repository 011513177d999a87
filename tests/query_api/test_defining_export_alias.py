"""A definition query for a name a TypeScript module gives a declaration of its own only as it
exports it (`export { buildStore as INTERNAL_buildStoreRev2 }`) means that module. QA on
pmndrs/jotai: `where is INTERNAL_buildStoreRev2 defined` ranked the tests importing it first
and src/vanilla/internals.ts, exporting `buildStore` under that name, lower."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.defining_files import defining_files
from query_api.retrieval.definition_sites import no_definition_note
from query_api.retrieval.hit_details import HitLocator
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.query_api.located import file_hit
from tests.streams.symbol_records import records

INTERNALS = (
    "function buildStore(): object {\n"
    "  return {}\n"
    "}\n\n"
    "export {\n"
    "  buildStore as INTERNAL_buildStoreRev2,\n"
    "}\n"
)
STORE = (
    "import { INTERNAL_buildStoreRev2 as INTERNAL_buildStore } from './internals.ts'\n\n"
    "export const createStore = () => INTERNAL_buildStore()\n"
)
TEST = (
    "import { INTERNAL_buildStoreRev2 } from 'jotai/vanilla/internals'\n\n"
    "it('builds', () => INTERNAL_buildStoreRev2())\n"
)


def _defining(tmp_path: Path, query: str) -> set[str]:
    files = {"src/internals.ts": INTERNALS, "src/store.ts": STORE, "tests/store.test.ts": TEST}
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        for path, body in files.items():
            views.apply(records(path, body), {})
        return views.read(lambda conn: defining_files(conn, "r", query))


def test_a_name_a_module_exports_a_declaration_as_is_defined_there(tmp_path: Path) -> None:
    assert _defining(tmp_path, "where is INTERNAL_buildStoreRev2 defined") == {"src/internals.ts"}


def test_a_name_only_imported_as_another_is_defined_nowhere_here(tmp_path: Path) -> None:
    assert _defining(tmp_path, "where is INTERNAL_buildStore defined") == set()


def test_the_note_names_the_module_exporting_a_declaration_as_the_name(tmp_path: Path) -> None:
    """QA on pmndrs/jotai: with internals.ts first, the answer still said only `none of these
    hits declares INTERNAL_buildStoreRev2`, which read as if that first hit were wrong."""
    files = {"src/internals.ts": INTERNALS, "tests/store.test.ts": TEST}
    query = "where is INTERNAL_buildStoreRev2 defined"
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        for path, body in files.items():
            views.apply(records(path, body), {})
        locator = HitLocator(views)
        hits = [file_hit(path) for path in files]
        note = no_definition_note(locator, "r", query, hits)
        assert note == (
            "none of these hits declares INTERNAL_buildStoreRev2; src/internals.ts exports "
            "buildStore as INTERNAL_buildStoreRev2"
        ), note
        # a name only imported under another is declared by no hit, and no alias is named
        other = no_definition_note(locator, "r", "where is INTERNAL_buildStore defined", hits)
        assert other == "none of these hits declares INTERNAL_buildStore", other
