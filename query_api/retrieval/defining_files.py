"""The files a definition query means (`where is the Value interface defined`, `Value
interface`): those declaring the name, of the kind it asks for, first.

The vectors read such a query as prose about values, and keyword search as the word `value`:
QA on spf13/pflag ranked golangflag.go (`flagValueWrapper`) and int.go (`intValue`) above
flag.go, the one file declaring `type Value interface`. The declaring files are lifted to the
head as a path the query names is (declared_first), and brought in when the pool lacks them.
A name written in another case than its declaration's (`where is multidict defined`) is read
as the declared one (declared_spelling). A name no file declares, one a TypeScript or
JavaScript file takes from another package (`export { createHttpError } from
"jsr:@oak/commons/http_errors"`), is defined for the repository by the files taking it so
(entering_files): QA on oakserver/oak, `where is createHttpError defined` left deps.ts out of
the first ten, below the files importing it from deps.ts.
"""

from __future__ import annotations

import re
import sqlite3
from functools import partial
from pathlib import PurePosixPath

from processors.path_roles import Role, role_of
from processors.query_mentions import phrase_query
from processors.symbols.languages.js_ts import JS_EXTENSIONS
from processors.symbols.reference_sites import MACRO_BANG, UNRESOLVED
from processors.tokenizer import tokenize
from query_api.retrieval.builds_last import generated_of, sources_over_builds
from query_api.retrieval.contract_files import contract_files
from query_api.retrieval.definition_sites import (
    FIELD_KIND,
    asked_kinds,
    defined_name,
    preferred_kinds,
    scoped_type,
)
from query_api.retrieval.export_aliases import exported_local
from query_api.retrieval.implementations import (
    asks_implementations,
    implemented_type,
    implements_as_asked,
)
from query_api.retrieval.member_bodies import function_body_line, type_members
from query_api.retrieval.module_kind import asks_module, rust_module_files
from query_api.retrieval.users_first import used_name, value_spelled
from streams.stores.views.read import files_with_path_words, get_content, paths_matching
from streams.stores.views.search import role_prior, roles_in
from streams.stores.views.symbol_decls import names_alike
from streams.stores.views.symbols import SymbolRow, module_files, references_to, symbols_named

OTHER_KIND = "Other"  # an alias, an associated type, a macro: no type, function or field
MAX_DEFINING = 5  # more files declaring the name: it is too common to say which is meant
_LOOKUP = 200  # declarations of the name read
_SPELLINGS = 6  # names alike but for case weighed, most declared first
CALLABLE_KINDS = frozenset({"Function", "Method"})


def defining_files(conn: sqlite3.Connection, repo_id: str, query: str) -> set[str]:
    """The files declaring the name the query asks the definition of (its last part, for a
    qualified name: its qualifier is search's), of the kinds it asks for, members (fields)
    only when nothing else of a role the query asks for is declared so (a test's mock is
    none); for a name more than MAX_DEFINING files declare, the files declaring what the
    others implement (contract_files), else none."""
    name = defined_name(query)
    if name is None:
        return set()
    last = [part for part in re.split(r"\.|::|#", name) if part][-1]
    declarations = defining_declarations(conn, repo_id, query)
    if declarations is None:  # declared nowhere here: another package's, or an alias
        found = exporting_as(conn, repo_id, last) or entering_files(conn, repo_id, last)
        found = found or implementing_files(conn, repo_id, last, query)
        return found or named_source_files(conn, repo_id, last)
    paths = {row.path for row in declarations}
    if len(paths) <= MAX_DEFINING and asks_module(asked_kinds(query)):  # `mod x;`, x/mod.rs
        return paths | rust_module_files(conn, repo_id, declarations)
    if len(paths) <= MAX_DEFINING:  # a type's member: its factory's function, above it
        return implementing_bodies(conn, repo_id, query) or paths
    return contract_files(conn, repo_id, declarations)


def defining_contracts(conn: sqlite3.Connection, repo_id: str, query: str) -> set[str]:
    """Of the files a definition query means, those declaring the contract the others
    implement (contract_files), which go first: JsonParser's abstract `getNumberType` above
    the three parsers overriding it."""
    declarations = defining_declarations(conn, repo_id, query)
    return contract_files(conn, repo_id, declarations) if declarations else set()


