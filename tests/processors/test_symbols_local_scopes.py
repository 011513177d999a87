"""Names a scope binds for itself, against the imports of the file (PROCESSOR_VERSION 48):

- TS/JS: a function's or a block's own binding (`const path = {...}`, a parameter `t`) of a
  name the file imports shadows the import there; it qualified the inner uses as the
  module's (fastify's tests: `async (t) => { t.plan(1) }` under `const t =
  require('node:test')` read as node:test.plan);
- Python: a class body's import is no name of its methods, and `global x` before `import x`
  in a function binds the module's `x`, as a top-level import does;
- C#: a name before a dot that a type around it declares as a property or field
  (`Value.Length` in a class with a property `Value`) reads that member, not a class `Value`.
"""

from __future__ import annotations

from tests.processors.test_symbols_qa_graph import references

SHADOWED_REQUIRE_JS = """const path = require('./path')
const { join } = require('./helpers')
const t = require('node:test')

function f () {
  const path = { join () {} }
  path.join()
}

function g () {
  path.join()
}

function h (join) {
  join()
}

function k () {
  join()
}

t.test('outer', async (t) => {
  t.plan(1)
})

function loop (items) {
  for (const path of items) {
    path.join()
  }
  path.resolve()
}

function hoisted () {
  if (1) {
    var { join } = { join () {} }
  }
  join()
}

function nested () {
  const path = {}
  return function inner () {
    const path = require('./other')
    path.join()
  }
}
"""


def test_a_local_binding_shadows_a_module_level_require_inside_its_scope_only() -> None:
    """`function f() { const path = {join(){}}; path.join() }` under `const path =
    require('./path')`: the local object's `join`, not the module's; `g`'s `path.join()`
    is still the module's."""
    found = references("lib/a.js", SHADOWED_REQUIRE_JS)
    assert ("f", "join", None) in found, found
    assert ("g", "join", "lib/path.join") in found
    assert ("h", "join", None) in found  # a parameter
    assert ("k", "join", "lib/helpers.join") in found
    assert ("", "test", "node:test.test") in found  # the module's `t`
    assert ("", "plan", None) in found  # the callback's parameter `t`
    assert ("loop", "join", None) in found  # a `for (const path of ...)`
    assert ("loop", "resolve", "lib/path.resolve") in found  # past the loop
    assert ("hoisted", "join", None) in found  # a `var` is its function's
    assert ("nested", "join", "lib/other.join") in found  # an inner function's require wins
    assert not any(q in {"node:test.plan", "lib/helpers.join"} for o, _n, q in found if o == "h")


NAMESPACE_TYPES_TS = """import * as checks from './checks'
import { render } from './render'

export function run(inst: { traits: Set<string> }) {
  const checks: checks.Check[] = inst.traits.has('x') ? [] : []
  checks.push()
  return checks
}

export function rerender(render: { rerender(): void }) {
  render.rerender()
}

export function draw() {
  render()
}
"""


def test_a_typescript_value_does_not_shadow_the_type_of_an_import() -> None:
    """zod's `const checks: checks.$ZodCheck<never>[] = ...` under `import * as checks`: the
    local `checks` is a value; the type annotation still names the namespace's type."""
    found = references("src/schemas.ts", NAMESPACE_TYPES_TS)
    assert ("run", "Check", "src/checks.Check") in found, found
    assert ("run", "push", None) in found  # the local array's
    assert ("rerender", "rerender", None) in found  # the parameter's, not the import's
    assert ("draw", "render", "src/render.render") in found


CLASS_AND_GLOBAL_PY = """class Group:
    from .decorators import command
    import json as js

    @command
    def run(self):
        command()
        js.dumps()

    def other(self):
        command()


def reload():
    global helpers
    import helpers
    helpers.load()


def use():
    helpers.load()


def local():
    import helpers
    helpers.local()


def elsewhere():
    helpers.other()
"""


def test_a_class_body_import_is_no_name_of_its_methods() -> None:
    """In Python a class body's names are not in scope in its methods: `command()` in a
    method calls the module's `command` (none here), not the class body's import; the
    decorator, evaluated in the class body, is the import's (and the reference of the method
    it decorates, whose lines start with it)."""
    found = references("pkg/a.py", CLASS_AND_GLOBAL_PY)
    assert ("pkg.a.Group.run", "command", "pkg.decorators.command") in found, found
    # run's own `command()` is no longer apart: run references the import through `@command`
    assert ("pkg.a.Group.other", "command", None) in found
    assert ("pkg.a.Group.run", "dumps", None) in found
    assert not any(q == "json.dumps" for _o, _n, q in found)


