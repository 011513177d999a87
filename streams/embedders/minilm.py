"""The all-MiniLM-L6-v2 encoder in numpy: token ids in, normalised sentence vectors out.

Why it is shaped this way (measured on the 2-core machine, tests/bench/vector_bench.py):
- Tokens are packed, not padded: every per-token operation (the dense layers, GELU, layer norm)
  runs on one (tokens, 384) matrix holding only real tokens, and attention runs per run of
  equal-length sequences, so no mask and no compute is spent on padding.
- The dense layers are ~60 % of the time and already run near the core's peak in OpenBLAS;
  the rest was memory traffic in elementwise passes, so GELU is the tanh form (|error| < 5e-4,
  cosine to sentence-transformers ≥ 0.9999), done in place in cache-sized blocks, and the
  attention scale and GELU's 0.5 are folded into the weights at load.
- Parallelism is `threads` Python workers, each running whole chunks with OpenBLAS held to one
  thread: numpy releases the GIL, and unlike OpenBLAS's own spinning pool it degrades gently
  when other processes compete for the cores.
- Memory (a 2048-token chunk per worker, several workers at once in the passage child):
  attention runs in groups of at most RUN_CELLS (sequences x length^2) score cells, so one
  group's scores are 3 MiB whatever the lengths; the query/key/value projection is made per
  span of ~SPAN_ROWS rows and the feed-forward per FFN_ROWS rows, so neither a (2048, 1152)
  nor a (2048, 1536) matrix is ever held; the word table stays memory-mapped and its touched
  pages are handed back as soon as a chunk's rows are copied out (a backfill over a large
  repository touches most of its 47 MB).
"""

from __future__ import annotations

import contextlib
import ctypes
import glob
import json
import mmap
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

MAX_TOKENS = 256  # sentence_bert_config.json max_seq_length
CHUNK_TOKENS = 2048  # tokens per forward pass: large enough for BLAS, small enough to stay warm
WORD_EMBEDDINGS = "embeddings.word_embeddings.weight"
GELU_BLOCK = 128  # rows per GELU block: (128, 1536) float32 = 768 KiB, inside L2
RUN_CELLS = 256 * 256  # attention scores per group: 12 heads x 65,536 float32 = 3 MiB
FFN_ROWS = 512  # rows per feed-forward block: (512, 1536) float32 = 3 MiB, reused
SPAN_ROWS = 512  # rows per attention projection: (512, 1152) float32 = 2.25 MiB and a run

F32 = npt.NDArray[np.float32]

_DTYPES = {"F32": np.float32, "F16": np.float16, "I64": np.int64}
_C = np.float32(np.sqrt(2.0 / np.pi))
_A = np.float32(0.044715) * _C
_ONE = np.float32(1.0)


def read_safetensors(
    path: Path, mapped: frozenset[str] = frozenset(), maps: list[mmap.mmap] | None = None
) -> dict[str, npt.NDArray[Any]]:
    """The format is an 8-byte header length, a JSON header and raw little-endian tensors.
    Tensors named in `mapped` stay views on the file's memory map (read-only), so only the
    pages a forward pass touches become resident; the map is appended to `maps`."""
    tensors: dict[str, npt.NDArray[Any]] = {}
    with open(path, "rb") as handle:
        header_len = int.from_bytes(handle.read(8), "little")
        header = json.loads(handle.read(header_len))
        base = 8 + header_len
        whole: mmap.mmap | None = None
        for name, meta in header.items():
            if name == "__metadata__":
                continue
            start, end = meta["data_offsets"]
            dtype, shape = _DTYPES[meta["dtype"]], tuple(meta["shape"])
            if name in mapped and dtype != np.float16:
                if whole is None:
                    whole = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
                    if maps is not None:
                        maps.append(whole)
                count = (end - start) // np.dtype(dtype).itemsize
                view = np.frombuffer(whole, dtype=np.dtype(dtype), count=count, offset=base + start)
                tensors[name] = view.reshape(shape)
                continue
            arr = np.empty(shape, dtype=dtype)
            handle.seek(base + start)
            handle.readinto(arr.data.cast("B"))
            tensors[name] = arr.astype(np.float32) if dtype == np.float16 else arr
    return tensors


