"""A hit's range ends on the file's last line, not on the empty "line" after its final
newline. QA on seanmonstar/reqwest: searching `src/dns/mod.rs` (12 lines, outline's
lineCount 12) answered lines 1-13."""

from __future__ import annotations

from pytest import MonkeyPatch

from query_api.retrieval import hit_details
from schemas import tools as t

BODY = "//! DNS resolution\n\npub use resolve::Resolve;\n\npub(crate) mod gai;\nmod resolve;\n"


def _hit() -> t.SearchHit:
    entry = t.EntryView(key="repo/r/file/src/dns/mod.rs", exists=True, kind="File", path="x")
    return t.SearchHit(score=1.0, entry=entry, reasons=[])


def test_a_file_named_by_path_ends_on_its_last_line() -> None:
    shown = hit_details._at_head(_hit(), BODY)
    assert (shown.startLine, shown.endLine) == (1, 6), shown


def test_a_passage_reaching_the_end_ends_on_the_last_line(monkeypatch: MonkeyPatch) -> None:
    lines = BODY.split("\n")
    monkeypatch.setattr(hit_details, "passage_lines", lambda *_: (1, len(lines)))
    found = hit_details._passage_location("r", "src/dns/mod.rs", BODY, "v")
    assert found is not None and found.end_line == 6, found
