"""A hit pointed at a place the query names (`src/proto/h1/conn.rs:325`) says which
declaration holds it: its first `symbol:` reason is that declaration, and a query that is
only the place keeps no other `symbol:` reason, since those matched the path's words alone.
QA on hyperium/hyper: `src/proto/h1/conn.rs:325` (a `));` inside Conn.poll_read_head) showed
`symbol:Conn.set_h1_parser_config, symbol:State.h1_parser_config`, declarations elsewhere
in the file that share the path's word `h1`, and nothing said which function line 325 is in;
a pasted panic at `src/proto/h1/role.rs:1422:17` alike named HeaderNameWriter's methods."""

from __future__ import annotations

from pathlib import Path

from schemas import tools as t
from tests.query_api.located import placed_hit

PATH = "src/proto/h1/conn.rs"
BODY = "\n".join(
    [
        "pub(crate) struct Conn {",  # 1
        "    h1_parser_config: u8,",  # 2
        "}",  # 3
        "",  # 4
        "impl Conn {",  # 5
        "    pub(crate) fn set_h1_parser_config(&mut self, c: u8) {",  # 6
        "        self.h1_parser_config = c;",  # 7
        "    }",  # 8
        "",  # 9
        "    pub(crate) fn poll_read_head(&mut self) -> u8 {",  # 10
        "        let decoder = Decoder::new(",  # 11
        "            self.h1_parser_config,",  # 12
        "        );",  # 13
        "        decoder",  # 14
        "    }",  # 15
        "}",  # 16
        "",
    ]
)
BY_PATH_WORDS = ["path-name-match", "symbol:Conn.set_h1_parser_config", "symbol:Conn"]


def _hit(tmp_path: Path, query: str) -> t.SearchHit:
    return placed_hit(tmp_path, PATH, BODY, query, tuple(BY_PATH_WORDS))[0]


def _symbols(hit: t.SearchHit) -> list[str]:
    return [r for r in hit.reasons if r.startswith("symbol:")]


def test_a_place_alone_names_the_declaration_holding_it(tmp_path: Path) -> None:
    for query in (f"{PATH}:13", f"{PATH}:13:9", f"{PATH}#L12-L13"):
        hit = _hit(tmp_path, query)
        assert hit.startLine is not None and hit.startLine >= 12, query
        assert _symbols(hit) == ["symbol:Conn.poll_read_head"], (query, hit.reasons)
        assert "path-name-match" in hit.reasons


def test_a_place_in_a_sentence_names_it_first_and_keeps_the_words_reasons(
    tmp_path: Path,
) -> None:
    hit = _hit(tmp_path, f"why does {PATH}:13 ignore the parser config?")
    assert _symbols(hit)[0] == "symbol:Conn.poll_read_head", hit.reasons
    assert "symbol:Conn.set_h1_parser_config" in hit.reasons


def test_a_place_alone_that_no_declaration_holds_names_none(tmp_path: Path) -> None:
    hit = _hit(tmp_path, f"{PATH}:4")
    assert _symbols(hit) == [], hit.reasons
    assert "path-name-match" in hit.reasons
