"""`http`: any OpenAI-compatible `/v1/embeddings` endpoint (vLLM, TEI, Ollama, LM Studio).

Timeouts on every call, retries with exponential backoff on transport errors and 429/5xx,
inputs split into batches of at most `batch_size`, a health probe (`GET /v1/models`), and
fail-closed results: a wrong count or dimension is a failure value, never vectors.
"""

from __future__ import annotations

import math
import time
from typing import Any

import httpx

from streams.embedders.base import EmbeddingSpace, EmbedResult, TextType

RETRYABLE = {408, 409, 425, 429, 500, 502, 503, 504}
# a query is waited for by a search (query_api/retrieval/ladder.py gives it 10 s): one retry
# and a shorter timeout each, so a held or failing server frees the query's call sooner
QUERY_RETRIES = 1
QUERY_TIMEOUT_S = 5.0


class HttpEmbedder:
    def __init__(
        self,
        base_url: str,
        model: str,
        dimension: int,
        *,
        api_key: str | None = None,
        batch_size: int = 32,
        timeout_s: float = 30.0,
        retries: int = 3,
        backoff_s: float = 0.5,
        query_prefix: str = "",
        passage_prefix: str = "",
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.space: EmbeddingSpace | None = EmbeddingSpace(model, dimension, True)
        self.model = model
        self.dimension = dimension
        self.batch_size = max(1, batch_size)
        self.retries = max(0, retries)
        self.backoff_s = backoff_s
        self.prefix = {"query": query_prefix, "passage": passage_prefix}
        self.query_timeout = httpx.Timeout(
            min(timeout_s, QUERY_TIMEOUT_S), connect=min(5.0, timeout_s, QUERY_TIMEOUT_S)
        )
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.client = httpx.Client(
            base_url=base_of(base_url),
            timeout=httpx.Timeout(timeout_s, connect=min(5.0, timeout_s)),
            headers=headers,
            transport=transport,
        )

    def is_available(self) -> bool:
        try:
            return self.client.get("/v1/models").status_code < 500
        except httpx.HTTPError:
            return False

    def _post(self, texts: list[str], kind: TextType = "passage") -> EmbedResult:
        body = {"model": self.model, "input": texts}
        error = "no attempt made"
        query = kind == "query"
        retries = min(self.retries, QUERY_RETRIES) if query else self.retries
        timeout = self.query_timeout if query else httpx.USE_CLIENT_DEFAULT
        for attempt in range(retries + 1):
            if attempt:
                time.sleep(self.backoff_s * (2 ** (attempt - 1)))
            try:
                response = self.client.post("/v1/embeddings", json=body, timeout=timeout)
            except httpx.HTTPError as exc:
                error = f"{type(exc).__name__}: {exc}"
                continue
            if response.status_code in RETRYABLE:
                error = f"HTTP {response.status_code}"
                continue
            if response.status_code >= 400:
                return EmbedResult.failed(f"HTTP {response.status_code}: {response.text[:200]}")
            try:
                data: list[dict[str, Any]] = response.json()["data"]
                ordered = sorted(data, key=lambda d: int(d.get("index", 0)))
                vectors = [_normalise([float(x) for x in d["embedding"]]) for d in ordered]
            except (ValueError, KeyError, TypeError) as exc:
                return EmbedResult.failed(f"malformed response: {exc}")
            return EmbedResult.checked(vectors, len(texts), self.dimension)
        return EmbedResult.failed(f"gave up after {retries + 1} attempts: {error}")

    def embed(self, texts: list[str], kind: TextType = "passage") -> EmbedResult:
        prefix = self.prefix[kind]
        out: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            batch = [prefix + t for t in texts[start : start + self.batch_size]]
            result = self._post(batch, kind)
            if not result.ok:
                return result
            out.extend(result.vectors)
        return EmbedResult(vectors=out)

    def close(self) -> None:
        self.client.close()


def base_of(url: str) -> str:
    """The server's base: `/v1/embeddings` is appended, so a URL given as `.../v1` or
    `.../v1/embeddings` (as OpenAI clients take it) is cut back to what precedes `/v1`."""
    base = url.rstrip("/")
    for tail in ("/v1/embeddings", "/v1"):
        if base.endswith(tail):
            return base[: -len(tail)]
    return base


def _normalise(v: list[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in v))
    return [x / norm for x in v] if norm > 0 else v