def limit_blas_threads(n: int) -> bool:
    """Cap numpy's OpenBLAS pool (it defaults to every core) so embedding in the background
    never oversubscribes the CPU the pipeline and the MCP server share."""
    libs = glob.glob(os.path.join(os.path.dirname(np.__file__) + ".libs", "*openblas*"))
    for lib in libs:
        try:
            handle = ctypes.CDLL(lib)
        except OSError:
            continue
        for symbol in (
            "scipy_openblas_set_num_threads64_",
            "scipy_openblas_set_num_threads",
            "openblas_set_num_threads64_",
            "openblas_set_num_threads",
        ):
            fn = getattr(handle, symbol, None)
            if fn is not None:
                fn(ctypes.c_int(n))
                return True
    return False


def gelu_times_two(x: F32) -> F32:
    """2·GELU(x) in place, tanh form (the 0.5 lives in the next layer's weights)."""
    tmp = np.empty((min(GELU_BLOCK, x.shape[0]), x.shape[1]), dtype=np.float32)
    for start in range(0, x.shape[0], GELU_BLOCK):
        xs = x[start : start + GELU_BLOCK]
        t = tmp[: xs.shape[0]]
        np.multiply(xs, xs, out=t)
        t *= _A
        t += _C
        t *= xs
        np.tanh(t, out=t)
        t += _ONE
        xs *= t
    return x


def layer_norm(x: F32, weight: F32, bias: F32, eps: float = 1e-12) -> F32:
    """Layer norm of a (tokens, hidden) matrix, in place."""
    x -= x.mean(axis=-1, keepdims=True)
    var = np.einsum("ij,ij->i", x, x)[:, None]
    var /= np.float32(x.shape[1])
    var += np.float32(eps)
    np.sqrt(var, out=var)
    x /= var
    x *= weight
    x += bias
    return x


def _runs(lengths: list[int]) -> list[tuple[int, int, int]]:
    """(first row, length, count) for each run of equal-length neighbours (input is sorted),
    each run's scores (count x length^2 per head) within RUN_CELLS."""
    runs: list[tuple[int, int, int]] = []
    row = 0
    for n in lengths:
        if runs and runs[-1][1] == n and (runs[-1][2] + 1) * n * n <= RUN_CELLS:
            first, _, count = runs[-1]
            runs[-1] = (first, n, count + 1)
        else:
            runs.append((row, n, 1))
        row += n
    return runs


def _spans(runs: list[tuple[int, int, int]]) -> list[tuple[int, int, list[tuple[int, int, int]]]]:
    """Consecutive runs grouped into spans of at least SPAN_ROWS rows (first row, end row, the
    runs with rows counted from the span's first): one projection per span keeps BLAS busy
    while only one span's query/key/value rows are held at a time."""
    spans: list[tuple[int, int, list[tuple[int, int, int]]]] = []
    for first, n, count in runs:
        if not spans or spans[-1][1] - spans[-1][0] >= SPAN_ROWS:
            spans.append((first, first, []))
        start, _, members = spans[-1]
        members.append((first - start, n, count))
        spans[-1] = (start, first + n * count, members)
    return spans


