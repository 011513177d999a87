"""The Embedder port (DESIGN §6): texts in, vectors of one declared space out, never raising.

Every provider returns an `EmbedResult`; a failure is a value (`ok=False`, `error`), so the
retrieval ladder and the vector step decide what to do, and no provider can hand back
vectors of the wrong dimension (`EmbedResult.checked` enforces it).
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from typing import Literal, Protocol

TextType = Literal["passage", "query"]


@dataclass(frozen=True, slots=True)
class EmbeddingSpace:
    """What makes two vectors comparable: the model, the dimension and normalisation."""

    model: str
    dimension: int
    normalized: bool = True

    @property
    def fingerprint(self) -> str:
        raw = f"{self.model}|{self.dimension}|{int(self.normalized)}".encode()
        return hashlib.sha256(raw).hexdigest()[:12]

    @property
    def collection(self) -> str:
        """The vector collection (one per space), named from the fingerprint."""
        slug = "".join(c if c.isalnum() else "-" for c in self.model.lower()).strip("-")
        return f"rc-{slug[:40]}-{self.dimension}-{self.fingerprint}"


@dataclass(frozen=True, slots=True)
class EmbedResult:
    vectors: list[list[float]] = field(default_factory=list)
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @staticmethod
    def failed(error: str) -> EmbedResult:
        return EmbedResult(vectors=[], error=error)

    @staticmethod
    def checked(vectors: list[list[float]], count: int, dimension: int) -> EmbedResult:
        """Fail closed: the wrong number of vectors, any of the wrong size, or one with a
        NaN, an infinity or no direction (a server's overflow) is a failure, never stored."""
        if len(vectors) != count:
            return EmbedResult.failed(f"expected {count} vectors, got {len(vectors)}")
        for v in vectors:
            if len(v) != dimension:
                return EmbedResult.failed(f"expected dimension {dimension}, got {len(v)}")
            norm = math.fsum(x * x for x in v)
            if not math.isfinite(norm):
                return EmbedResult.failed("a vector with a value that is not finite (NaN or inf)")
            if norm == 0.0:
                return EmbedResult.failed("a zero vector (no direction to compare)")
        return EmbedResult(vectors=vectors)


class Embedder(Protocol):
    """`space` is None only for the `none` provider (keyword-only by intent)."""

    @property
    def space(self) -> EmbeddingSpace | None: ...

    def is_available(self) -> bool: ...

    def embed(self, texts: list[str], kind: TextType = "passage") -> EmbedResult: ...

    def close(self) -> None: ...


class NoEmbedder:
    """`none`: no vector plane; retrieval answers `keyword.no_embedder` and stays ready."""

    space: EmbeddingSpace | None = None

    def is_available(self) -> bool:
        return False

    def embed(self, texts: list[str], kind: TextType = "passage") -> EmbedResult:
        return EmbedResult.failed("no embedder is configured")

    def close(self) -> None:
        return None
