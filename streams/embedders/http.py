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
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.client = httpx.Client(
            base_url=base_url.rstrip("/"),
            timeout=httpx.Timeout(timeout_s, connect=min(5.0, timeout_s)),
            headers=headers,
            transport=transport,
        )

    def is_available(self) -> bool:
        try:
            return self.client.get("/v1/models").status_code < 500
        except httpx.HTTPError:
            return False

    def _post(self, texts: list[str]) -> EmbedResult:
        body = {"model": self.model, "input": texts}
        error = "no attempt made"
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(self.backoff_s * (2 ** (attempt - 1)))
            try:
                response = self.client.post("/v1/embeddings", json=body)
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
        return EmbedResult.failed(f"gave up after {self.retries + 1} attempts: {error}")

    def embed(self, texts: list[str], kind: TextType = "passage") -> EmbedResult:
        prefix = self.prefix[kind]
        out: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            batch = [prefix + t for t in texts[start : start + self.batch_size]]
            result = self._post(batch)
            if not result.ok:
                return result
            out.extend(result.vectors)
        return EmbedResult(vectors=out)

    def close(self) -> None:
        self.client.close()


def _normalise(v: list[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in v))
    return [x / norm for x in v] if norm > 0 else v
