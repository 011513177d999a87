"""A search over every repository keeps the note of each repository whose hits it shows.
QA on Textualize/rich, the one repository served: without a repoId, `rich/table.py:99999`
answered its last line with no note (with `repoId` the note said the line is past the file's
end), and so did every answer with hits: `these hits are only semantically close to it`,
`none of these hits declares X` were dropped; only an empty answer kept its note."""

from __future__ import annotations

from query_api.core.search_merge import merge_search_answers
from schemas import tools as t
from schemas.retrieval import RetrievalPath, SearchMode


def _answer(repo: str, score: float, note: str | None) -> t.SearchResult:
    hit = t.SearchHit(
        score=score,
        entry=t.EntryView(key=f"repo/{repo}/file/a.py", exists=True, kind="File", repoId=repo),
    )
    return t.SearchResult(
        repoId=repo,
        query="q",
        mode=SearchMode.KEYWORD,
        retrievalPath=RetrievalPath.KEYWORD_NO_EMBEDDER,
        hits=[hit],
        note=note,
    )


def test_one_repository_answer_keeps_its_note() -> None:
    note = "a.py:99999 is past the file's end (12 lines): its hit shows the last line"
    merged = merge_search_answers("a.py:99999", 10, [_answer("src", 1.0, note)])
    assert merged.note == note


def test_each_shown_repository_note_is_kept_with_its_repository() -> None:
    answers = [_answer("one", 1.0, "none of these hits declares X"), _answer("two", 0.5, None)]
    merged = merge_search_answers("where is X defined", 10, answers)
    assert merged.note == "one: none of these hits declares X"
    # a repository whose hits the answer does not show: its note is not the answer's
    cut = merge_search_answers("where is X defined", 1, [_answer("one", 0.4, "n1"), answers[1]])
    assert cut.note is None


def test_without_notes_there_is_none() -> None:
    merged = merge_search_answers("q", 10, [_answer("one", 1.0, None), _answer("two", 0.5, None)])
    assert merged.note is None
