"""An arm of tests/bench/semantic_plane.py too slow to embed in full, measured on a sample.

813317c's passages over Django are ~96k; at its one encoder thread that is more than an hour
of CPU. `RecordedPassages` lets the vector step run to completion with every passage batch
recorded and answered by a placeholder vector (a random unit vector seeded by the text, so
the store and its HNSW build see spread-out points, not one repeated point); then
`encode_sample` encodes a fixed random sample of the recorded texts with the arm's own
encoder settings (a child process at nice +10, as the arm ran) and measures its rate and CPU.
The arm's time and CPU to full coverage are then extrapolated: the measured run (indexing,
passage derivation, storing) plus every passage at the sample's rate. `wordpieces` counts what
the encoder would have processed (MiniLM's tokenizer, truncated at its 256 wordpieces) over
every recorded text, outside the timed run.
"""

from __future__ import annotations

import hashlib
import random
import resource
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from streams.embedders.base import EmbedResult, TextType
from streams.embedders.local import DIMENSION, LocalEmbedder, model_dir
from streams.embedders.minilm import MAX_TOKENS
from streams.vectors_step import EMBED_BATCH

SAMPLE_SEED = 21


class RecordedPassages:
    """Every passage batch's texts, kept; the batch is answered without encoding it."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    @staticmethod
    def placeholder(text: str) -> list[float]:
        seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")
        v = np.random.default_rng(seed).standard_normal(DIMENSION).astype(np.float32)
        unit: list[float] = (v / np.linalg.norm(v)).tolist()
        return unit

    @contextmanager
    def installed(self) -> Iterator[None]:
        saved = LocalEmbedder.embed

        def embed(emb: LocalEmbedder, texts: list[str], kind: TextType = "passage") -> EmbedResult:
            if kind != "passage":
                return saved(emb, texts, kind)
            self.texts += texts
            return EmbedResult.checked([self.placeholder(t) for t in texts], len(texts), DIMENSION)

        setattr(LocalEmbedder, "embed", embed)  # noqa: B010 (a bench-only probe)
        try:
            yield
        finally:
            setattr(LocalEmbedder, "embed", saved)  # noqa: B010


@dataclass(frozen=True)
class SampleRate:
    passages: int
    wall_s: float
    cpu_s: float  # the encoder child's CPU plus this process's, model load excluded

    @property
    def per_second(self) -> float:
        return self.passages / self.wall_s if self.wall_s else 0.0


def _proc_cpu_s(pid: int) -> float:
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / 100.0  # USER_HZ


def _own_cpu_s() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def encode_sample(texts: list[str], size: int, threads: int) -> SampleRate:
    """Encode `size` texts drawn at random (fixed seed) in the vector step's batches of
    EMBED_BATCH, through a fresh LocalEmbedder's passage child; the child is started and the
    model loaded by a one-text warm-up before the clock starts."""
    sample = random.Random(SAMPLE_SEED).sample(texts, min(size, len(texts)))
    embedder = LocalEmbedder(threads=threads)
    try:
        warm = embedder.embed(["warm-up"])
        if warm.error:
            raise SystemExit(f"the local embedder failed: {warm.error}")
        child = embedder.passages.pid if embedder.passages is not None else None
        if child is None:
            raise SystemExit("the passage encoder child did not start")
        wall, own, kid = time.perf_counter(), _own_cpu_s(), _proc_cpu_s(child)
        for i in range(0, len(sample), EMBED_BATCH):
            result = embedder.embed(sample[i : i + EMBED_BATCH])
            if result.error:
                raise SystemExit(f"the local embedder failed: {result.error}")
        cpu = _proc_cpu_s(child) - kid + _own_cpu_s() - own
        return SampleRate(len(sample), time.perf_counter() - wall, cpu)
    finally:
        embedder.close()


def wordpieces(texts: list[str]) -> int:
    """Wordpieces the encoder processes for `texts` (special tokens included, truncated at
    MAX_TOKENS as the encoder truncates)."""
    from tokenizers import Tokenizer

    folder = model_dir()
    if folder is None:
        raise SystemExit("the local model is not installed (make setup)")
    tokenizer = Tokenizer.from_file(str(Path(folder) / "tokenizer.json"))
    tokenizer.enable_truncation(max_length=MAX_TOKENS)
    return sum(len(e.ids) for e in tokenizer.encode_batch(texts))
