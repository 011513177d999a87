"""Embedding providers behind the `Embedder` port: `local`, `http`, `none`."""

from __future__ import annotations

from streams.embedders.base import Embedder, EmbeddingSpace, EmbedResult, NoEmbedder, TextType

__all__ = ["EmbedResult", "Embedder", "EmbeddingSpace", "NoEmbedder", "TextType", "make_embedder"]


def make_embedder(
    provider: str,
    *,
    threads: int = 1,
    url: str | None = None,
    model: str | None = None,
    dimension: int | None = None,
    api_key: str | None = None,
) -> Embedder:
    """`local` | `http` | `none`; a typo is a start-up error (spec §5.3: provider typos fail)."""
    if provider == "none":
        return NoEmbedder()
    if provider == "local":
        from streams.embedders.local import LocalEmbedder

        return LocalEmbedder(threads=threads)
    if provider == "http":
        from streams.embedders.http import HttpEmbedder

        if not url or not model or not dimension:
            raise ValueError("the http embedder needs an endpoint url, a model and a dimension")
        return HttpEmbedder(url, model, dimension, api_key=api_key)
    raise ValueError(f"unknown embedder provider {provider!r} (local | http | none)")
