"""TypeScript and JavaScript: ES module and CommonJS imports. A relative specifier names a
repository path (resolved against the importing file's directory, without its extension);
named imports, a default import and a namespace (`* as ns`, `const m = require("m")`) bind
local names to qualified ones; `require("x")` and `import("x")` are imports, not calls.
Here: specifiers, module files and keys, and the import entries' format; how the extractor
reads the statements into them (and the family's LanguageRules): js_ts_imports.py."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeVar

from tree_sitter import Node

_Value = TypeVar("_Value")

JS_EXTENSIONS = frozenset({".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"})


def is_relative(module: str) -> bool:
    return module.startswith(("./", "../")) or module in (".", "..")


def resolve_in(module: str, directory: str) -> str:
    """A TypeScript/JavaScript relative specifier as the repository path it names, without its
    extension: in `src/app/main.ts`, `../orders.js` is `src/orders`. Beyond the repository
    root it stays relative (it names nothing we index)."""
    rest, base = module, directory
    while rest.startswith(("./", "../")):  # the common shapes, without normpath's general walk
        if rest[1] == "/":
            rest = rest[2:]
        elif base:
            base, rest = base.rpartition("/")[0], rest[3:]
        else:
            return module  # beyond the repository root
    if not rest or rest[0] in "./" or "/." in rest or "//" in rest or rest[-1] == "/":
        resolved = posixpath.normpath(posixpath.join(directory, module))  # `./a/../b`, `./`
        if resolved == ".." or resolved.startswith("../"):
            return module
    else:
        resolved = f"{base}/{rest}" if base else rest
    return strip_js_extension(resolved)


def longest_star_match(
    patterns: Iterable[tuple[str, _Value]], text: str
) -> tuple[_Value, str] | None:
    """The value of the `*` pattern with the longest prefix that matches `text`, and what
    its `*` stands for there: how package.json `exports` and tsconfig `paths` pick among
    their patterns (an exact key is looked up before, by the caller)."""
    best: tuple[int, _Value, str] | None = None
    for pattern, value in patterns:
        prefix, star, suffix = pattern.partition("*")
        if (
            star
            and text.startswith(prefix)
            and text.endswith(suffix)
            and len(text) >= len(prefix) + len(suffix)
            and (best is None or len(prefix) > best[0])
        ):
            best = (len(prefix), value, text[len(prefix) : len(text) - len(suffix)])
    return None if best is None else (best[1], best[2])


def strip_js_extension(path: str) -> str:
    """`src/orders.ts` -> `src/orders`: a TS/JS extension as posixpath.splitext finds one
    (after the name's leading dots), at a third of its cost; any other path as it is."""
    slash, dot = path.rfind("/"), path.rfind(".")
    if dot > slash + 1 and path[dot:].lower() in JS_EXTENSIONS and path[slash + 1 : dot].strip("."):
        return path[:dot]
    return path


JS_MODULE_EXTENSIONS = (*sorted(JS_EXTENSIONS), ".d.ts")


def module_candidates(module: str) -> list[str]:
    """The files a TS/JS module (a repository path without extension, as a relative specifier
    resolves) may be: `src/orders` is `src/orders.ts`, `.d.ts`, `.js`, ... or
    `src/orders/index.*`."""
    candidates = [module + ext for ext in JS_MODULE_EXTENSIONS]
    return candidates + [f"{module}/index{ext}" for ext in JS_MODULE_EXTENSIONS]


def module_keys(path: str) -> list[str]:
    """The import entries naming a TS/JS file (its module, as the extractor resolves a
    relative specifier): `lib/context` for `lib/context.js`, and its directory too for an
    `index` file; a declaration file's `.d` goes as well."""
    stem = strip_js_extension(path)
    if stem.endswith(".d"):
        stem = stem[:-2]
    directory, _, base = stem.rpartition("/")
    return [stem, directory] if base == "index" and directory else [stem]


def module_match(qualified: str, path: str, fq_name: str) -> bool:
    """`src/orders.OrderService` (a name imported from the repository file `src/orders.ts`) is
    the top-level declaration `OrderService` of `src/orders.*` or `src/orders/index.*`. Their
    fq names carry no module, so the path is what tells two `OrderService`s apart."""
    module, _, name = qualified.rpartition(".")
    stem = posixpath.splitext(path)[0]
    if stem.endswith(".d"):  # `x.d.ts`
        stem = stem[:-2]
    in_module = module == stem or stem == module + "/index"
    return in_module and fq_name.split("(", 1)[0] == name


# What a TS/JS import hands on, for the dependents resolver (query_api.symbols.js_modules),
# written into the import entry:
# - an import that binds only a namespace (`import * as z from "./external"`, `export * as
#   coerce from "./coerce"`) is `<module>#*<namespace>`: that module's names reach the file's
#   importers as `z.object`, never as `object`;
# - a re-export of named exports (`export { a, b as c } from "./x"`, `export type { T }
#   from`) is `<module>#=<names>` (the names as exported, comma-separated, a renamed one as
#   `c:b`): only those names come from that module;
# - `export * from "./x"` is `<module>#=*`: every name but the default comes through it, and
#   the file uses none of them (the dependents resolver counts a file importing a module as
#   its dependent, a barrel only where it names what it re-exports);
# - any other import (`import { a }`, a default, `require`, `import "./x"`) is the module: any
#   name may come through it.
# A file's own exports under another name (`export { output as infer }`) are an entry without
# a module, `#>infer=output` (exported=declared, comma-separated): the resolver reads `infer`
# of that file as its declaration `output`.
NAMESPACE_MARK = "#*"
REEXPORT_MARK = "#="
LOCAL_EXPORTS_MARK = "#>"  # `#>infer=output,...`: `export { output as infer }`, no module
DEFAULT_EXPORT = "default"  # the name a default import references: `<module>.default`


def namespace_import(module: str, namespace: str) -> str:
    return f"{module}{NAMESPACE_MARK}{namespace}"


STAR_REEXPORT = "*"  # the names of `export * from "x"`: `x#=*`


def star_reexport(module: str) -> str:
    return f"{module}{REEXPORT_MARK}{STAR_REEXPORT}"


def named_reexport(module: str, pairs: Iterable[tuple[str, str]]) -> str:
    """The entry of `export { a, b as c } from "x"`: (name, name as exported) pairs, a
    renamed one written `c:b` (exported, then the name in x)."""
    names = (exported if name == exported else f"{exported}:{name}" for name, exported in pairs)
    return f"{module}{REEXPORT_MARK}{','.join(sorted(set(names)))}"


@dataclass(frozen=True, slots=True)
class ImportEntry:
    """One import entry read back: the module, and what it hands on (see above)."""

    module: str
    namespace: str | None = None  # bound as this namespace only
    names: frozenset[str] | None = None  # re-exports only these names
    renamed: tuple[tuple[str, str], ...] = ()  # the file's own (exported, declared) names
    # a named re-export's names exported under another name: (exported, name in the module)
    origins: tuple[tuple[str, str], ...] = ()

    def hands_on(self, name: str) -> bool:
        """Whether `name`, asked of the importing file, may come from this module: never
        through a namespace, only the names a named re-export lists, and a default export
        only by name (`export * from` hands on every export but the default)."""
        if self.namespace is not None or not self.module:
            return False
        if self.names is None:
            return name != DEFAULT_EXPORT
        return name in self.names


def local_exports(renamed: Iterable[tuple[str, str]]) -> str:
    """The entry of a file's exports under another name: (exported, declared) pairs."""
    return LOCAL_EXPORTS_MARK + ",".join(f"{exported}={local}" for exported, local in renamed)


def split_import_entry(entry: str) -> ImportEntry:
    if entry.startswith(LOCAL_EXPORTS_MARK):
        pairs = (p.partition("=") for p in entry[len(LOCAL_EXPORTS_MARK) :].split(","))
        return ImportEntry("", renamed=tuple((a, b) for a, eq, b in pairs if eq and a and b))
    module, mark, rest = entry.partition(NAMESPACE_MARK)
    if mark:
        return ImportEntry(module, namespace=rest)
    module, mark, rest = entry.partition(REEXPORT_MARK)
    if mark and rest == STAR_REEXPORT:
        return ImportEntry(module)
    if mark:
        parts = [part.partition(":") for part in rest.split(",")]
        origins = tuple((exported, name) for exported, colon, name in parts if colon and name)
        return ImportEntry(
            module, names=frozenset(exported for exported, _, _ in parts), origins=origins
        )
    return ImportEntry(entry)


# where an object type's members stop being anyone's declarations: a function's parameters
# or return type, a method signature's, a heritage clause's type argument, a type parameter's
# constraint or default (`class Elysia<S extends Base = { store: {} }>`)
_SIGNATURE_ONLY = frozenset(
    {
        "type_parameters",
        "function_declaration",
        "generator_function_declaration",
        "function_expression",
        "generator_function",
        "arrow_function",
        "method_definition",
        "method_signature",
        "abstract_method_signature",
        "function_signature",
        "extends_type_clause",
        "class_heritage",
    }
)
_MEMBER_HOMES = frozenset({"interface_body", "type_alias_declaration", "class_body", "program"})


def declared_member(node: Node) -> bool:
    """Whether an object type's member (`a: T;`, `m(): T;`) declares a member of something
    named: an interface's, a type alias's, a class's. One in a type written in a function's
    parameters or return type (`export default function (): { localeError: Map }`, whose
    members had no owner and stood at file level) or in a heritage clause (`extends
    Config<{ responseStyle: T }>`) or in a type parameter's constraint or default (`class
    Elysia<S extends Base = { store: {} }>`: no member `Elysia.store`) is no declaration: the
    TypeScript compiler names none of them.
    Nor is one of a type written in a function's body outside a local interface, type alias
    or class: a cast's (`(req as { _url?: URL })._url`) or a local's annotation (`let r: {
    handler: H }`) named nothing, yet came out as the function's members (h3's
    `_H3Event.constructor._url`, `defineLazyEventHandler.handler`)."""
    parent = node.parent
    while parent is not None and parent.type not in _MEMBER_HOMES:
        if parent.type in _SIGNATURE_ONLY:
            return False
        parent = parent.parent
    return True
