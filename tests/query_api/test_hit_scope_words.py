"""A hit's lines are found by what a change request says after the scope it opens with, not
by the scope (query_api/retrieval/hit_details.py): the scope names a folder, which the search
lifts (processors/query_scope.py). On feathersjs/feathers, "fix(transport-commons): Handle
invalid service paths on socket lookups" named socket/utils.ts line 13, `const debug =
createDebug('@feathersjs/transport-commons')`, the one line holding both scope words, and
"fix(transport-commons): Properly delete route data" client.ts's alike."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.hit_details import HitLocator, enrich
from schemas import tools as t
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.streams.symbol_records import records

UTILS = "\n".join(
    [
        "import { createDebug } from '@feathersjs/commons'",  # 1
        "",
        "const debug = createDebug('@feathersjs/transport-commons')",  # 3: transport, commons
        "",
        "export function runMethod(app: any, path: string) {",  # 5
        "  const lookup = app.lookup(path)",  # 6: lookup
        "  if (lookup === null) {",  # 7: lookup
        "    throw new Error(`Service '${path}' not found`)",  # 8: service
        "  }",
        "  return lookup",  # 10: lookup
        "}",
        "",
    ]
)
PATH = "packages/transport-commons/src/socket/utils.ts"


def _lines(tmp_path: Path, query: str) -> tuple[int | None, int | None]:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        views.apply(records(PATH, UTILS), {})
        entry = t.EntryView(key=f"repo/r/file/{PATH}", exists=True, kind="File", path=PATH)
        hit = t.SearchHit(score=1.0, entry=entry, reasons=["path-name-match", "content-match"])
        [shown] = enrich(HitLocator(views), "r", query, [hit], details=True).hits
        return shown.startLine, shown.endLine


def test_the_scope_a_request_opens_with_does_not_pick_the_hits_lines(tmp_path: Path) -> None:
    query = "fix(transport-commons): Handle invalid service lookup"
    assert _lines(tmp_path, query) == (5, 11)


def test_a_scope_alone_still_names_lines(tmp_path: Path) -> None:
    """A request whose words after the scope are none of the file's still finds its lines by
    the scope's words."""
    assert _lines(tmp_path, "fix(transport-commons): zebra") == (3, 3)


def test_a_query_that_is_the_files_path_points_at_its_head(tmp_path: Path) -> None:
    """QA on fastapi/typer: `typer/_click/parser.py` as the query pointed the hit at a
    docstring line holding `parser`; an agent naming a file reads its head first."""
    assert _lines(tmp_path, PATH)[0] == 1
    assert _lines(tmp_path, "socket/utils.ts")[0] == 1
    assert _lines(tmp_path, "utils.ts lookup")[0] != 1  # a sentence: the lines it names


FIELD = "\n".join(
    [
        "package zap",  # 1
        "",
        "// Stack constructs a field that stores a stack trace.",  # 3: stack
        "func Stack(key string) Field {",  # 4
        "\treturn StackSkip(key, 1) // skip Stack",  # 5: stack
        "}",
        "",
        "// Any takes a key and an arbitrary value.",  # 8
        "func Any(key string, value interface{}) Field {",  # 9
        "\tswitch val := value.(type) {",
        "\tcase string:",
        "\t\treturn String(key, val)",
        "\tdefault:",
        "\t\treturn Reflect(key, val)",
        "\t}",
        "}",  # 16
        "",
    ]
)


def test_a_scope_that_is_a_qualified_name_still_names_its_declaration(tmp_path: Path) -> None:
    """QA on uber-go/zap: "zap.Any: Reduce stack size with generics" put field.go's lines on
    `Stack` (367-369), its reasons naming `zap.Any` first: the scope, `zap.Any`, was dropped
    with its qualified name, and `stack` picked the lines. A declaration the scope names is
    where the change is."""
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        views.apply(records("field.go", FIELD), {})
        entry = t.EntryView(key="repo/r/file/field.go", exists=True, kind="File", path="field.go")
        hit = t.SearchHit(score=1.0, entry=entry, reasons=["symbol:zap.Any", "content-match"])
        query = "zap.Any: Reduce stack size with generics"
        [shown] = enrich(HitLocator(views), "r", query, [hit], details=True).hits
        assert (shown.startLine, shown.endLine) == (9, 16), shown
