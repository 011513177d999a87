"""A search for the users of a method its type qualifies (`who calls Buffered::poll_flush`)
points a file declaring a same-named method of another type at the calls inside that method:
only the asked type's declaration is the name's own, where a recursive call is no use.
QA on hyperium/hyper: `who calls Buffered::poll_flush` pointed src/proto/h1/conn.rs at a test's
`conn.poll_flush(cx)` (a call of Conn's poll_flush), not at `Conn::poll_flush`, whose
`Pin::new(&mut self.io).poll_flush(cx)` is the call of Buffered's: the file's Conn.poll_flush
was taken for the asked declaration, its lines for a recursive call."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.hit_details import HitLocator
from query_api.retrieval.use_sites import at_use_sites, uses_located
from schemas import tools as t
from tests.query_api.located import located_hits

CONN = "\n".join(
    [
        "pub struct Conn {",  # 1
        "    io: Buffered,",  # 2
        "}",  # 3
        "",  # 4
        "impl Conn {",  # 5
        "    pub fn poll_flush(&mut self) -> bool {",  # 6
        "        self.io.poll_flush()",  # 7
        "    }",  # 8
        "}",  # 9
        "",  # 10
        "#[cfg(test)]",  # 11
        "mod tests {",  # 12
        "    use super::*;",  # 13
        "",  # 14
        "    fn flushes(conn: &mut Conn) {",  # 15
        "        assert!(conn.poll_flush());",  # 16
        "    }",  # 17
        "}",  # 18
        "",
    ]
)
IO = "\n".join(
    [
        "pub struct Buffered {",  # 1
        "    n: usize,",  # 2
        "}",  # 3
        "",  # 4
        "impl Buffered {",  # 5
        "    pub fn poll_flush(&mut self) -> bool {",  # 6
        "        self.poll_flush()",  # 7
        "    }",  # 8
        "}",  # 9
        "",
    ]
)
FILES = {"src/conn.rs": CONN, "src/io.rs": IO}


def test_a_same_named_method_of_another_type_holds_a_use(tmp_path: Path) -> None:
    for query in ("who calls Buffered::poll_flush", "what calls Buffered.poll_flush"):
        hits = located_hits(tmp_path, FILES, query, at_use_sites)
        conn = next(hit for hit in hits if hit.entry.path == "src/conn.rs")
        assert (conn.startLine, conn.endLine) == (6, 8), (query, conn)
        assert conn.snippet == "7: self.io.poll_flush()", query


def test_the_asked_types_own_method_is_still_no_use_of_itself(tmp_path: Path) -> None:
    used: list[bool] = []

    def step(
        locator: HitLocator, repo_id: str, query: str, hits: list[t.SearchHit]
    ) -> list[t.SearchHit]:
        located, found = uses_located(locator, repo_id, query, hits)
        used.append(found)
        return located

    located_hits(tmp_path, {"src/io.rs": IO}, "who calls Buffered::poll_flush", step)
    assert used == [False]
