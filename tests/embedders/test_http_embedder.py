"""The OpenAI-compatible provider against an in-memory HTTP transport (an external server)."""

from __future__ import annotations

import json

import httpx

from streams.embedders import NoEmbedder, make_embedder
from streams.embedders.http import HttpEmbedder


def server(fail_first: int = 0, dimension: int = 4, status: int = 503) -> httpx.MockTransport:
    calls = {"n": 0}

    def handle(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v1/models":
            return httpx.Response(200, json={"data": []})
        calls["n"] += 1
        if calls["n"] <= fail_first:
            return httpx.Response(status)
        body = json.loads(request.content)
        data = [
            {"index": i, "embedding": [float(len(t))] + [1.0] * (dimension - 1)}
            for i, t in enumerate(body["input"])
        ]
        return httpx.Response(200, json={"data": list(reversed(data))})

    return httpx.MockTransport(handle)


def test_batches_and_order() -> None:
    e = HttpEmbedder("http://x", "m", 4, batch_size=2, transport=server())
    assert e.is_available()
    r = e.embed(["a", "bb", "ccc"])
    assert r.ok and len(r.vectors) == 3
    assert r.vectors[0][0] < r.vectors[2][0]  # order restored by `index`, normalised
    assert abs(sum(x * x for x in r.vectors[1]) - 1.0) < 1e-9


def test_retries_then_succeeds() -> None:
    e = HttpEmbedder("http://x", "m", 4, backoff_s=0.0, transport=server(fail_first=2))
    assert e.embed(["a"]).ok


def test_gives_up_as_a_value_and_rejects_wrong_dimension() -> None:
    e = HttpEmbedder("http://x", "m", 4, retries=1, backoff_s=0.0, transport=server(9))
    r = e.embed(["a"])
    assert not r.ok and "gave up" in (r.error or "")
    wrong = HttpEmbedder("http://x", "m", 8, transport=server(dimension=4))
    r = wrong.embed(["a"])
    assert not r.ok and "dimension" in (r.error or "")
    bad = HttpEmbedder("http://x", "m", 4, transport=server(1, status=400))
    assert not bad.embed(["a"]).ok


def test_unreachable_is_unavailable() -> None:
    e = HttpEmbedder("http://127.0.0.1:9", "m", 4, retries=0, timeout_s=1.0)
    assert not e.is_available()
    assert not e.embed(["a"]).ok


def test_none_provider() -> None:
    e = make_embedder("none")
    assert isinstance(e, NoEmbedder) and e.space is None and not e.is_available()
    assert not e.embed(["a"]).ok
