"""The hybrid fusion's rules, on hand-made lists (the ladder tests run it end to end)."""

from __future__ import annotations

from query_api.retrieval.ladder import RRF_K, SEMANTIC_WEIGHT, Retriever, _file_entry
from schemas import tools as t


def hit(path: str, *reasons: str) -> t.SearchHit:
    entry = _file_entry("repo", path, None)
    return t.SearchHit(score=1.0, entry=entry, vectorId=None, reasons=list(reasons))


def fuse(semantic: list[str], keyword: list[str], *, impute: bool = False) -> list[str]:
    fused = Retriever._fuse(
        None,  # type: ignore[arg-type]  # _fuse reads nothing of the retriever
        [hit(p, "semantic") for p in semantic],
        [hit(p, "content-match") for p in keyword],
        10,
        impute=impute,
    )
    return [h.entry.path or "" for h in fused]


def test_a_file_both_lists_find_leads() -> None:
    assert fuse(["a.py", "b.py"], ["c.py", "a.py"])[0] == "a.py"


def test_bm25_weighs_more_than_vectors() -> None:
    assert SEMANTIC_WEIGHT < 1.0
    assert fuse(["vec.py"], ["lex.py"]) == ["lex.py", "vec.py"]


def test_while_backfilling_a_file_without_a_vector_keeps_its_bm25_place() -> None:
    """`unembedded.py` is BM25's first but has no vector yet; `embedded.py` is BM25's second
    and the vectors' first. Complete coverage: both lists agree on embedded.py, it leads.
    Partial: the first file is not pushed down for lacking a vector."""
    semantic, keyword = ["embedded.py"], ["unembedded.py", "embedded.py"]
    assert fuse(semantic, keyword)[0] == "embedded.py"
    assert fuse(semantic, keyword, impute=True)[0] == "unembedded.py"
    lead = (1 + SEMANTIC_WEIGHT) / (RRF_K + 1)
    assert lead > SEMANTIC_WEIGHT / (RRF_K + 1) + 1 / (RRF_K + 2)
