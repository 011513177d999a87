"""Declarations and references a QA pass over real checkouts (click, h3, zod, koa, gson) found
extracted wrong, each pinned by a small inline source and asserted by what was wrong:

- koa's lib/application.js (`module.exports = class Application extends Emitter {...}`) had
  no `Application`, its methods at file level (`constructor`, `listen`, `use`);
- TypeScript members of an object type written in a function's body (a cast's, a local's
  annotation) came out as the function's members (h3's `_H3Event.constructor._url`, zod's
  locales `error.unit`): 542 such symbols in zod, none a declaration;
- a Java record's compact constructor (`public Point { ... }`) was no symbol;
- a Python call through a chain of modules (`click.testing.CliRunner()`) was unqualified,
  so no file depended on the module it names, and `import a.b` bound `b` (Python binds `a`);
- a Python import in a function's body (click's termui.get_pager_file) bound its name in the
  whole file, so other functions' calls of the same name were read as the import's.
"""

from __future__ import annotations

from processors.symbols.languages.js_ts import split_import_entry
from processors.symbols.processor import symbols_of
from schemas.symbols import SymbolDef
from tests.processors.test_symbols import upsert


def symbols(path: str, body: str) -> list[SymbolDef]:
    records = symbols_of(upsert(path, body))
    assert records is not None
    return records[0].symbols


def references(path: str, body: str) -> set[tuple[str, str, str | None]]:
    records = symbols_of(upsert(path, body))
    assert records is not None
    return set(records[1].references)


APPLICATION_JS = """const Emitter = require('events')

module.exports = class Application extends Emitter {
  constructor (options) {
    super()
  }

  listen (...args) {
    return 1
  }
}

exports.Other = class Other { run () {} }
"""


def test_a_named_class_expression_assigned_to_module_exports_is_a_type() -> None:
    found = {
        s.fq_name: (s.kind, s.start_line, s.end_line) for s in symbols("lib/app.js", APPLICATION_JS)
    }
    assert found["Application"] == ("Type", 3, 11)
    assert found["Application.constructor"][0] == found["Application.listen"][0] == "Method"
    assert found["Other"][0] == "Type" and "Other.run" in found
    assert "constructor" not in found and "listen" not in found  # nested, not file level


def test_the_same_class_expression_in_typescript() -> None:
    found = {s.fq_name: s.kind for s in symbols("src/app.ts", APPLICATION_JS)}
    assert found["Application"] == "Type" and found["Application.listen"] == "Method"


CASTS_TS = """export class E {
  url?: URL;
  constructor(req: Request) {
    const _url = (req as { _url?: URL })._url;
    interface Local { kept: string }
    type Alias = { alsoKept: number };
  }
}
export function lazy() {
  let _resolved: { handler: () => void };
  const f = () => (x as { inArrow: 1 }).inArrow;
  return _resolved;
}
const top: { topMember: number } = { topMember: 1 };
"""


def test_object_types_written_in_a_function_body_declare_nothing() -> None:
    found = {s.fq_name for s in symbols("src/casts.ts", CASTS_TS)}
    assert not {"E.constructor._url", "lazy.handler", "lazy.inArrow", "handler"} & found
    # a local interface's or type alias's members, and a file-level annotation's, stay
    assert {"E.constructor.Local.kept", "E.constructor.Alias.alsoKept", "top.topMember"} <= found
    assert {"E", "E.url", "E.constructor", "lazy", "top"} <= found


TYPE_PARAMETERS_TS = """export class Elysia<
  const in out Singleton extends Base = { decorator: {}; store: {} },
  Metadata extends { schema: {} } = {}
> {
  config: string
}
export interface Shape<T = { hidden: 1 }> { shown: T }
export type Alias<T extends { gone: 1 }> = { kept: T }
"""


def test_object_types_in_type_parameters_declare_nothing() -> None:
    # elysia's src/index.ts: `class Elysia<const in out Singleton extends SingletonBase = {
    # decorator: {} ...}>` outlined 18 members Elysia.derive, Elysia.resolve#2, ... that are
    # the defaults' properties, not the class's
    found = {s.fq_name for s in symbols("src/index.ts", TYPE_PARAMETERS_TS)}
    assert found == {"Elysia", "Elysia.config", "Shape", "Shape.shown", "Alias", "Alias.kept"}


RECORD_JAVA = """package a.b;

public record Point(int x, int y) {
    public Point {
        if (x < 0) throw new IllegalArgumentException();
    }
    static Point origin() { return new Point(0, 0); }
}
"""


def test_a_java_records_compact_constructor_is_a_method() -> None:
    found = {
        s.fq_name: (s.kind, s.start_line, s.end_line)
        for s in symbols("a/b/Point.java", RECORD_JAVA)
    }
    assert found["a.b.Point.Point"] == ("Method", 4, 6)
    assert {"a.b.Point", "a.b.Point.x", "a.b.Point.y", "a.b.Point.origin"} <= found.keys()