def defining_declarations(
    conn: sqlite3.Connection, repo_id: str, query: str
) -> list[SymbolRow] | None:
    """The declarations a definition query means (defining_files), or None when the
    repository declares none of the name."""
    name = defined_name(query)
    if name is None:
        return None
    *qualifier, last = [part for part in re.split(r"\.|::|#", name) if part]
    kinds = asked_kinds(query)
    # a Rust macro is declared as `ffi_fn!` (MACRO_BANG): `where is ffi_fn defined` means it
    # too (QA on hyperium/hyper ranked src/ffi/macros.rs 9th, below files invoking it)
    dunder = f"__{last}__"  # Python's module dunder: `__version__` for `the version`
    names = [last, last + MACRO_BANG, dunder]
    rows = [
        row for row in symbols_named(conn, repo_id, names, _LOOKUP, _LOOKUP) if row.name in names
    ]
    if not rows:
        return None
    rows = [row for row in rows if not kinds or row.kind in kinds]
    rows = [row for row in rows if row.kind in preferred_kinds(query)] or rows
    if not rows and asks_module(kinds):  # no `mod x;`: a module of files (module_kind.py)
        return None
    # of the roles the query asks for (no test's mock): a module's variable declared so
    # (msw's `export const http = {...}`) is meant over members only tests declare
    # (`interface Window { msw: { http: typeof http } }`: QA on mswjs/msw lifted no file)
    asked = roles_in(query)
    rows = [row for row in rows if role_prior(row.path, asked) >= 1.0]
    # a committed build declares each name of its sources again (builds_last.py)
    paths = {row.path for row in rows}
    kept = sources_over_builds(paths, generated_of(conn, repo_id, paths), query)
    rows = [row for row in rows if row.path in kept]
    # a module's dunder is the package's own (`where is the version defined`): a field
    # named `version` is some object's. QA on PyCQA/flake8 ranked plugins/finder.py's
    # `Plugin.version` field first and src/flake8/__init__.py (`__version__ = "7.3.0"`) fifth
    rows = [row for row in rows if row.name == dunder and "." not in last] or rows
    declarations = [row for row in rows if row.kind != FIELD_KIND] or rows
    declarations = [row for row in declarations if not member_alias(row)] or declarations
    declarations = qualified_by(declarations, qualifier) or declarations
    typed = implemented_type(query) or scoped_type(query)  # `the indices method of X`
    return _of_type(declarations, typed) if not qualifier else declarations


def _of_type(declarations: list[SymbolRow], typed: str | None) -> list[SymbolRow]:
    """Of the declarations, those of the type a question asking where a method is
    implemented names (`where is Readdir implemented for UnionFile`) or a definition query
    says to look in (`the indices method of EnhancedDoubleHasher`), when one is: QA on
    spf13/afero ranked afero.go, declaring the File interface's Readdir (the contract), above
    unionFile.go declaring UnionFile.Readdir; all of them when none is that type's."""
    if typed is None:
        return declarations
    folded = typed.casefold()
    owned = [
        row
        for row in declarations
        if [part.casefold() for part in re.split(r"\.|::|#", row.fq_name)[-2:-1]] == [folded]
    ]
    return owned or declarations


def member_alias(row: SymbolRow) -> bool:
    """Whether a declaration names a type for its owner: a member of kind Other of a type
    (a capitalised owner; Go's `b.Level` is its package's, Rust's `m.Q` its module's), as
    Rust's associated types (`type Deserializer = Self;` in an impl, `type Error;` in a trait)
    are. It binds the name to a type that is declared elsewhere, so it is no definition of
    a type of that name while another declaration is. QA on serde-rs/json: `where is
    Deserializer defined` lifted three impls' `type Deserializer = ...` beside src/de.rs's
    `pub struct Deserializer`, and put src/value/de.rs first; `where is Value defined`
    lifted nothing, the many `type Value = ...` of visitors passing MAX_DEFINING."""
    owner = row.fq_name.rpartition(".")[0].rpartition(".")[2]
    return row.kind == OTHER_KIND and owner[:1].isupper()  # a type's, not a package's


def qualified_by(rows: list[SymbolRow], qualifier: list[str]) -> list[SymbolRow]:
    """The declarations whose qualified name or path holds every part of the query's
    `qualifier` as a segment: QA on fastapi/typer, `where is _click.Context defined` ranked
    typer/models.py (`class Context(_click.Context)`, a subclass of that name) above
    typer/_click/core.py, the package `_click` declaring it."""
    if not qualifier:
        return rows
    wanted = {part.casefold() for part in qualifier}

    def segments(row: SymbolRow) -> set[str]:
        path = PurePosixPath(row.path)
        parts = [*path.parent.parts, path.stem, *re.split(r"\.|::|#", row.fq_name)]
        return {part.casefold() for part in parts}

    return [row for row in rows if wanted <= segments(row)]


