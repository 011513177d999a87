"""A definition query for a name no file declares, one the repository takes from another
package (`where is createHttpError defined`), lifts the files naming it from that package:
QA on oakserver/oak, deps.ts re-exports `createHttpError` from `jsr:@oak/commons/http_errors`
and every other file imports it from `./deps.ts`; nothing was lifted, and deps.ts was not
among the first ten hits (those were the files importing it from deps.ts, with the note
that none of them declares it)."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.defining_files import declared_spelling, defining_files
from query_api.retrieval.definition_sites import at_definitions, no_definition_note
from query_api.retrieval.hit_details import HitLocator
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.query_api.located import file_hit, located_hits
from tests.streams.symbol_records import records

DEPS = (
    "export {\n"
    "  createHttpError,\n"
    "  HttpError,\n"
    '} from "jsr:@oak/commons@^1.0/http_errors";\n'
    'export { matches } from "jsr:@oak/commons@^1.0/media_types";\n'
)
BODY = (
    'import { createHttpError } from "./deps.ts";\n\n'
    "export function parse(text: string): string {\n"
    '  if (!text) throw createHttpError(400, "no body");\n'
    "  return text;\n"
    "}\n"
)
MOD = 'export { createHttpError, HttpError } from "./deps.ts";\n'
LOCAL = "export function matches(a: string): boolean {\n  return a.length > 0;\n}\n"


def _defining(views: ViewStore, query: str) -> set[str]:
    return views.read(lambda conn: defining_files(conn, "r", query))


def test_the_file_taking_a_name_from_another_package_is_its_definition(
    tmp_path: Path,
) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        for path, text in (("deps.ts", DEPS), ("body.ts", BODY), ("mod.ts", MOD)):
            views.apply(records(path, text), {})
        for query in ("where is createHttpError defined", "where is HttpError defined"):
            assert _defining(views, query) == {"deps.ts"}, query


def test_a_name_the_repository_declares_keeps_its_declaration(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        for path, text in (("deps.ts", DEPS), ("utils/matches.ts", LOCAL)):
            views.apply(records(path, text), {})
        assert _defining(views, "where is matches defined") == {"utils/matches.ts"}
        # a name nobody references nor declares lifts nothing
        assert _defining(views, "where is nowhereName defined") == set()


DEPS_LONG = (
    "// 3rd party dependencies\n\n"
    'export { KeyStack } from "jsr:@oak/commons@^1.0/keystack";\n'
    "export {\n"
    "  createHttpError,\n"
    "  errors,\n"
    "  HttpError,\n"
    "  type HttpErrorOptions,\n"
    "  isHttpError,\n"
    '} from "jsr:@oak/commons@^1.0/http_errors";\n'
)


def test_the_hit_points_at_the_name_in_its_re_export(tmp_path: Path) -> None:
    """deps.ts's hit kept the lines sharing the most words (42-45: createHttpError,
    HttpError, HttpErrorOptions): a re-export is no import statement, so nothing pointed it
    at the line naming HttpError whole. Its snippet adds the statement's specifier: where
    the name comes from."""
    [shown] = located_hits(
        tmp_path, {"deps.ts": DEPS_LONG}, "where is HttpError defined", at_definitions
    )
    assert (shown.startLine, shown.endLine) == (7, 10), shown
    assert shown.snippet == '7: HttpError,\n10: } from "jsr:@oak/commons@^1.0/http_errors";'


RESPONSE = (
    'import { Status } from "./deps.ts";\n\n'
    "export class Response {\n"
    "  #status?: Status;\n"
    "  get status(): Status {\n"
    "    return this.#status ?? 404;\n"
    "  }\n"
    "}\n"
)
STATUS_DEPS = 'export { Status, STATUS_TEXT } from "jsr:@oak/commons@^1.0/status";\n'


def test_a_name_taken_from_another_package_is_not_respelled(tmp_path: Path) -> None:
    """`where is Status defined` was read as `where is status defined` (Response's getter,
    alike but for case: declared_spelling), and lifted response.ts: the name the repository
    takes from another package is the one asked for."""
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        views.apply(records("deps.ts", STATUS_DEPS), {})
        views.apply(records("response.ts", RESPONSE), {})
        query = "where is Status defined"
        assert views.read(lambda conn: declared_spelling(conn, "r", query)) == query
        assert _defining(views, query) == {"deps.ts"}
        # a name alike but for case that nothing takes from elsewhere is still respelled
        respelled = views.read(lambda conn: declared_spelling(conn, "r", "where is STATUS defined"))
        assert respelled == "where is status defined"


def test_a_capitalised_name_is_not_declared_by_a_member_spelled_lower(tmp_path: Path) -> None:
    """`where is Status defined` took Response's `get status()` for Status's declaration
    (declaration_of matched case-insensitively): response.ts was pointed at the getter,
    deps.ts at lines sharing the word (`type ErrorStatus,`), and no note said that no hit
    declares Status. A name written with a capital matches declarations spelled so."""
    files = {"deps.ts": STATUS_DEPS, "response.ts": RESPONSE}
    deps, response = located_hits(tmp_path, files, "where is Status defined", at_definitions)
    assert deps.snippet is not None and deps.snippet.startswith("1: export { Status,"), deps
    assert response.startLine != 5, response  # not at `get status(): Status {`
    with ViewStore(tmp_path / "note.db", default_registry()) as views:
        for path, text in files.items():
            views.apply(records(path, text), {})
        hits = [file_hit(path) for path in files]
        note = no_definition_note(HitLocator(views), "r", "where is Status defined", hits)
    assert note == "none of these hits declares Status"
