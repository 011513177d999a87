"""A question whose subject is benchmarks gets them first: a bench folder's files, and Go's
test files declaring `func BenchmarkX`, brought in from beside the code when the ranking left
them out (query_api/retrieval/bench_first.py). QA on gorilla/websocket: `benchmarks for
masking` ranked the source files holding `masking` above mask_test.go."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.bench_first import REASON, asks_benchmarks
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

MASK = """package websocket

// maskBytes applies the client masking key to b: masking XORs each byte with the key.
func maskBytes(key [4]byte, pos int, b []byte) int {
\tfor i := range b {
\t\tb[i] ^= key[pos&3]
\t\tpos++
\t}
\treturn pos & 3
}
"""
MASK_TEST = """package websocket

import "testing"

func TestMaskBytes(t *testing.T) {
\tkey := [4]byte{1, 2, 3, 4}
\tif maskBytes(key, 0, []byte("hello")) != 1 {
\t\tt.Fatal("masking: wrong position")
\t}
}

func BenchmarkMaskBytes(b *testing.B) {
\tkey := [4]byte{1, 2, 3, 4}
\tdata := make([]byte, 1024)
\tfor i := 0; i < b.N; i++ {
\t\tmaskBytes(key, 0, data) // masking throughput
\t}
}
"""
CONN = """package websocket

// Conn writes frames; a client frame applies masking to its payload (masking key below).
type Conn struct {
\tisServer bool
\tmaskKey  [4]byte
}

// writeFrame applies masking when the connection is a client: masking is required.
func (c *Conn) writeFrame(b []byte) {
\tif !c.isServer {
\t\tmaskBytes(c.maskKey, 0, b) // masking
\t}
}
"""
FILES = {"mask.go": MASK, "mask_test.go": MASK_TEST, "conn.go": CONN}


def test_the_questions_asking_for_benchmarks() -> None:
    for query in (
        "benchmarks for masking",
        "where are the benchmarks for masking",
        "show me the benchmarks",
        "which benchmarks cover parsing?",
    ):
        assert asks_benchmarks(query), query
    for query in ("add a benchmark for masking", "benchmark the parser", "fix benchmarks"):
        assert not asks_benchmarks(query), query


async def _paths(tmp_path: Path, files: dict[str, str], query: str) -> list[t.SearchHit]:
    async with indexed_app(tmp_path, files) as app:
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
    return answer.hits


async def test_a_go_test_file_declaring_the_benchmark_comes_first(tmp_path: Path) -> None:
    hits = await _paths(tmp_path, FILES, "benchmarks for masking")
    top = hits[0]
    assert top.entry.path == "mask_test.go", [h.entry.path for h in hits]
    assert REASON in top.reasons, top.reasons
    assert top.snippet is not None and "BenchmarkMaskBytes" in top.snippet, top.snippet


async def test_a_request_to_add_a_benchmark_changes_the_code(tmp_path: Path) -> None:
    hits = await _paths(tmp_path, FILES, "add a benchmark for masking")
    assert hits[0].entry.path != "mask_test.go", [h.entry.path for h in hits]
    assert all(REASON not in h.reasons for h in hits)


async def test_a_bench_folder_s_file_holding_the_subject_comes_first(tmp_path: Path) -> None:
    files = {
        "src/parse.rs": "/// Parses a header line: parsing splits on the colon.\n"
        "pub fn parse_header(line: &str) -> Option<(&str, &str)> { line.split_once(':') }\n",
        "src/lib.rs": "pub mod parse;\n/// Header parsing for the crate.\n"
        "pub use parse::parse_header;\n",
        "benches/parsing.rs": "use criterion::Criterion;\n\n"
        "fn bench_parse_header(c: &mut Criterion) {\n"
        '    c.bench_function("parsing a header", |b| b.iter(|| parse_header("a: b")));\n}\n',
    }
    hits = await _paths(tmp_path, files, "where are the benchmarks for parsing")
    assert hits[0].entry.path == "benches/parsing.rs", [h.entry.path for h in hits]
