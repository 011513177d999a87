"""Functions that are properties of an object literal bound to a name (TS/JS): `export const
api = { get: (url) => ..., post(url) {...} }`, `module.exports = { stringify: function () {} }`.
They are what callers name (`api.get(...)`), so outline, search's symbol matches and the
bundle's spans need them as declarations nested under the binding, at most two levels deep."""

from __future__ import annotations

from processors.symbols.processor import symbols_of
from tests.processors.test_symbols import FIXTURES, upsert


def declared(name: str, path: str | None = None) -> dict[str, str]:
    body = (FIXTURES / f"{name}.fixture").read_text(encoding="utf-8")
    records = symbols_of(upsert(path or name, body))
    assert records is not None
    return {s.fq_name: s.kind for s in records[0].symbols}


def test_function_properties_of_a_bound_object_literal_are_its_methods() -> None:
    found = declared("object_members.ts")
    for fq in ("api.get", "api.post", "api.delete", "handlers.onRequest", "routes.home"):
        assert found.get(fq) == "Method", fq
    assert found["api"] == "Field"
    assert "api.baseUrl" not in found  # a value, not a function


def test_an_object_literal_two_levels_deep_names_its_members_by_both_keys() -> None:
    found = declared("object_members.ts")
    assert found.get("api.admin.reset") == found.get("api.admin.audit") == "Method"
    assert "api.audit" not in found
    # a third level is not read: a large configuration object cannot fill the outline
    assert not [fq for fq in found if fq.endswith("check")]


def test_the_default_export_object_declares_its_members_at_file_level() -> None:
    assert declared("object_members.ts").get("install") == "Method"


def test_object_literals_not_bound_at_file_level_declare_nothing() -> None:
    found = declared("object_members.ts")
    assert "inArgument" not in found and "local.notASymbol" not in found
    assert not [fq for fq in found if "notASymbol" in fq or "inArgument" in fq]


def test_the_same_in_a_tsx_file() -> None:
    found = declared("object_members.ts", "src/object_members.tsx")
    assert {"api.get", "api.admin.reset", "handlers.onRequest", "install"} <= found.keys()


def test_javascript_object_members_and_module_exports() -> None:
    found = declared("object_members.js")
    for fq in ("handlers.onRequest", "handlers.onError", "handlers.nested.deep", "stringify"):
        assert found.get(fq) == "Method", fq
    assert found.get("entries") == "Method"
    # a function in an array, or in an object passed as an argument, is no member
    assert not [fq for fq in found if "transformRequest" in fq or "inArgument" in fq]


FACTORIES = """\
export function createStore(initial) {
  let state = initial;
  return {
    get: () => state,
    set(next) {
      state = next;
    },
  };
}

const driver: DriverFactory<Options> = (opts) => {
  const data = new Map();
  return {
    name: "memory",
    getItem: async (key) => data.get(key),
    hasItem(key) {
      return data.has(key);
    },
  };
};

export const plugin = () => ({ install: (app) => app });

function notAtTheTop(flag) {
  if (flag) {
    return { inABranch: () => 1 };
  }
  return null;
}
"""


def test_the_object_a_top_level_function_returns_names_its_function_members() -> None:
    # a factory's API (an unstorage driver, a store): its shorthand methods were symbols
    # (`driver.hasItem`), its arrow-valued ones not (`driver.getItem`)
    for path in ("src/factories.ts", "src/factories.tsx"):
        records = symbols_of(upsert(path, FACTORIES))
        assert records is not None
        found = {s.fq_name: s.kind for s in records[0].symbols}
        for fq in ("createStore.get", "createStore.set", "driver.getItem", "driver.hasItem"):
            assert found.get(fq) == "Method", (path, fq)
        assert found.get("plugin.install") == "Method", path
        assert not [fq for fq in found if "inABranch" in fq or fq.endswith(".name")], path


def test_the_same_in_javascript() -> None:
    body = FACTORIES.replace(": DriverFactory<Options>", "")
    records = symbols_of(upsert("src/factories.js", body))
    assert records is not None
    found = {s.fq_name for s in records[0].symbols}
    assert {"createStore.get", "driver.getItem", "plugin.install"} <= found


ASSIGNED = """\
export const middy = (handler) => {
  const stack = [];
  const middy = (event) => handler(event);
  middy.use = (middleware) => {
    stack.push(middleware);
    return middy;
  };
  middy.before = function (fn) {
    return middy.use({ before: fn });
  };
  stack.length = 0;
  other.onClose = () => {};
  return middy;
};

function createApp() {
  const app = {};
  app.listen = (port) => port;
  return app;
}

function setup(el) {
  el.onclick = () => {};
}
"""


def test_the_functions_a_top_level_function_assigns_onto_the_object_it_returns() -> None:
    # QA on middyjs/middy: core/index.js's outline held `middy` but none of the API it builds
    # (`middy.use = (inputMiddleware) => {...}`, `.before`, `.after`, `.onError`), so 'where
    # is the use method of middy defined' found no declaration of it
    for path in ("src/core.js", "src/core.ts"):
        records = symbols_of(upsert(path, ASSIGNED))
        assert records is not None
        found = {s.fq_name: s.kind for s in records[0].symbols}
        for fq in ("middy.use", "middy.before", "createApp.listen"):
            assert found.get(fq) == "Method", (path, fq, sorted(found))
        # assigned onto another object than the one returned, or by a function returning none
        assert not [fq for fq in found if fq.endswith(("onClose", "onclick", "length"))], path
