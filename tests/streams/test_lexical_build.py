"""The in-memory postings' builder (views/lexical_build.py): batches of documents give exactly
the postings doc_terms gives one document at a time, in ~9 bytes a posting, and a build reads
its table in batches bounded by characters as well as rows."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from streams.stores import ViewStore
from streams.stores.views import lexical_mirror
from streams.stores.views.fields import CONTENT_FIELDS, SYMBOL_FIELDS
from streams.stores.views.handlers import default_registry
from streams.stores.views.lexical import Base, MirrorSpec, doc_terms
from streams.stores.views.lexical_build import BaseBuilder, Row
from tests.streams.symbol_records import records
from tests.streams.test_lexical_mirror import apply, assert_same_ranking, body, built


@pytest.fixture
def store(tmp_path: Path) -> Iterator[ViewStore]:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        yield views


WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]


def documents(seed: int, count: int, columns: int) -> list[Row]:
    """Documents whose columns share words (a term in several columns), some columns empty."""
    rng = random.Random(seed)
    found: list[Row] = []
    for n in range(count):
        texts = tuple(
            None if rng.random() < 0.1 else " ".join(rng.choices(WORDS, k=rng.randint(0, 12)))
            for _ in range(columns)
        )
        found.append((1000 + 7 * n, rng.choice(("r", "s")), f"f{n}.py", texts))
    return found


def postings(base: Base) -> dict[str, list[tuple[int, float, int]]]:
    """term -> [(document id, weighted frequency, flags)] in row order."""
    found = {}
    for term, tid in base.vocab.items():
        lo, hi = int(base.offsets[tid]), int(base.offsets[tid + 1])
        found[term] = [
            (int(base.doc_ids[row]), float(freq), int(flag))
            for row, freq, flag in zip(
                base.rows[lo:hi], base.freqs[lo:hi], base.flags[lo:hi], strict=True
            )
        ]
    return found


def expected(spec: MirrorSpec, rows: list[Row]) -> tuple[dict[str, list[object]], list[int]]:
    """The same postings from doc_terms, one document at a time (the reference)."""
    found: dict[str, list[object]] = {}
    lengths = []
    for doc_id, repo_id, path, texts in rows:
        doc = doc_terms(spec, repo_id, path, texts)
        lengths.append(doc.length)
        for term, (freq, bits) in doc.terms.items():
            found.setdefault(term, []).append((doc_id, freq, bits))
    return found, lengths


@pytest.mark.parametrize("spec", [CONTENT_FIELDS, SYMBOL_FIELDS], ids=lambda s: s.fts)
def test_batches_give_the_postings_of_one_document_at_a_time(spec: MirrorSpec) -> None:
    rows = documents(1, 50, len(spec.columns))
    builder = BaseBuilder(spec)
    for start in (0, 1, 17, 30):  # uneven batches, one of a single document
        builder.add_batch(rows[start : {0: 1, 1: 17, 17: 30, 30: 50}[start]])
    base = builder.build()
    want, lengths = expected(spec, rows)
    assert postings(base) == want
    assert base.lengths.tolist() == lengths
    assert [base.row(doc_id) for doc_id, *_ in rows] == list(range(len(rows)))
    assert base.row(999) is None and base.row(1001) is None
    assert base.path_rows[base.repos["r"]] == {
        p: n for n, (_, r, p, _) in enumerate(rows) if r == "r"
    }
    # compact: int32 row, float32 frequency, one byte of flags per posting
    held = base.rows.nbytes + base.freqs.nbytes + base.flags.nbytes
    assert held == 9 * len(base.rows)


def test_weights_inexact_in_float32_keep_float64() -> None:
    spec = MirrorSpec("t_fts", "t", "t_src", ("a", "b"), (0.1, 1.0), ("a",))
    rows = documents(2, 20, 2)
    builder = BaseBuilder(spec)
    builder.add_batch(rows[:10])
    builder.add_batch(rows[10:])
    base = builder.build()
    assert base.freqs.dtype == np.float64
    assert postings(base) == expected(spec, rows)[0]


def test_empty_documents_and_batches() -> None:
    builder = BaseBuilder(CONTENT_FIELDS)
    builder.add_batch([])
    builder.add_batch([(1, "r", "empty.py", (None, "", None))])
    base = builder.build()
    assert base.paths == ["empty.py"] and base.vocab == {} and len(base.rows) == 0


def test_a_build_reads_in_batches_bounded_by_characters(
    store: ViewStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Large files are read a few at a time: with a budget of one file's terms each batch holds
    one document, and the mirror still ranks as SQL."""
    monkeypatch.setattr(lexical_mirror, "FETCH_ROWS", 1)
    monkeypatch.setattr(lexical_mirror, "BUILD_BATCH_CHARS", 1)
    rng = random.Random(5)
    apply(store, [rec for i in range(6) for rec in records(f"m{i}.py", body(rng))])
    batches = store.read(lambda conn: list(lexical_mirror._scan(conn, CONTENT_FIELDS)))
    assert [len(batch) for batch in batches] == [1] * 6
    built(store)
    assert_same_ranking(store, ("r",))
