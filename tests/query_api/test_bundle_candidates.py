"""Which search hits a bundle may pack (query_api/context/candidates.py)."""

from __future__ import annotations

from query_api.context.candidates import VECTOR_ONLY_FLOOR, vector_only, worth_packing
from schemas import tools as t


def hit(path: str, score: float, *reasons: str) -> t.SearchHit:
    entry = t.EntryView(key=f"repo/r/file/{path}", exists=True, kind="File", path=path)
    return t.SearchHit(score=score, entry=entry, reasons=list(reasons))


def test_a_file_only_the_vectors_found_far_below_the_first_is_not_packed() -> None:
    noise = hit("gen/generated_big.py", 0.14, "semantic", "chunk:file")
    assert vector_only(noise.reasons)
    assert not worth_packing(noise, top_score=1.0)


def test_any_other_evidence_or_a_close_score_keeps_a_file() -> None:
    assert worth_packing(hit("a.py", 0.14, "semantic", "chunk:file", "content-match"), 1.0)
    assert worth_packing(hit("b.py", 0.14, "semantic", "related:a.py"), 1.0)
    assert worth_packing(hit("c.py", 0.14, "content-match"), 1.0)  # keyword: a word matched
    close = VECTOR_ONLY_FLOOR + 0.01
    assert worth_packing(hit("d.py", close, "semantic", "chunk:file"), 1.0)
    assert worth_packing(hit("e.py", 0.3, "semantic", "chunk:symbol"), 0.9)
