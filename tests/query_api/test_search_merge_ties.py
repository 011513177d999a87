"""A search over every repository keeps one repository's order among hits scoring the same
(query_api/core/search_merge.py). QA on unjs/unstorage, the one repository served: `what
calls prefixStorage` without a repoId ranked src/utils.ts, which declares prefixStorage,
first and its two callers after it; with `repoId` the callers came first, as users_first
placed them. The callers get the declaring file's score, and the merge broke the tie by
entry key, that is by path."""

from __future__ import annotations

from query_api.core.search_merge import merge_search_answers
from schemas import tools as t
from schemas.retrieval import RetrievalPath, SearchMode


def _answer(repo: str, *scored: tuple[str, float]) -> t.SearchResult:
    hits = [
        t.SearchHit(
            score=score,
            entry=t.EntryView(
                key=f"repo/{repo}/file/{path}", exists=True, kind="File", repoId=repo
            ),
        )
        for path, score in scored
    ]
    return t.SearchResult(
        repoId=repo,
        query="q",
        mode=SearchMode.KEYWORD,
        retrievalPath=RetrievalPath.KEYWORD_NO_EMBEDDER,
        hits=hits,
    )


def _paths(result: t.SearchResult) -> list[str]:
    return [hit.entry.key.rpartition("/file/")[2] for hit in result.hits]


def test_one_repository_keeps_its_order_among_equal_scores() -> None:
    one = _answer(
        "src",
        ("test/storage.test.ts", 1.0),
        ("test/storage.test-d.ts", 1.0),
        ("src/utils.ts", 1.0),
        ("src/storage.ts", 0.5),
    )
    merged = merge_search_answers("what calls prefixStorage", 10, [one])
    assert _paths(merged) == _paths(one)


def test_repositories_interleave_by_score_then_by_rank() -> None:
    a = _answer("a", ("z.ts", 1.0), ("b.ts", 1.0), ("c.ts", 0.2))
    b = _answer("b", ("y.ts", 1.0), ("a.ts", 0.5))
    merged = merge_search_answers("q", 10, [a, b])
    assert [h.entry.key for h in merged.hits] == [
        "repo/a/file/z.ts",
        "repo/b/file/y.ts",
        "repo/a/file/b.ts",
        "repo/b/file/a.ts",
        "repo/a/file/c.ts",
    ]
