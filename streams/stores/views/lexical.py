"""An in-memory copy of an FTS5 table's postings that scores BM25 with numpy: search's fast path.

FTS5's bm25() costs microseconds per matching row and runs once per query token, so a change
request of 30 words over a 10k-file repository scores tens of thousands of rows in C per query
(hundreds of milliseconds; more with the corpus). This mirror holds, per table, each term's rows
and weighted frequencies as arrays, and scores a token with a handful of vector operations.
It computes FTS5's own formula (fts5_aux.c: a row's frequency of a term is the weighted sum of
its per-column counts, its length is its token count over every column, the average length is
the table's), so the SQL path and this one rank alike and the SQL path stays the reference: it
answers while the mirror is being built, and a test holds the two equal.

Freshness: triggers log every row the view sink inserts or deletes (`lexical_changes`); before
scoring, the mirror re-reads the rows logged since it last looked. A few hundred changes are
applied in the query's own read; more (a first index, a branch switch) are left to a
background rebuild, and search answers from SQL until it lands. Rows that changed since the
last rebuild live in a small delta scored in Python; a rebuild folds them in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

K1 = 1.2  # FTS5's bm25() constants
B = 0.75
CHANGELOG_KEEP = 262_144  # log entries kept; a mirror further behind rebuilds
TRIM_EVERY = 1024


@dataclass(frozen=True, slots=True)
class MirrorSpec:
    """One FTS5 table mirrored: its documents table (id, repo_id, path), the external content
    it indexes (id and the indexed columns, by name: read directly, not through the FTS table's
    per-row lookups), its indexed columns in order after `repo_id`, their bm25() weights, and
    the columns whose matches are reported."""

    fts: str
    docs: str
    source: str
    columns: tuple[str, ...]
    weights: tuple[float, ...]
    flagged: tuple[str, ...]

    def flag_bits(self) -> list[int]:
        return [1 << self.flagged.index(c) if c in self.flagged else 0 for c in self.columns]


def changelog_ddl(specs: Iterable[MirrorSpec]) -> tuple[str, ...]:
    """The change log and the triggers that fill it (one per insert and delete of a document)."""
    ddl = [
        """CREATE TABLE IF NOT EXISTS lexical_changes (
            seq INTEGER PRIMARY KEY AUTOINCREMENT, fts TEXT NOT NULL, doc INTEGER NOT NULL
        )""",
        f"""CREATE TRIGGER IF NOT EXISTS lexical_changes_trim AFTER INSERT ON lexical_changes
            WHEN new.seq % {TRIM_EVERY} = 0 BEGIN
            DELETE FROM lexical_changes WHERE seq <= new.seq - {CHANGELOG_KEEP};
        END""",
    ]
    for spec in specs:
        for event, row in (("INSERT", "new"), ("DELETE", "old")):
            ddl.append(
                f"""CREATE TRIGGER IF NOT EXISTS lexical_{spec.docs}_{event.lower()}
                    AFTER {event} ON {spec.docs} BEGIN
                    INSERT INTO lexical_changes (fts, doc) VALUES ('{spec.fts}', {row}.id);
                END"""
            )
    return tuple(ddl)


@dataclass(frozen=True, slots=True)
class DocTerms:
    """One document: where it lives, its length in tokens, and per term (weighted frequency,
    bits of the flagged columns it occurs in)."""

    repo_id: str
    path: str
    length: int
    terms: dict[str, tuple[float, int]]


def doc_terms(spec: MirrorSpec, repo_id: str, path: str, texts: Iterable[str | None]) -> DocTerms:
    """A document from its columns' stored terms (space-separated, already tokenized)."""
    terms: dict[str, tuple[float, int]] = {}
    length = 0
    for text, weight, bit in zip(texts, spec.weights, spec.flag_bits(), strict=True):
        counts = Counter((text or "").split())
        length += sum(counts.values())
        for term, count in counts.items():
            freq, bits = terms.get(term, (0.0, 0))
            terms[term] = (freq + weight * count, bits | bit)
    return DocTerms(repo_id, path, length, terms)