CHAINS_PY = """import click
import pkg.sub

def f():
    click.testing.CliRunner()
    pkg.sub.helper()
    sub.other()
"""


def test_a_python_call_through_a_chain_of_modules_is_qualified_by_it() -> None:
    found = references("tests/test_x.py", CHAINS_PY)
    assert ("tests.test_x.f", "CliRunner", "click.testing.CliRunner") in found
    assert ("tests.test_x.f", "helper", "pkg.sub.helper") in found  # `import pkg.sub` binds pkg
    assert ("tests.test_x.f", "other", None) in found  # ... and not `sub`


OVERLOADS_TS = """export function define(handler:
  | EventHandler
  | EventHandlerObject): EventHandler;
export function define(handler: string): EventHandler;
export function define(handler: unknown): unknown { return handler }
"""


def test_an_overloads_union_written_with_a_leading_bar_is_named_without_it() -> None:
    """h3's `defineEventHandler(|EventHandler|EventHandlerObject)`: a union written one
    member a line starts with `|`, which the name kept."""
    names = {s.fq_name for s in symbols("src/handler.ts", OVERLOADS_TS)}
    assert "define(EventHandler|EventHandlerObject)" in names, names
    assert not any("(|" in n for n in names)


SCOPED_REQUIRE_JS = """const m = require('./m')
const { describe, it } = require('node:test')

describe('load', () => {
  it('requires', async () => {
    const required = require('../')
    required.default()
    m.top()
  })

  it('builds a set', async () => {
    const required = new Set(['a'])
    required.has('a')
    m.inner()
  })
})

function local () {
  var { helper } = require('./helpers')
  if (helper) {
    const m = require('./other')
    m.shadowed()
    helper()
  }
  m.outer()
}

function elsewhere () {
  helper()
}
"""


def test_a_require_bound_inside_a_function_qualifies_only_inside_it() -> None:
    """koa's __tests__/load-with-esm.test.js: `const required = require('../')` in one test's
    callback and `const required = new Set(...)` in another's; the first binding qualified
    `required.has(...)` in the second as the package's `has`, a false dependent (lib/response.js
    declares `has`). A `const`/`let` binds in its block, a `var` in its function; a module's
    binding still qualifies every function's calls unless one shadows it."""
    found = references("__tests__/load.test.js", SCOPED_REQUIRE_JS)
    assert ("", "default", "..default") in found
    assert ("", "top", "__tests__/m.top") in found
    assert ("", "has", None) in found  # a Set's `has`, not the package's
    assert ("", "inner", "__tests__/m.inner") in found
    assert ("local", "shadowed", "__tests__/other.shadowed") in found
    assert ("local", "helper", "__tests__/helpers.helper") in found  # a `var`: the function's
    assert ("local", "outer", "__tests__/m.outer") in found  # the block's `m` ended
    assert ("elsewhere", "helper", None) in found
    assert not any(q in {"..has", "__tests__/other.outer"} for _o, _n, q in found), found


LOCAL_IMPORTS_PY = """from __future__ import annotations

import typing as t

if t.TYPE_CHECKING:
    from .types import ParamType

try:
    import colorama
except ImportError:
    colorama = None


def get_pager_file(color):
    from ._termui_impl import get_pager_file

    return get_pager_file(color=color)


def echo_via_pager(text, color):
    with get_pager_file(color=color) as pager:
        pager.write(text)


def raw_terminal():
    from ._termui_impl import raw_terminal as f

    def inner():
        return f()

    return inner()


def prompt(text):
    f = input
    try:
        return f(text)
    except exceptions.Abort:
        return None


def pause():
    from . import exceptions

    raise exceptions.Abort


def typed(value: ParamType) -> None:
    colorama.init()


class Group:
    from .decorators import group

    def command(self, *args):
        from .decorators import command

        return command(*args)

    def shell_complete(self, ctx):
        for command in self.commands:
            command.get_short_help_str()
            raise command.Abort
"""


