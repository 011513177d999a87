"""Which declaration a TS/JS module's default export is, read from its text
(query_api/symbols/js_default_export.py), and the users of a top-level declaration it is not:
on koa, `what calls respond` counted `(await import('koa')).default` in a test as a use of
`respond`, a private function of lib/application.js, whose `module.exports = class
Application` says what the default export is."""

from __future__ import annotations

from pathlib import Path

from processors.symbols.languages.js_ts import DEFAULT_EXPORT
from query_api.symbols.js_default_export import default_export_name
from query_api.symbols.js_family import JsFamily, default_export
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from streams.stores.views.symbols import SymbolRow, SymbolViews

APPLICATION = "module.exports = class Application {\n}\n\nfunction respond(ctx) {}\n"


def test_the_default_export_s_name_as_the_text_writes_it() -> None:
    assert default_export_name(APPLICATION) == "Application"
    assert default_export_name("export default class ValidationError {}") == "ValidationError"
    assert default_export_name("export default async function load() {}") == "load"
    assert default_export_name("const x = 1\nexport default x;\n") == "x"
    assert default_export_name("export { build as default }") == "build"
    assert default_export_name("export default function () {}") is None  # anonymous
    assert default_export_name("export default { a: 1 }") is None
    assert default_export_name("function respond() {}") is None


def _row(path: str, fq: str, kind: str) -> SymbolRow:
    return SymbolRow("r", path, fq, fq.rpartition(".")[2], kind, 1, 2, "d", "")


def test_a_default_named_otherwise_stands_for_none_of_the_other_declarations(
    tmp_path: Path,
) -> None:
    texts = {"lib/application.js": APPLICATION, "lib/helper.js": "export default () => 1\n"}
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        family = JsFamily(SymbolViews(views), "r", texts.get)
        for path, name, kept in (
            ("lib/application.js", "respond", False),
            ("lib/application.js", "Application", True),
            ("lib/helper.js", "helper", True),  # an anonymous default may be any of them
        ):
            declared = [_row(path, name, "Function")]
            by_name = {name: declared, DEFAULT_EXPORT: [default_export("r", path)]}
            family.narrow_stand_ins(by_name, declared)
            assert (DEFAULT_EXPORT in by_name) is kept, (path, name)