@dataclass(slots=True)
class Base:
    """Documents as arrays: rows, and per term its rows' weighted frequencies and flags
    (views/lexical_build.py builds it)."""

    doc_ids: npt.NDArray[np.int64]
    repo_of: npt.NDArray[np.int32]
    paths: list[str]
    lengths: npt.NDArray[np.float64]
    alive: npt.NDArray[np.bool_]
    vocab: dict[str, int]
    offsets: npt.NDArray[np.int64]
    rows: npt.NDArray[np.int32]
    freqs: npt.NDArray[np.floating]  # float32 where every weighted frequency is exact in it
    flags: npt.NDArray[np.uint8]
    repos: dict[str, int]
    by_id: npt.NDArray[np.int64]  # rows in ascending doc id order (row lookup by id)
    path_rows: dict[int, dict[str, int]]  # repository code -> path -> row

    @classmethod
    def from_arrays(
        cls,
        *,
        doc_ids: npt.NDArray[np.int64],
        repo_of: npt.NDArray[np.int32],
        paths: list[str],
        lengths: npt.NDArray[np.float64],
        vocab: dict[str, int],
        offsets: npt.NDArray[np.int64],
        postings: tuple[npt.NDArray[np.int32], npt.NDArray[np.floating], npt.NDArray[np.uint8]],
        repos: dict[str, int],
    ) -> Base:
        path_rows: dict[int, dict[str, int]] = {code: {} for code in repos.values()}
        for row, (code, path) in enumerate(zip(repo_of.tolist(), paths, strict=True)):
            path_rows[code][path] = row
        rows, freqs, flags = postings
        return cls(
            doc_ids=doc_ids,
            repo_of=repo_of,
            paths=paths,
            lengths=lengths,
            alive=np.ones(len(paths), dtype=np.bool_),
            vocab=vocab,
            offsets=offsets,
            rows=rows,
            freqs=freqs,
            flags=flags,
            repos=repos,
            by_id=np.argsort(doc_ids, kind="stable"),
            path_rows=path_rows,
        )

    def row(self, doc_id: int) -> int | None:
        """The row of a document id, if the base holds it."""
        at = int(np.searchsorted(self.doc_ids, doc_id, sorter=self.by_id))
        if at < len(self.by_id) and self.doc_ids[self.by_id[at]] == doc_id:
            return int(self.by_id[at])
        return None


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What one query scores against: the base, the delta, and the table's totals."""

    base: Base
    alive: npt.NDArray[np.bool_]
    delta: dict[int, DocTerms]
    rows: int
    tokens: int

    @property
    def avgdl(self) -> float:
        return self.tokens / self.rows if self.rows else 1.0

    def counts(self, tokens: Iterable[str]) -> tuple[int, dict[str, int]]:
        """The table's row count and each token's document frequency (what FTS5 counts)."""
        base, dfs = self.base, {}
        for token in tokens:
            tid = base.vocab.get(token)
            found = 0
            if tid is not None:
                lo, hi = int(base.offsets[tid]), int(base.offsets[tid + 1])
                found = int(np.count_nonzero(self.alive[base.rows[lo:hi]]))
            dfs[token] = found + sum(1 for doc in self.delta.values() if token in doc.terms)
        return self.rows, dfs

    def best(
        self, repo_id: str, idf: list[tuple[str, float]], limit: int, only: set[str] | None = None
    ) -> list[tuple[str, float, int]]:
        """The repository's `limit` best documents (or just those at the paths in `only`), best
        first, as (path, BM25 summed over the tokens, flag bits); ties go by path, as in SQL."""
        base, avgdl = self.base, self.avgdl
        found: list[tuple[str, float, int]] = []
        code = base.repos.get(repo_id)
        if code is not None and len(base.paths):
            acc, bits = self._accumulate(idf)
            mask = (acc > 0.0) & self.alive & (base.repo_of == code)
            if only is not None:
                wanted = np.zeros(len(base.paths), dtype=np.bool_)
                known = base.path_rows[code]
                rows = [known.get(path) for path in only]
                wanted[[row for row in rows if row is not None]] = True
                mask &= wanted
            hit = np.flatnonzero(mask)
            if len(hit) > limit:  # keep the best `limit` and every row tied with the last
                values = acc[hit]
                cut = np.partition(values, len(hit) - limit)[len(hit) - limit]
                hit = hit[values >= cut]
            scores, flags = acc[hit].tolist(), bits[hit].tolist()
            for row, value, flag in zip(hit.tolist(), scores, flags, strict=True):
                found.append((base.paths[row], value, flag))
        for doc in self.delta.values():
            if doc.repo_id == repo_id and (only is None or doc.path in only):
                value, flag = _doc_score(doc, idf, avgdl)
                if value > 0.0:
                    found.append((doc.path, value, flag))
        found.sort(key=lambda item: (-item[1], item[0]))
        return found[:limit]

    def _accumulate(
        self, idf: list[tuple[str, float]]
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.uint8]]:
        """Every base row's BM25 summed over the tokens, and the flags of the columns matched."""
        base = self.base
        norm = K1 * (1.0 - B + B * base.lengths / self.avgdl)
        acc = np.zeros(len(base.paths), dtype=np.float64)
        bits = np.zeros(len(base.paths), dtype=np.uint8)
        for token, weight in idf:
            tid = base.vocab.get(token)
            if tid is None:
                continue
            lo, hi = int(base.offsets[tid]), int(base.offsets[tid + 1])
            rows, freqs = base.rows[lo:hi], base.freqs[lo:hi].astype(np.float64, copy=False)
            acc[rows] += weight * freqs * (K1 + 1.0) / (freqs + norm[rows])
            bits[rows] |= base.flags[lo:hi]
        return acc, bits


def _doc_score(doc: DocTerms, idf: list[tuple[str, float]], avgdl: float) -> tuple[float, int]:
    norm = K1 * (1.0 - B + B * doc.length / avgdl)
    value, flag = 0.0, 0
    for token, weight in idf:
        found = doc.terms.get(token)
        if found is not None:
            freq, bits = found
            value += weight * freq * (K1 + 1.0) / (freq + norm)
            flag |= bits
    return value, flag
