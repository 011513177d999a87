"""Of a file's declarations the query names as written, the `symbol:` reasons name the
top-level one before members named the same. QA on valyala/fasthttp: `perIPConnCounter`
pointed peripconn.go at line 45, the field `perIPConn.perIPConnCounter *perIPConnCounter`,
not at `type perIPConnCounter struct` (line 9): the reasons sorted the names alike by their
spelling, and `fasthttp.perIPConn.perIPConnCounter` sorts before
`fasthttp.perIPConnCounter`; the hit's lines follow the first reason."""

from __future__ import annotations

from streams.stores.views.search import _hit


def _reasons(named: dict[str, int]) -> list[str]:
    hit = _hit("repo", "peripconn.go", [1.0, False, True, True], {"peripconn.go": named}, [], None)
    return list(hit.reasons)


def test_the_top_level_declaration_leads_members_named_the_same() -> None:
    reasons = _reasons(
        {
            "fasthttp.perIPConn.perIPConnCounter": 2,
            "fasthttp.perIPConnCounter": 2,
            "fasthttp.perIPTLSConn.perIPConnCounter": 2,
        }
    )
    assert reasons[0] == "symbol:fasthttp.perIPConnCounter", reasons
    assert reasons[-1] == "content-match", reasons


def test_a_qualified_name_the_query_writes_still_comes_first() -> None:
    reasons = _reasons({"fasthttp.perIPConn.perIPConnCounter": 3, "fasthttp.perIPConnCounter": 2})
    assert reasons[0] == "symbol:fasthttp.perIPConn.perIPConnCounter", reasons