_NAME_WORD = re.compile(r"[A-Za-z0-9]+")
_NAMED_LOOKUP = 50  # paths holding the name's words read


def named_source_files(conn: sqlite3.Connection, repo_id: str, name: str) -> set[str]:
    """The source files whose file name holds `name` as one of its words (`cli-main.ts`,
    `cli_node.py` for CLI), for a name no file declares, exports or takes in: what the name
    means here is the code kept under it. QA on egoist/tsup, `where is the CLI defined`
    ranked index.ts and options.ts (`CLI flags` in comments) above src/cli-main.ts, and
    cli-default.ts fifth. None when more than MAX_DEFINING files are named so."""
    wanted = name.casefold()
    paths = {
        path
        for path in files_with_path_words(conn, repo_id, name, _NAMED_LOOKUP)
        if wanted in (w.casefold() for w in _NAME_WORD.findall(PurePosixPath(path).stem))
        and role_of(path) == Role.SOURCE
    }
    return paths if len(paths) <= MAX_DEFINING else set()


def entering_files(conn: sqlite3.Connection, repo_id: str, name: str) -> set[str]:
    """The TypeScript or JavaScript files whose references qualify `name` by a module that
    is no file of the repository (`jsr:@oak/commons/http_errors.createHttpError`, not
    `deps.createHttpError`): where a name another package declares comes in. None when
    more than MAX_DEFINING files do (a name imported everywhere says nothing)."""
    paths: set[str] = set()
    external: dict[str, bool] = {}
    for row in references_to(conn, repo_id, [name], limit=_LOOKUP, total=_LOOKUP):
        module = (row.qualified or "").rpartition(".")[0]
        if (
            module in ("", UNRESOLVED)
            or PurePosixPath(row.path).suffix.casefold() not in JS_EXTENSIONS
        ):
            continue
        if module not in external:
            external[module] = not module_files(conn, repo_id, module)
        if external[module]:
            paths.add(row.path)
    return paths if len(paths) <= MAX_DEFINING else set()


def declared_spelling(conn: sqlite3.Connection, repo_id: str, query: str) -> str:
    """The definition query with its name spelled as the repository declares it, when it
    declares no name as written but one alike but for case: `where is multidict defined`
    matched werkzeug's `MultiDict` nowhere (a QA pass on pallets/werkzeug: test.py's
    `_args: MultiDict[...]` first, the declaring file second with no `symbol:` reason). Of
    several, the one of a kind the query asks for, then one no field, then the most declared.
    A query for a name's users alike (`what calls splitGraphemes`: QA on Textualize/rich, its
    note said no hit uses it, where two files call `split_graphemes`). Not a name the
    repository takes from another package as written (entering_files): QA on oakserver/oak,
    `where is Status defined` was read as Response's `status` getter."""
    name = defined_name(query) or used_name(query)
    if name is None:
        return query
    last = [part for part in re.split(r"\.|::|#", name) if part][-1]
    alike = names_alike(conn, repo_id, last, _SPELLINGS)
    if defined_name(query) is None:  # whose users: a value's, not a type's (value_spelled)
        alike = [(spelled, n) for spelled, n in alike if value_spelled(last, spelled)]
    if any(spelled == last for spelled, _ in alike) and defined_name(query):
        # as written, only a field holding it (`negotiator: Negotiator`): the type is meant
        beyond = partial(_declared_beyond_fields, conn, repo_id)
        alike = [] if beyond(last) else [(s, n) for s, n in alike if s != last and beyond(s)]
    if not alike or any(spelled == last for spelled, _ in alike):
        return query
    if entering_files(conn, repo_id, last):  # oak's `Status`, not Response's `status`
        return query
    if imported_as_written(conn, repo_id, last):  # `FromStr`, not `from_str`
        return query
    if defined_name(query) and asks_implementations(query):  # the trait as written: `impl
        return query  # Default for X` is not `fn default`, its implementations' method
    if symbols_named(conn, repo_id, [last + MACRO_BANG], 1, 1):
        return query
    kinds = asked_kinds(query)

    def weight(spelled_files: tuple[str, int]) -> tuple[bool, bool, int]:
        spelled, files = spelled_files
        rows = symbols_named(conn, repo_id, [spelled], _LOOKUP, _LOOKUP)
        asked = bool(kinds) and any(row.kind in kinds for row in rows)
        return asked, any(row.kind != FIELD_KIND for row in rows), files

    spelled = max(alike, key=weight)[0]
    written = list(re.finditer(rf"(?<![\w$]){re.escape(last)}(?![\w$])", query))
    if not written:
        return query
    at = written[-1]
    return query[: at.start()] + spelled + query[at.end() :]


