"""Of a file's declarations whose names share the query's words alike, the `symbol:` reasons
name first those whose qualifier holds more of them. QA on seanmonstar/reqwest: 'client
builder timeout' named async_impl/client.rs by `Config.connect_timeout` and
`Config.pool_idle_timeout` (fields declared first, each sharing `timeout`), not
`ClientBuilder.timeout`, and the hit's lines followed the first reason."""

from __future__ import annotations

from streams.stores.views.symbol_spans import SymbolSpan, matching_names

ROWS = [
    SymbolSpan("Config.connect_timeout", "connect_timeout", 172, 172),
    SymbolSpan("Config.pool_idle_timeout", "pool_idle_timeout", 175, 175),
    SymbolSpan("Config.timeout", "timeout", 190, 190),
    SymbolSpan("ClientBuilder.timeout", "timeout", 1444, 1447),
    SymbolSpan("timeout", "timeout", 2000, 2010),
]
WEIGHTS = {"client": 1.2, "builder": 1.5, "timeout": 0.8}


def test_the_declaration_whose_qualifier_the_query_names_comes_first() -> None:
    assert matching_names(ROWS, WEIGHTS, 2)[0] == "ClientBuilder.timeout"
    assert matching_names(ROWS, WEIGHTS, 10)[0] == "ClientBuilder.timeout"


def test_names_whose_qualifiers_share_nothing_keep_the_files_order() -> None:
    named = matching_names(ROWS, WEIGHTS, 10)
    assert named == [
        "ClientBuilder.timeout",
        "Config.connect_timeout",
        "Config.pool_idle_timeout",
        "Config.timeout",
        "timeout",
    ]


def test_a_name_sharing_rarer_words_still_comes_before() -> None:
    rows = [*ROWS, SymbolSpan("Pool.builder_timeout", "builder_timeout", 50, 50)]
    assert matching_names(rows, WEIGHTS, 3)[0] == "Pool.builder_timeout"
