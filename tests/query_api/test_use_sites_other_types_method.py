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


DISPATCH = "\n".join(
    [
        "pub struct Dispatcher {",  # 1
        "    conn: Conn,",  # 2
        "}",  # 3
        "",  # 4
        "impl Dispatcher {",  # 5
        "    fn poll_read(&mut self) {",  # 6
        "        self.poll_read_head();",  # 7
        "    }",  # 8
        "",  # 9
        "    fn poll_read_head(&mut self) {",  # 10
        "        self.conn.poll_read_head();",  # 11
        "    }",  # 12
        "}",  # 13
        "",
    ]
)


def test_a_call_through_self_of_the_files_own_method_is_no_use_of_another_types(
    tmp_path: Path,
) -> None:
    """QA on hyperium/hyper: `what calls Conn::poll_read_head` pointed dispatch.rs at
    `self.poll_read_head(cx)`, a call of Dispatcher's own poll_read_head, not at
    `self.conn.poll_read_head(cx)` in it."""
    for query in ("what calls Conn::poll_read_head", "who calls Conn.poll_read_head"):
        [hit] = located_hits(tmp_path, {"src/dispatch.rs": DISPATCH}, query, at_use_sites)
        assert (hit.startLine, hit.endLine) == (10, 12), (query, hit)
        assert hit.snippet == "11: self.conn.poll_read_head();", query
    # unqualified, each call is one
    [hit] = located_hits(
        tmp_path, {"src/dispatch.rs": DISPATCH}, "what calls poll_read_head", at_use_sites
    )
    assert hit.snippet == "7: self.poll_read_head();", hit
