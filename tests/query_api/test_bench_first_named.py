"""A question asking for benchmarks gets first those named for its subject's words
(`benches/span_no_fields.rs` of `benchmarks for span creation`), brought in when the ranking
left them out (the role prior pushes benchmarks down), above a bench folder's helper merely
holding the words. QA on tokio-rs/tracing: `where are the benchmarks for span creation` put
benches/shared.rs first and none of span_no_fields.rs, span_fields.rs, empty_span.rs in the
first ten, source files filling the rest; `which benchmarks cover filtering` left out
benches/filter.rs."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.bench_first import REASON
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

SPAN = "\n".join(
    f"/// Span creation step {n}: creating a span records its fields; span creation is cheap.\n"
    f"pub fn create_span_{n}(name: &str) -> Span {{ Span::new(name) }}"
    for n in range(12)
)
FILES = {
    "src/span.rs": "pub struct Span;\nimpl Span {\n    pub fn new(_: &str) -> Span { Span }\n}\n"
    + SPAN,
    "src/event.rs": "/// Event creation, beside span creation.\npub fn event() {}\n",
    "benches/shared.rs": "/// Subscribers the benchmarks share: each records span creation.\n"
    "pub struct EnabledSubscriber;\nimpl EnabledSubscriber {\n"
    "    /// Called on span creation.\n    pub fn new_span(&self) {}\n}\n",
    "benches/span_no_fields.rs": "mod shared;\n\nfn bench(c: &mut Criterion) {\n"
    '    c.bench_function("span_no_fields", |b| b.iter(|| span!(Level::TRACE, "span")));\n}\n',
    "src/filter.rs": "/// Filtering spans by level: filtering happens before creation.\n"
    "pub fn filter_span(level: u8) -> bool { level > 2 }\n",
    "benches/filter.rs": "mod shared;\n\nfn bench(c: &mut Criterion) {\n"
    '    c.bench_function("filter", |b| b.iter(|| filter_span(3)));\n}\n',
    "benches/event.rs": "mod shared;\n\nfn bench(c: &mut Criterion) {\n"
    '    c.bench_function("event", |b| b.iter(|| event!(Level::TRACE, "x")));\n}\n',
}


async def test_the_benchmarks_named_for_the_subject_come_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        query = "where are the benchmarks for span creation"
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        paths = [hit.entry.path for hit in answer.hits]
        assert paths[0] == "benches/span_no_fields.rs", paths
        assert REASON in answer.hits[0].reasons, answer.hits[0]
        assert "benches/shared.rs" in paths[:3], paths
        assert "benches/event.rs" not in paths[:2], paths
        # named for a form of the subject's word (`filter.rs` of `filtering`)
        query = "which benchmarks cover filtering"
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        assert answer.hits[0].entry.path == "benches/filter.rs", answer.hits
