"""A file graph's build shares its reads between the files it resolves (query_api/retrieval/
build_reads.py, one JsModules per build): the graph is the one each file's own answer gives."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.build_reads import BuildSymbolViews
from query_api.retrieval.file_graph import FileGraphs, build_graph
from query_api.symbols.dependents import DependentsResolver
from streams.stores.views.handlers import default_registry
from streams.stores.views.store import ViewStore
from streams.stores.views.symbols import SymbolViews
from tests.streams.symbol_records import records

FILES = {
    "src/index.ts": 'export * from "./parse";\nexport { default as schema } from "./schema";\n',
    "src/parse.ts": "export function parse(x: string) { return x; }\n",
    "src/schema.ts": "export default class Schema { parse(v: string) { return v; } }\n",
    "src/util.ts": "export function parse(x: number) { return x; }\nexport const size = 1;\n",
    "src/a.ts": 'import { parse } from "./index";\nexport const a = parse("1");\n',
    "src/b.ts": 'import Schema from "./schema";\nexport const b = new Schema();\n',
    "src/c.ts": 'import { parse, size } from "./util";\nexport const c = parse(size);\n',
    "src/d.js": 'const { parse } = require("./parse");\nmodule.exports = parse;\n',
    "lib/e.ts": 'import { schema } from "../src/index";\nexport const e = schema;\n',
    "lib/f.ts": 'import * as u from "../src/util";\nexport const f = u.parse(u.size);\n',
}


def _store(tmp_path: Path) -> ViewStore:
    store = ViewStore(tmp_path / "views.db", default_registry())
    batch = [r for path, body in FILES.items() for r in records(path, body)]
    store.apply(batch, {})
    return store


def test_the_shared_build_gives_each_files_own_answer(tmp_path: Path) -> None:
    store = _store(tmp_path)
    graphs = FileGraphs(store)
    try:
        built = graphs._build_graph("r")
        symbols = SymbolViews(store)
        resolver = DependentsResolver(symbols, graphs._text_of)

        def dependents(path: str) -> list[str]:
            declared = symbols.symbols_of_file("r", path)
            return [s.path for s in resolver.dependents("r", declared, exclude={path})]

        alone = build_graph(sorted(FILES), lambda p: resolver.imports("r", p), dependents)
        assert built == alone
        assert "src/parse.ts" in alone["src/a.ts"]  # through the barrel
        assert "src/schema.ts" in alone["src/b.ts"]  # a default import
        assert "src/util.ts" in alone["lib/f.ts"]  # a namespace import
        assert "src/parse.ts" not in alone["src/c.ts"]  # the other parse
    finally:
        graphs.close()
        store.close()


def test_lookups_by_name_answer_as_the_views_do(tmp_path: Path) -> None:
    store = _store(tmp_path)
    try:
        plain, shared = SymbolViews(store), BuildSymbolViews(store)
        for names in (["parse"], ["size", "parse", "size"], ["nothing", "a"], ["parse"], []):
            assert shared.symbols_named("r", names) == plain.symbols_named("r", names), names
        assert len(shared.symbols_named("r", ["parse"])) >= 2  # util's and parse's, at least
    finally:
        store.close()
