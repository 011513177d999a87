"""A query about the docs of a thing (`docs for addMethod`, `where is setLocale documented`)
gets the pages about it before the records of the project's history: a changelog's entry
names the thing for a change made to it, and the tied ranking put it first. QA on
jquense/yup: `docs for addMethod` led with CHANGELOG.md:78 (`* **addMethod:** allow Schema
without making TypeScript upset`), then README.md and docs/extending.md."""

from __future__ import annotations

import pytest

from query_api.retrieval.docs_first import docs_first
from schemas import tools as t


def _hit(path: str) -> t.SearchHit:
    entry = t.EntryView(key=f"repo/r/file/{path}", exists=True, kind="File", path=path)
    return t.SearchHit(score=1.0, entry=entry, reasons=["content-match"])


def _paths(hits: list[t.SearchHit]) -> list[str]:
    return [hit.entry.path or "" for hit in hits]


def test_a_changelog_comes_after_the_pages() -> None:
    hits = [_hit(p) for p in ["CHANGELOG.md", "README.md", "docs/extending.md", "src/index.ts"]]
    assert _paths(docs_first(hits)) == [
        "README.md",
        "docs/extending.md",
        "CHANGELOG.md",
        "src/index.ts",
    ]


@pytest.mark.parametrize(
    "record",
    ["CHANGES.rst", "HISTORY.md", "docs/changelog.md", "changelog.d/1234.bugfix.md", "NEWS"],
)
def test_every_record_of_changes_comes_after_the_pages(record: str) -> None:
    hits = [_hit(record), _hit("docs/guide.md")]
    assert _paths(docs_first(hits)) == ["docs/guide.md", record]


def test_only_records_the_ranking_holds_keep_their_order() -> None:
    hits = [_hit("CHANGELOG.md"), _hit("src/index.ts")]
    assert _paths(docs_first(hits)) == ["CHANGELOG.md", "src/index.ts"]


def test_records_alone_are_not_lifted_above_the_code() -> None:
    """QA on hyperium/hyper: `where is max_headers documented` put CHANGELOG.md first, its
    one doc file holding the name, above the source whose `///` comments document it."""
    hits = [_hit("src/client/conn/http1.rs"), _hit("src/lib.rs"), _hit("CHANGELOG.md")]
    assert _paths(docs_first(hits)) == ["src/client/conn/http1.rs", "src/lib.rs", "CHANGELOG.md"]