def test_a_python_import_inside_a_function_qualifies_only_inside_it() -> None:
    """click's termui.py: `get_pager_file()` imports `_termui_impl.get_pager_file` in its
    body, and `echo_via_pager` calls termui's own `get_pager_file`; the import's name applied
    file-wide, so related(_termui_impl.py) listed echo_via_pager as a dependent. core.py's
    `from .decorators import command` in Group.command qualified a loop's `command.x()` in
    another method. A function's (or a class body's) import binds in its body, a nested
    function's included; one at module level, under `if TYPE_CHECKING:` or `try:`, in the
    whole file."""
    found = references("src/click/termui.py", LOCAL_IMPORTS_PY)
    termui, impl, decorators = "src.click.termui", "src.click._termui_impl", "src.click.decorators"
    assert (f"{termui}.get_pager_file", "get_pager_file", f"{impl}.get_pager_file") in found
    assert (f"{termui}.echo_via_pager", "get_pager_file", None) in found, found
    assert (f"{termui}.raw_terminal.inner", "raw_terminal", f"{impl}.raw_terminal") in found
    assert (f"{termui}.prompt", "f", None) in found  # a local `f`, not the import's
    assert not any(o == f"{termui}.prompt" and q for o, _n, q in found), found
    assert (f"{termui}.pause", "Abort", "src.click.exceptions.Abort") in found  # a value
    assert (f"{termui}.typed", "ParamType", "src.click.types.ParamType") in found
    assert (f"{termui}.typed", "init", "colorama.init") in found
    assert (f"{termui}.Group.command", "command", f"{decorators}.command") in found
    assert (f"{termui}.Group.shell_complete", "get_short_help_str", None) in found
    assert not any(q and q.startswith(f"{decorators}.command.") for _o, _n, q in found), found
    assert ("", "group", f"{decorators}.group") in found  # the class body's, named by none


# zustand's src/react.ts and src/vanilla.ts: an implementation typed by an overloaded call
# signature is cast (`(... => ...) as Create`), so the value is an as_expression, not the arrow
CAST_FUNCTIONS_TS = """type Create = { <T>(s: T): T; <T>(): (s: T) => T }

export const create = (<T>(createState: T | undefined) =>
  createState ? createImpl(createState) : createImpl) as Create

export const createStore = ((createState) =>
  createState ? createStoreImpl(createState) : createStoreImpl) as unknown as CreateStore

const checked = ((a: number) => a + 1) satisfies (a: number) => number

const wrapped = (function named() {
  return 1
})

export const immer = immerImpl as unknown as Immer

const table = { a: 1 } as const
"""


def test_a_function_cast_to_its_type_is_a_function() -> None:
    found = {s.fq_name: s for s in symbols("src/react.ts", CAST_FUNCTIONS_TS)}
    in_tsx = {s.fq_name: s.kind for s in symbols("src/react.tsx", CAST_FUNCTIONS_TS)}
    for name in ("create", "createStore", "checked", "wrapped"):
        assert found[name].kind == in_tsx[name] == "Function", name
    assert (found["create"].start_line, found["create"].end_line) == (3, 4)
    assert (found["createStore"].start_line, found["createStore"].end_line) == (6, 7)
    assert found["create"].signature.startswith("const create = (<T>(createState: T | undefined)")
    # a cast of a value that is no function literal stays a value
    assert found["immer"].kind == "Field"
    assert found["table"].kind == "Field"


# TypeScript's CommonJS import (`import x = require("./x")`, what a file compiled to CommonJS
# writes for a module that assigns `export =`) recorded no import: related(helper.ts) had no
# dependent, and forms.ts no import
REQUIRE_IMPORT_TS = """import helper = require("./helper")
import fs = require("fs")

export function run(): string {
  return helper.format(fs.readFileSync("x", "utf8"))
}
"""


def test_a_typescript_import_require_is_an_import() -> None:
    for path in ("src/forms.ts", "src/forms.tsx"):
        records = symbols_of(upsert(path, REQUIRE_IMPORT_TS))
        assert records is not None
        modules = {split_import_entry(e).module for e in records[1].imports}
        assert {"src/helper", "fs"} <= modules, path
        refs = set(records[1].references)
        assert ("run", "format", "src/helper.format") in refs, path
        assert ("run", "readFileSync", "fs.readFileSync") in refs, path


# a dynamic import (`await import("./lazy")`, a router's `() => import("./pages/About")`)
# recorded no import in TS or JS: the module it loads had no dependent, the file no import
DYNAMIC_IMPORT = """export async function load() {
  const lazy = await import("./lazy")
  const { heavy } = await import("./heavy")
  return lazy.run() + heavy()
}

export const routes = [{ path: "/about", component: () => import("./pages/About") }]

export function other() {
  return lazy.run()
}
"""


def test_a_dynamic_import_is_an_import() -> None:
    for path in ("src/app.ts", "src/app.tsx", "src/app.js"):
        records = symbols_of(upsert(path, DYNAMIC_IMPORT))
        assert records is not None
        modules = {split_import_entry(e).module for e in records[1].imports}
        assert {"src/lazy", "src/heavy", "src/pages/About"} <= modules, path
        refs = set(records[1].references)
        assert ("load", "run", "src/lazy.run") in refs, path
        assert ("load", "heavy", "src/heavy.heavy") in refs, path
        # bound in load() only: other()'s `lazy` is not the import
        assert ("other", "run", "src/lazy.run") not in refs, path