def _declared_beyond_fields(conn: sqlite3.Connection, repo_id: str, name: str) -> bool:
    """Whether the repository declares `name`, as written, as anything but a field. QA on
    tinyhttp/tinyhttp: `where is the negotiator defined` put Accepts's field `negotiator:
    Negotiator` above the class Negotiator, the definition an agent asking so means."""
    rows = symbols_named(conn, repo_id, [name], _LOOKUP, _LOOKUP)
    return any(row.name == name and row.kind != FIELD_KIND for row in rows)


def imported_as_written(conn: sqlite3.Connection, repo_id: str, name: str) -> bool:
    """Whether a file takes `name`, spelled so, from a module (`use core::str::FromStr;`):
    a name no file declares but one imports is another package's, not a declared name alike
    but for case. QA on serde-rs/json: `where is FromStr implemented for Value` was read as
    `from_str` and pointed src/value/de.rs at `fn from_str`, not at `impl FromStr for
    Value`."""
    rows = references_to(conn, repo_id, [name], limit=_LOOKUP, total=_LOOKUP)
    return any(
        row.name == name and "." in (row.qualified or "") and row.qualified != UNRESOLVED
        for row in rows
    )


def implementing_files(conn: sqlite3.Connection, repo_id: str, name: str, query: str) -> set[str]:
    """For `where is X implemented (for T)` of a trait or interface no file declares (Rust's
    `FromStr`, `Display`), the files referencing it that implement it (for T): what such a
    query asks for. QA on serde-rs/json: `where is the FromStr trait implemented for Map`
    ranked src/value/de.rs (`impl FromStr for Map<String, Value>`) below the first ten. None
    when more than MAX_DEFINING files do."""
    if not asks_implementations(query):
        return set()
    referencing = {
        row.path for row in references_to(conn, repo_id, [name], limit=_LOOKUP, total=_LOOKUP)
    }
    paths: set[str] = set()
    for path in sorted(referencing):
        content = get_content(conn, repo_id, path)
        if content is not None and implements_as_asked(content.body.split("\n"), name, query):
            paths.add(path)
    return paths if len(paths) <= MAX_DEFINING else set()


MAX_ALIASING = 20  # files holding the name read for an export list renaming a local to it


def exporting_as(conn: sqlite3.Connection, repo_id: str, name: str) -> set[str]:
    """The TypeScript or JavaScript files exporting a declaration of their own as `name` (`export
    { buildStore as INTERNAL_buildStoreRev2 }`, no `from`): the name is that module's. QA on
    pmndrs/jotai, `where is INTERNAL_buildStoreRev2 defined` ranked the tests importing it
    above src/vanilla/internals.ts."""
    words = tuple(tokenize(name))
    if not words:
        return set()
    paths: set[str] = set()
    for path in paths_matching(conn, repo_id, phrase_query(words, "body_terms"), MAX_ALIASING):
        if PurePosixPath(path).suffix.casefold() not in JS_EXTENSIONS:
            continue
        content = get_content(conn, repo_id, path)
        if content is not None and exported_local(path, content.body, name) is not None:
            paths.add(path)
    return paths if len(paths) <= MAX_DEFINING else set()


def implementing_bodies(conn: sqlite3.Connection, repo_id: str, query: str) -> set[str]:
    """The TS/JS source files implementing in a function's body the name a definition query
    asks for, when the repository declares it only as members of types (one written
    unqualified, asked as no kind or as a function or method); none when more than
    MAX_DEFINING files do."""
    name = defined_name(query)
    if name is None or re.search(r"\.|::|#", name):
        return set()  # `UseFormReturn.setValue` asks for the type's member
    kinds = asked_kinds(query)
    if kinds and not kinds & CALLABLE_KINDS:
        return set()
    asked = roles_in(query)
    rows = [
        row
        for row in symbols_named(conn, repo_id, [name], _LOOKUP, _LOOKUP)
        if row.name == name and role_prior(row.path, asked) >= 1.0
    ]
    if not rows or not type_members(conn, repo_id, rows):
        return set()
    found: set[str] = set()
    for path in paths_matching(
        conn, repo_id, phrase_query(tuple(tokenize(name)), "body_terms"), _LOOKUP
    ):
        if PurePosixPath(path).suffix.casefold() not in JS_EXTENSIONS:
            continue
        if role_of(path) != Role.SOURCE:
            continue
        content = get_content(conn, repo_id, path)
        if content is not None and function_body_line(content.body, name) is not None:
            found.add(path)
    return found if len(found) <= MAX_DEFINING else set()