class MiniLM:
    """Loads the weights once; `encode` may run on several threads at once (the passage
    child's batch and query threads): it reads the weights and keeps its state in locals."""

    def __init__(
        self, folder: Path, *, threads: int = 1, worker_init: Callable[[], object] | None = None
    ) -> None:
        from tokenizers import Tokenizer

        limit_blas_threads(1)  # parallelism comes from our workers, not from OpenBLAS
        self.threads = max(1, threads)
        self._pool = (
            ThreadPoolExecutor(self.threads, initializer=worker_init) if self.threads > 1 else None
        )
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self.tokenizer.no_padding()
        # The word embeddings are 30,522 rows (47 MB) of which a process reads a few thousand:
        # left on the map, they cost only those pages (and the page cache is shared).
        self._maps: list[mmap.mmap] = []
        w = read_safetensors(folder / "model.safetensors", frozenset({WORD_EMBEDDINGS}), self._maps)
        self.word = w[WORD_EMBEDDINGS]
        self.pos = w["embeddings.position_embeddings.weight"]
        self.type0 = w["embeddings.token_type_embeddings.weight"][0]
        self.emb_ln = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        self.heads = 12
        self.hidden = int(self.word.shape[1])
        scale = np.float32(1.0 / np.sqrt(self.hidden // self.heads))
        self.layers: list[dict[str, F32]] = []
        i = 0
        while f"encoder.layer.{i}.attention.self.query.weight" in w:
            p = f"encoder.layer.{i}."
            q_w, q_b = w[p + "attention.self.query.weight"], w[p + "attention.self.query.bias"]
            qkv_w = np.concatenate(
                [
                    q_w * scale,
                    w[p + "attention.self.key.weight"],
                    w[p + "attention.self.value.weight"],
                ]
            ).T.copy()
            qkv_b = np.concatenate(
                [q_b * scale, w[p + "attention.self.key.bias"], w[p + "attention.self.value.bias"]]
            )
            self.layers.append(
                {
                    "qkv_w": qkv_w,
                    "qkv_b": qkv_b,
                    "o_w": w[p + "attention.output.dense.weight"].T.copy(),
                    "o_b": w[p + "attention.output.dense.bias"],
                    "ln1_w": w[p + "attention.output.LayerNorm.weight"],
                    "ln1_b": w[p + "attention.output.LayerNorm.bias"],
                    "i_w": w[p + "intermediate.dense.weight"].T.copy(),
                    "i_b": w[p + "intermediate.dense.bias"],
                    "f_w": (w[p + "output.dense.weight"].T * np.float32(0.5)).copy(),
                    "f_b": w[p + "output.dense.bias"],
                    "ln2_w": w[p + "output.LayerNorm.weight"],
                    "ln2_b": w[p + "output.LayerNorm.bias"],
                }
            )
            i += 1

    def token_count(self, text: str) -> int:
        return len(self.tokenizer.encode(text).ids)

    def encode(
        self, texts: list[str], workers: int | None = None, pause: Callable[[], None] | None = None
    ) -> F32:
        """`workers` (1 .. threads, default threads): 1 runs on the calling thread alone.
        `pause`, when given, is called before every layer of every chunk (the backfill's
        foreground gate: it returns when the batch may go on)."""
        width = self.threads if workers is None else max(1, min(self.threads, workers))
        # One thread tokenises on itself: the tokenizer's shared Rust pool runs at the priority
        # of the thread that started it, and the passage child's query thread (width 1) must
        # not wait on pool threads its nice +10 batch thread started.
        if width == 1:
            seqs = [self.tokenizer.encode(text).ids for text in texts]
        else:
            seqs = [e.ids for e in self.tokenizer.encode_batch(texts)]
        out = np.zeros((len(texts), self.hidden), dtype=np.float32)
        if not seqs:
            return out
        # Sorted by length so equal lengths sit together (batched attention); chunks sized so
        # every worker gets a share.
        order = sorted(range(len(seqs)), key=lambda j: len(seqs[j]))
        total = sum(len(s) for s in seqs)
        budget = max(1, min(CHUNK_TOKENS, -(-total // width)))
        chunks: list[list[int]] = [[]]
        used = 0
        for j in order:
            if chunks[-1] and used + len(seqs[j]) > budget:
                chunks.append([])
                used = 0
            chunks[-1].append(j)
            used += len(seqs[j])
        work = [[seqs[j] for j in chunk] for chunk in chunks]
        pool = self._pool if width > 1 and len(work) > 1 else None
        forward = self._forward if pause is None else partial(self._forward, pause=pause)
        results = pool.map(forward, work) if pool else map(forward, work)
        for chunk, vectors in zip(chunks, results, strict=True):
            out[chunk] = vectors
        return out

    def drop_word_pages(self) -> None:
        """Hand the word table's resident pages back (madvise DONTNEED on a read-only shared
        file map loses nothing: the page cache keeps them, the next lookup maps them again).
        Each chunk's few thousand rows fault back in for a millisecond or two; without it a
        backfill leaves the whole 47 MB table in the process's RSS."""
        for mapped in self._maps:
            with contextlib.suppress(OSError, ValueError, AttributeError):  # closed; not Linux
                mapped.madvise(mmap.MADV_DONTNEED)

    def _forward(self, seqs: list[list[int]], pause: Callable[[], None] | None = None) -> F32:
        lengths = [len(s) for s in seqs]
        ids = np.fromiter((t for s in seqs for t in s), dtype=np.int64, count=sum(lengths))
        positions = np.concatenate([np.arange(n) for n in lengths])
        x: F32 = self.word[ids]
        self.drop_word_pages()  # the rows are copied: no call keeps the table resident
        x += self.pos[positions]
        x += self.type0
        x = layer_norm(x, *self.emb_ln)
        spans = _spans(_runs(lengths))
        ctx = np.empty_like(x)
        ffn = np.empty((min(FFN_ROWS, x.shape[0]), self.layers[0]["i_w"].shape[1]), np.float32)
        for lw in self.layers:
            if pause is not None:
                pause()
            for first, end, span in spans:
                self._attention(x[first:end], lw, span, ctx[first:end])
            y = ctx @ lw["o_w"]
            y += lw["o_b"]
            y += x
            x = layer_norm(y, lw["ln1_w"], lw["ln1_b"])
            x = layer_norm(self._feed_forward(x, lw, ffn), lw["ln2_w"], lw["ln2_b"])
        starts = np.cumsum([0, *lengths[:-1]])
        pooled: F32 = np.add.reduceat(x, starts, axis=0)
        pooled /= np.asarray(lengths, dtype=np.float32)[:, None]
        pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), np.float32(1e-12))
        return pooled

    def _attention(
        self, x: F32, lw: dict[str, F32], runs: list[tuple[int, int, int]], ctx: F32
    ) -> None:
        """Attention over one span of rows (whole runs) into the same rows of `ctx`; the
        span's query/key/value rows (3x the hidden state) exist only while it runs."""
        heads, hidden = self.heads, self.hidden
        d = hidden // heads
        qkv = x @ lw["qkv_w"]
        qkv += lw["qkv_b"]
        for first, n, count in runs:
            rows = slice(first, first + n * count)
            blk = qkv[rows].reshape(count, n, 3, heads, d).transpose(2, 0, 3, 1, 4)
            scores = blk[0] @ blk[1].transpose(0, 1, 3, 2)
            scores -= scores.max(axis=-1, keepdims=True)
            np.exp(scores, out=scores)
            # Normalise the (n, 32) head outputs rather than the (n, n) probabilities.
            heads_out = scores @ blk[2]
            heads_out /= scores.sum(axis=-1, keepdims=True)
            ctx[rows] = heads_out.transpose(0, 2, 1, 3).reshape(n * count, hidden)

    @staticmethod
    def _feed_forward(x: F32, lw: dict[str, F32], buffer: F32) -> F32:
        """x + FFN(x) in blocks of FFN_ROWS rows through one reused buffer: the whole chunk's
        (tokens, 1536) intermediate was the largest activation (12 MiB at 2048 tokens)."""
        out = np.empty_like(x)
        for start in range(0, x.shape[0], FFN_ROWS):
            xs = x[start : start + FFN_ROWS]
            inter = buffer[: xs.shape[0]]
            np.matmul(xs, lw["i_w"], out=inter)
            inter += lw["i_b"]
            ys = out[start : start + FFN_ROWS]
            np.matmul(gelu_times_two(inter), lw["f_w"], out=ys)
            ys += lw["f_b"]
            ys += xs
        return out

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False)
