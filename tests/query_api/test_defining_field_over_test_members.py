"""A definition query for a module's variable declared as a member only in tests.

QA on mswjs/msw: `where is http defined` ranked tsup.config.ts (a comment writing
`import { http } from 'msw'`) first and src/core/http.ts, which declares `export const http =
{...}`, second. The variable is a Field, and the test files' `interface Window { msw: { http:
typeof http } }` members are Properties: the declarations other than fields were the tests'
alone, whose role the query does not ask for, so no file was lifted at all."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.defining_files import defining_files
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.streams.symbol_records import records

HTTP = """import { HttpHandler } from './handlers/HttpHandler'

/**
 * A namespace to intercept and mock HTTP requests.
 */
export const http = {
  all: createHttpHandler(/.+/),
  get: createHttpHandler('GET'),
}
"""
TEST = """import { http } from 'msw'

declare global {
  interface Window {
    msw: {
      http: typeof http
    }
  }
}

test('passes through', async () => {})
"""


def _defining(tmp_path: Path, files: dict[str, str], query: str) -> set[str]:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        for path, body in files.items():
            views.apply(records(path, body), {})
        return views.read(lambda conn: defining_files(conn, "r", query))


def test_a_variable_is_meant_over_members_only_tests_declare(tmp_path: Path) -> None:
    files = {
        "src/core/http.ts": HTTP,
        "test/browser/passthrough.test.ts": TEST,
        "test/browser/use.test.ts": TEST,
    }
    assert _defining(tmp_path, files, "where is http defined") == {"src/core/http.ts"}
    # msw's docs call it a namespace (`A namespace to intercept and mock HTTP requests`): the
    # kind word made no definition query, and ws.ts's WebSocketNamespace ranked first
    assert _defining(tmp_path, files, "where is the http namespace defined") == {"src/core/http.ts"}
    # a test's member alone is no file a query for the name means
    del files["src/core/http.ts"]
    (tmp_path / "tests_only").mkdir()
    assert _defining(tmp_path / "tests_only", files, "where is http defined") == set()