def test_an_import_after_global_binds_the_module_name() -> None:
    """`global helpers` then `import helpers` in `reload()` binds the module's `helpers`,
    which `use()` calls; a function's own `import helpers` stays its own."""
    found = references("pkg/a.py", CLASS_AND_GLOBAL_PY)
    assert ("pkg.a.reload", "load", "helpers.load") in found
    assert ("pkg.a.use", "load", "helpers.load") in found, found
    assert ("pkg.a.local", "local", "helpers.local") in found
    assert ("pkg.a.elsewhere", "other", "helpers.other") in found  # the global one


PROPERTY_BEFORE_DOT_CS = """namespace Shop
{
    record Pair(Token Key, Token Value)
    {
        int Size => Value.Length + Key.Length;
    }

    class Parser
    {
        public Token Value { get; set; }
        private readonly Reader Input, Output;
        int Parse(Token token)
        {
            var a = this.Value.Foo;
            var b = token.Value.Length;
            Input.Read();
            return Value.Length + Limits.Max;
        }

        class Nested
        {
            int Count() => Value.Length + Tokenizer.Count;
        }
    }
}
"""


def test_a_csharp_property_before_a_dot_is_no_type_reference() -> None:
    """`Value.Length` in a class with a property `Value` reads the property; taken for a
    reference, it named any class `Value` of the repository. A class named before a dot
    (`Limits.Max`, `Tokenizer.Count`) is still one (8be49b9)."""
    names = {
        (owner, name) for owner, name, _q in references("src/Parser.cs", PROPERTY_BEFORE_DOT_CS)
    }
    assert {("Shop.Parser.Parse", "Limits"), ("Shop.Parser.Nested.Count", "Tokenizer")} <= names
    assert ("Shop.Parser.Value", "Token") in names  # the property's type
    assert not {name for _owner, name in names} & {"Value", "Key", "Input", "token"}, names


LOCAL_BINDINGS_PY = """from .api import patch, get, head, post, put, delete, options, request
import json

try:
    import ssl
except ImportError:
    ssl = None


def versions(text):
    major, minor, patch = text.split(".")
    return int(patch)


def loop(items):
    for get in items:
        get.run()


def parameter(head):
    return head()


def opened(path):
    with open(path) as post:
        post.read()
    try:
        pass
    except OSError as put:
        put.args()


def nested():
    def delete():
        pass
    delete()


def closure():
    request = 1

    def inner():
        return request()

    return inner


def comprehension(items):
    return [options(json) for json in items], json.dumps(items)


def rebinds():
    global patch
    patch = patch()


def caller():
    patch()
    get()
    head()
    ssl.wrap()
"""


def test_a_python_local_binding_shadows_an_import_of_its_name_in_its_function() -> None:
    """A name a function binds (an assignment's target, unpacked or not, a loop's, a
    parameter, `with ... as`, `except ... as`, a nested `def`) is that function's local
    wherever it is used in it (and in the functions nested in it), not the import of the
    same name: requests' check_compatibility unpacks `major, minor, patch = ...` under
    `from .api import patch`, and was listed among api.py's dependents. A comprehension's
    variable is its own; `global` and module-level rebinding (`ssl = None`) bind the
    module's name."""
    found = references("pkg/__init__.py", LOCAL_BINDINGS_PY)

    def through_import(owner: str, name: str) -> bool:
        api = f"pkg.api.{name}"
        return any(
            o == f"pkg.{owner}" and q is not None and (q == api or q.startswith(api + "."))
            for o, _n, q in found
        )

    for owner, name in [
        ("versions", "patch"),
        ("loop", "get"),
        ("parameter", "head"),
        ("opened", "post"),
        ("opened", "put"),
        ("nested", "delete"),
        ("closure.inner", "request"),
    ]:
        assert not through_import(owner, name), (owner, name, found)
    assert through_import("comprehension", "options")
    assert ("pkg.comprehension", "json", "json") not in found  # the comprehension's variable
    assert ("pkg.comprehension", "dumps", "json.dumps") in found  # outside the comprehension
    assert through_import("rebinds", "patch")  # `global patch`: the module's name
    assert all(through_import("caller", n) for n in ("patch", "get", "head"))
    assert ("pkg.caller", "wrap", "ssl.wrap") in found
