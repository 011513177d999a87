"""The `symbol:` reason naming the declaration a query names, put first by hit details and by
definition queries, names it as its code does: without the parameter types the symbol views
tell a name declared twice in a file apart by (docs/answers.md, Overloads), once. QA on
hyperium/hyper: `hyper::server::conn::http1::Builder::max_buf_size` (a field and a method of
Builder) read `symbol:Builder.max_buf_size(self,usize), symbol:Builder.max_buf_size`."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.definition_sites import at_definitions
from tests.query_api.located import located_hits

PATH = "src/server/conn/http1.rs"
BODY = "\n".join(
    [
        "pub struct Builder {",  # 1
        "    max_buf_size: Option<usize>,",  # 2
        "}",  # 3
        "",  # 4
        "impl Builder {",  # 5
        "    /// Set the maximum buffer size for the connection.",  # 6
        "    pub fn max_buf_size(&mut self, max: usize) -> &mut Self {",  # 7
        "        self.max_buf_size = Some(max);",  # 8
        "        self",  # 9
        "    }",  # 10
        "}",  # 11
        "",
    ]
)


def _symbols(reasons: list[str]) -> list[str]:
    return [r for r in reasons if r.startswith("symbol:")]


def test_a_named_declarations_reason_has_no_types(tmp_path: Path) -> None:
    for query, step in (
        ("hyper::server::conn::http1::Builder::max_buf_size", None),
        ("Builder::max_buf_size", None),
        ("where is Builder::max_buf_size defined", at_definitions),
    ):
        [hit] = located_hits(tmp_path, {PATH: BODY}, query, step)
        shown = _symbols(hit.reasons)
        assert shown, (query, hit.reasons)
        assert all("(" not in r and "#" not in r for r in shown), (query, hit.reasons)
        assert len(shown) == len(set(shown)), (query, hit.reasons)
