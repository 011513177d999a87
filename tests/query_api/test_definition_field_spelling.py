"""`where is the negotiator defined`, whose lower-case name the repository declares only as a
field (`negotiator: Negotiator` of the class Accepts), is read as the class `Negotiator` it
declares in another case: a field holding an instance is no definition of the thing. QA on
tinyhttp/tinyhttp ranked packages/accepts/src/index.ts:11 (`negotiator: Negotiator`) above
packages/accepts/src/negotiator.ts's `export class Negotiator`."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.defining_files import declared_spelling
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.streams.symbol_records import records

FILES = {
    "src/negotiator.ts": (
        "export class Negotiator {\n  charsets(): string[] {\n    return []\n  }\n}\n"
    ),
    "src/accepts.ts": (
        "import { Negotiator } from './negotiator'\n\n"
        "export class Accepts {\n  negotiator: Negotiator\n  headers: string\n}\n"
    ),
    "src/headers.ts": "export function headers(): string[] {\n  return []\n}\n",
}


def _spelled(tmp_path: Path, query: str) -> str:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        for path, body in FILES.items():
            views.apply(records(path, body), {})
        return views.read(lambda conn: declared_spelling(conn, "r", query))


def test_a_name_declared_as_written_only_as_a_field_is_read_as_its_type(tmp_path: Path) -> None:
    assert _spelled(tmp_path, "where is the negotiator defined") == (
        "where is the Negotiator defined"
    )


def test_a_field_is_kept_where_the_query_asks_for_its_users_or_nothing_else_is_declared(
    tmp_path: Path,
) -> None:
    assert _spelled(tmp_path, "what calls negotiator") == "what calls negotiator"
    # `headers` is a function as written, besides the field: as given
    assert _spelled(tmp_path, "where is headers defined") == "where is headers defined"
