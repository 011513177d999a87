"""The doc files a query about docs puts first are scored as the first hit was, as the files
other steps move to the head are (declared_first, users_first): scores stay in rank order.
QA on hyperium/hyper: `where is max_headers documented` listed CHANGELOG.md first at 0.468,
then src/client/conn/http1.rs at 0.973, which read as a ranking gone wrong (a changelog alone
is no longer put first: test_docs_first_records.py)."""

from __future__ import annotations

from query_api.retrieval.docs_first import docs_first
from schemas import tools as t


def _hit(path: str, score: float) -> t.SearchHit:
    entry = t.EntryView(key=f"repo/r/file/{path}", exists=True, kind="File", path=path)
    return t.SearchHit(score=score, entry=entry, reasons=["content-match"])


def test_the_docs_put_first_keep_the_scores_in_rank_order() -> None:
    hits = [_hit("src/http1.rs", 0.973), _hit("src/role.rs", 0.677), _hit("docs/guide.md", 0.468)]
    moved = docs_first(hits)
    assert [hit.entry.path for hit in moved] == ["docs/guide.md", "src/http1.rs", "src/role.rs"]
    scores = [hit.score for hit in moved]
    assert scores == sorted(scores, reverse=True), scores
    assert moved[0].score == 0.973
    assert moved[1:] == hits[:2]  # the rest untouched


def test_no_doc_leaves_the_hits_alone() -> None:
    hits = [_hit("src/http1.rs", 0.973), _hit("src/role.rs", 0.677)]
    assert docs_first(hits) == hits
