"""A file a definition query brings in because it takes the name from another package (the
name declared nowhere here) says why: its import holds the name. QA on sinclairzx81/typebox:
`where is the TypeCompiler` answered task/bench/compile.ts and validate.ts, each importing
it from `npm:@sinclair/typebox/compiler`, with `reasons: []` (brought in, no search reason)."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.definition_sites import at_definitions
from query_api.retrieval.hit_details import HitLocator
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.query_api.located import file_hit
from tests.streams.symbol_records import records

BENCH = (
    "import { TypeCompiler } from 'npm:@sinclair/typebox/compiler'\n\n"
    "export const compiled = TypeCompiler.Compile({})\n"
)


def test_a_file_brought_in_for_its_import_has_a_reason(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        views.apply(records("task/bench/compile.ts", BENCH), {})
        locator = HitLocator(views)
        brought = file_hit("task/bench/compile.ts", reasons=())
        query = "where is TypeCompiler defined"
        [hit] = at_definitions(locator, "r", query, [brought])
        assert hit.reasons == ["content-match"], hit
        assert hit.snippet and hit.snippet.startswith("1: import { TypeCompiler }"), hit
        # a hit with reasons of its own keeps them
        [kept] = at_definitions(
            locator, "r", query, [file_hit("task/bench/compile.ts", ("semantic",))]
        )
        assert kept.reasons == ["semantic"], kept
