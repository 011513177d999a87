"""A definition question naming a trait (`where is the Subscriber trait defined`) asks for the
trait, before a struct of the same name (definition_sites.asked_kinds: 'trait' names an
Interface first, a Type only where no interface is declared, as some parsers store traits).
QA on tokio-rs/tracing, whose tracing-core declares `pub trait Subscriber` and
tracing-subscriber's fmt module `pub struct Subscriber`: the struct's file ranked first."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "tracing-core/src/subscriber.rs": "/// Collects trace data.\npub trait Subscriber: 'static {\n"
    "    fn enabled(&self) -> bool;\n    fn event(&self, name: &str);\n"
    "    fn enter(&self, id: u64);\n    fn exit(&self, id: u64);\n}\n",
    "tracing-core/src/lib.rs": "pub mod subscriber;\npub use subscriber::Subscriber;\n",
    "tracing-subscriber/src/fmt/mod.rs": "use core::Subscriber as CoreSubscriber;\n\n"
    "/// A Subscriber that formats events. This Subscriber writes lines: it implements the\n"
    "/// Subscriber trait, and the Layer trait when composed; see the trait's docs.\n"
    "pub struct Subscriber {\n    lines: Vec<String>,\n}\n\n"
    "impl Subscriber {\n    pub fn new() -> Subscriber {\n"
    "        Subscriber { lines: Vec::new() }\n    }\n}\n\n"
    "impl CoreSubscriber for Subscriber {\n    fn enabled(&self) -> bool { true }\n}\n",
}


async def test_a_trait_question_puts_the_trait_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        for query in (
            "where is the Subscriber trait defined",
            "where is the Subscriber trait",
        ):
            answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
            assert answer.hits, query
            first = answer.hits[0]
            assert first.entry.path == "tracing-core/src/subscriber.rs", (query, answer.hits)
            assert first.startLine is not None and first.endLine is not None
            assert first.startLine <= 2 <= first.endLine, (query, first)
        # a struct asked for is the struct
        query = "where is the Subscriber struct defined"
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        assert answer.hits[0].entry.path == "tracing-subscriber/src/fmt/mod.rs", answer.hits
