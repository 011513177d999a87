"""A deterministic embedder for ladder tests that must provoke failures on demand (the real
local embedder is tested in tests/embedders and over MCP in tests/integration)."""

from __future__ import annotations

import hashlib
import math
import re

from streams.embedders.base import EmbeddingSpace, EmbedResult, TextType

DIM = 64


class HashEmbedder:
    """Bag of hashed words -> a normalised vector; `down` / `fail_queries` switch faults on."""

    def __init__(self) -> None:
        self.space: EmbeddingSpace | None = EmbeddingSpace("test/hash-bow", DIM, True)
        self.down = False
        self.fail_queries = False
        self.calls = 0
        self.texts_embedded = 0

    def is_available(self) -> bool:
        return not self.down

    def embed(self, texts: list[str], kind: TextType = "passage") -> EmbedResult:
        self.calls += 1
        if self.down:
            return EmbedResult.failed("connection refused")
        if kind == "query" and self.fail_queries:
            return EmbedResult.failed("query rejected")
        self.texts_embedded += len(texts)
        return EmbedResult(vectors=[vector(t) for t in texts])

    def close(self) -> None:
        return None


def vector(text: str) -> list[float]:
    v = [0.0] * DIM
    for word in re.findall(r"[a-z]+", text.lower()):
        h = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=4).digest(), "little")
        v[h % DIM] += 1.0
    norm = math.sqrt(sum(x * x for x in v)) or 1.0
    v[0] += 0.0 if norm else 1.0
    return [x / norm for x in v] if any(v) else [1.0] + [0.0] * (DIM - 1)
