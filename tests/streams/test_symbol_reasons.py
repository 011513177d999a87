"""A file hit's `symbol:` reasons name the declarations that match the query best, not the
first ones in the file that share any word with it.

Found by a QA pass over MCP on ky and requests: 'where are hooks like beforeRequest and
afterResponse invoked' named Ky.ts's `maxErrorResponseBodySize`, `timedOutResponseData` and
`isRequestInstance` (top-of-file constants that share one word) and left out
`#runBeforeRequestHooks` and `#runAfterResponseHooks` (three words each); 'Digest auth fails
...' named auth.py's `_basic_auth_str`, `AuthBase`, `HTTPBasicAuth` and `HTTPProxyAuth`, not
`HTTPDigestAuth`, while the hit's lines pointed at `HTTPDigestAuth`.
"""

from __future__ import annotations

from pathlib import Path

from streams.stores import ViewStore
from streams.stores.views.fields import CONTENT_FIELDS, SYMBOL_FIELDS
from streams.stores.views.handlers import default_registry
from streams.stores.views.search import keyword_hits, name_symbols_of
from tests.streams.symbol_records import records

# Six declarations that share one word of the query come first, then the two it describes.
BODY = """\
MAX_RESPONSE_SIZE = 10
TIMED_OUT_RESPONSE = object()
REQUEST_KINDS = ("get", "post")


def is_request(value):
    return value is not None


def is_response(value):
    return value is not None


def clone_request(value):
    return value


class Client:
    def run_before_request_hooks(self):
        return [hook() for hook in self.before_request]

    def run_after_response_hooks(self, response):
        return [hook(response) for hook in self.after_response]
"""
QUERY = "where are hooks like beforeRequest and afterResponse invoked"
BEST = [
    "symbol:client.Client.run_before_request_hooks",
    "symbol:client.Client.run_after_response_hooks",
]


def _store(tmp_path: Path) -> ViewStore:
    store = ViewStore(tmp_path / "views.db", default_registry())
    store.apply(records("client.py", BODY), {})
    for spec in (CONTENT_FIELDS, SYMBOL_FIELDS):
        assert store.mirror(spec).wait_built(60)
    return store


def _symbols(reasons: tuple[str, ...]) -> list[str]:
    return [reason for reason in reasons if reason.startswith("symbol:")]


def test_the_declarations_sharing_most_words_are_named_first(tmp_path: Path) -> None:
    with _store(tmp_path) as store:
        (hit,) = keyword_hits(store, "r", QUERY, 10)
        assert _symbols(hit.reasons)[:2] == BEST, hit.reasons


def test_named_late_they_come_in_the_same_order(tmp_path: Path) -> None:
    with _store(tmp_path) as store:
        (hit,) = name_symbols_of(store, keyword_hits(store, "r", QUERY, 10, name_symbols=False))
        assert _symbols(hit.reasons)[:2] == BEST, hit.reasons


def test_equally_matching_declarations_keep_their_order_in_the_file(tmp_path: Path) -> None:
    with _store(tmp_path) as store:
        (hit,) = keyword_hits(store, "r", "response", 10)
        assert _symbols(hit.reasons) == [
            "symbol:client.MAX_RESPONSE_SIZE",
            "symbol:client.TIMED_OUT_RESPONSE",
            "symbol:client.is_response",
            "symbol:client.Client.run_after_response_hooks",
        ], hit.reasons


# Six declarations share the common word of the query, the last one its rare word.
RETRY_BODY = """\
class RetryState:
    retry_count = 0


class RetryOptions:
    retry_limit = 2
    retry_methods = ("get",)
    retry_after = None
    jitter = None
"""


def test_a_declaration_sharing_the_rarer_word_is_named_first(tmp_path: Path) -> None:
    """'retry jitter' named four `retry` declarations of ky's types/retry.ts (the first in the
    file) and not `RetryOptions.jitter`: one shared word each, but the rarer word (`retry` is
    in every file here, `jitter` in one) weighs more, so the declaration it names leads."""
    store = ViewStore(tmp_path / "views.db", default_registry())
    with store:
        store.apply(records("options.py", RETRY_BODY), {})
        store.apply(records("client.py", "def send(retry):\n    return retry\n"), {})
        for spec in (CONTENT_FIELDS, SYMBOL_FIELDS):
            assert store.mirror(spec).wait_built(60)
        (hit, _) = keyword_hits(store, "r", "retry jitter", 10)
        assert _symbols(hit.reasons)[0] == "symbol:options.RetryOptions.jitter", hit.reasons
        (late, _) = name_symbols_of(
            store, keyword_hits(store, "r", "retry jitter", 10, name_symbols=False)
        )
        assert _symbols(late.reasons)[0] == "symbol:options.RetryOptions.jitter", late.reasons
