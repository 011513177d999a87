"""Building a mirror's base (views/lexical.py) from its table's rows, a batch at a time.

A 100k-file repository has tens of millions of postings, so nothing here is a Python object
per posting: each batch of documents is counted with C-level `Counter`s, turned into numpy
arrays (term id, weighted frequency, flags) merged per (document, term), and kept compact; at
the end one counting-sort pass scatters the batches into term-major arrays, freeing each batch
as it goes, so the peak is about two copies of the postings at ~9 bytes each.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from array import array
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat

import numpy as np
import numpy.typing as npt

from streams.stores.views.lexical import Base, MirrorSpec

Row = tuple[int, str, str, tuple[str | None, ...]]  # doc id, repository, path, column texts


def release_freed_heap() -> None:
    """Hand the heap pages a build freed back to the OS (glibc's malloc_trim; elsewhere a
    no-op): its short-lived lists of millions of terms leave the C heap holding ~60% more
    than the postings themselves, which the process would otherwise keep resident."""
    name = ctypes.util.find_library("c")
    trim = getattr(ctypes.CDLL(name), "malloc_trim", None) if name else None
    if trim is not None:
        trim(0)


@dataclass(frozen=True, slots=True)
class _Batch:
    """One batch's postings, sorted by (document, term): documents first..first+len(per_doc)."""

    first: int
    per_doc: npt.NDArray[np.int64]
    terms: npt.NDArray[np.int32]
    freqs: npt.NDArray[np.floating]
    flags: npt.NDArray[np.uint8]


class BaseBuilder:
    """Collects batches of documents into compact arrays, then lays them out by term."""

    def __init__(self, spec: MirrorSpec) -> None:
        self.spec = spec
        self.doc_ids = array("q")
        self.repo_of = array("i")
        self.lengths = array("q")
        self.paths: list[str] = []
        self.repos: dict[str, int] = {}
        self.vocab: dict[str, int] = {}
        self._batches: list[_Batch] = []
        self._df = np.zeros(0, dtype=np.int64)  # postings per term id so far
        # weighted frequencies are small integers times the weights, exact in float32; a table
        # whose weights make one inexact keeps float64 so scores stay those of SQL
        self._narrow = True

    def add_batch(self, rows: Sequence[Row]) -> None:
        """Count a batch of documents' terms (column texts are space-separated terms)."""
        if not rows:
            return
        first = len(self.paths)
        for doc_id, repo_id, path, _ in rows:
            self.doc_ids.append(doc_id)
            self.repo_of.append(self.repos.setdefault(repo_id, len(self.repos)))
            self.paths.append(path)
        keys: list[str] = []
        ids: list[int] = []  # each key's term id, -1 for a term new in this batch
        counts: list[int] = []
        per_doc: list[int] = []  # distinct terms per (column, document), column-major
        lengths = [0] * len(rows)
        known, unknown = self.vocab.get, repeat(-1)
        for col in range(len(self.spec.columns)):
            for n, row in enumerate(rows):
                counted = Counter((row[3][col] or "").split())
                keys.extend(counted)
                # looked up while the document's strings are still in the CPU cache
                ids.extend(map(known, counted, unknown))
                counts.extend(counted.values())
                per_doc.append(len(counted))
                lengths[n] += counted.total()
        self.lengths.extend(lengths)
        if keys:
            self._add_postings(first, len(rows), self._term_ids(keys, ids), counts, per_doc)

    def _term_ids(self, keys: list[str], ids: list[int]) -> npt.NDArray[np.int32]:
        """The keys' term ids, numbering the batch's new terms in order of appearance."""
        terms = np.asarray(ids, dtype=np.int32)
        new = np.flatnonzero(terms < 0).tolist()
        if new:
            vocab = self.vocab
            fresh = [keys[i] for i in new]
            for term in dict.fromkeys(fresh):
                vocab[term] = len(vocab)
            terms[new] = list(map(vocab.__getitem__, fresh))
        return terms

    def _add_postings(
        self,
        first: int,
        docs: int,
        terms: npt.NDArray[np.int32],
        counts: list[int],
        per_doc: list[int],
    ) -> None:
        vocab = self.vocab
        columns = len(self.spec.columns)
        per_column = np.add.reduceat(np.asarray(per_doc, dtype=np.int64), np.arange(columns) * docs)
        weights = np.repeat(np.asarray(self.spec.weights, dtype=np.float64), per_column)
        freqs = np.asarray(counts, dtype=np.float64) * weights
        flags = np.repeat(np.asarray(self.spec.flag_bits(), dtype=np.uint8), per_column)
        doc_of = np.repeat(np.tile(np.arange(docs, dtype=np.int64), columns), per_doc)
        # one posting per (document, term): a term in several columns sums its weighted counts
        # in column order (the stable sort keeps it) and ors their flags, as doc_terms does
        key = (doc_of << 32) | terms.astype(np.int64)
        order = np.argsort(key, kind="stable")
        key = key[order]
        starts = np.flatnonzero(np.concatenate(([True], key[1:] != key[:-1])))
        merged_freqs = np.add.reduceat(freqs[order], starts)
        merged_flags = np.bitwise_or.reduceat(flags[order], starts)
        merged_terms = terms[order][starts]
        narrow = merged_freqs.astype(np.float32)
        if self._narrow and not np.array_equal(narrow, merged_freqs):
            self._narrow = False
        self._batches.append(
            _Batch(
                first=first,
                per_doc=np.bincount(doc_of[order][starts], minlength=docs),
                terms=merged_terms,
                freqs=narrow if self._narrow else merged_freqs,
                flags=merged_flags,
            )
        )
        found = np.bincount(merged_terms, minlength=len(vocab))
        found[: len(self._df)] += self._df
        self._df = found

    def build(self) -> Base:
        """The term-major base (the builder's batches are consumed)."""
        df = np.zeros(len(self.vocab), dtype=np.int64)
        df[: len(self._df)] = self._df
        offsets = np.zeros(len(self.vocab) + 1, dtype=np.int64)
        np.cumsum(df, out=offsets[1:])
        total = int(offsets[-1])
        rows = np.empty(total, dtype=np.int32)
        freqs: npt.NDArray[np.floating] = (
            np.empty(total, dtype=np.float32) if self._narrow else np.empty(total, np.float64)
        )
        flags = np.empty(total, dtype=np.uint8)
        cursor = offsets[:-1].copy()
        self._batches.reverse()
        while self._batches:
            batch = self._batches.pop()
            doc_rows = np.repeat(
                np.arange(batch.first, batch.first + len(batch.per_doc), dtype=np.int32),
                batch.per_doc,
            )
            order = np.argsort(batch.terms, kind="stable")  # rows stay ascending per term
            terms = batch.terms[order]
            starts = np.flatnonzero(np.concatenate(([True], terms[1:] != terms[:-1])))
            runs = np.diff(np.append(starts, len(terms)))
            place = cursor[terms] + (np.arange(len(terms)) - np.repeat(starts, runs))
            rows[place] = doc_rows[order]
            freqs[place] = batch.freqs[order].astype(freqs.dtype, copy=False)
            flags[place] = batch.flags[order]
            cursor[terms[starts]] += runs
        return Base.from_arrays(
            doc_ids=np.frombuffer(self.doc_ids, dtype=np.int64).copy(),
            repo_of=np.frombuffer(self.repo_of, dtype=np.int32).copy(),
            paths=self.paths,
            lengths=np.frombuffer(self.lengths, dtype=np.int64).astype(np.float64),
            vocab=self.vocab,
            offsets=offsets,
            postings=(rows, freqs, flags),
            repos=self.repos,
        )
