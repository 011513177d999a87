"""A file declaring the declaration a query names by its qualified name ranks first in the
hybrid answer too, though the vectors prefer a file that delegates to it (the real ladder,
views and in-process Qdrant; a bag-of-words embedder, so the delegate that repeats the
names wins the semantic list)."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.declared_first import declared_first
from schemas import tools as t
from schemas.retrieval import RetrievalPath
from schemas.tools import EntryKind
from tests.vectors.test_ladder import open_rig

pytestmark = pytest.mark.anyio

METHOD = "    public NumberType getNumberType() {{ return {0}; }}\n"
PARSERS = {
    "core/JsonParser.java": "public abstract class JsonParser {\n"
    + METHOD.format("null")
    + "    public abstract Token nextToken();\n}\n",
    "core/util/JsonParserDelegate.java": "public class JsonParserDelegate extends JsonParser {\n"
    + METHOD.format("delegate.getNumberType()")
    + "    // the delegate JsonParser getNumberType: JsonParser getNumberType\n" * 4
    + "}\n",
    "core/base/ParserBase.java": "public abstract class ParserBase extends JsonParser {\n"
    + METHOD.format("getNumberType0()")
    + "}\n",
    "tests/JsonParserTest.java": "class JsonParser {\n" + METHOD.format("null") + "}\n",
}


async def test_a_qualified_name_ranks_its_declaring_file_first(tmp_path: Path) -> None:
    async for rig in open_rig(tmp_path, files=PARSERS):
        await rig.indexer.run_until_idle()
        for query in ("JsonParser.getNumberType", "where is `JsonParser.getNumberType()` used"):
            answer = await rig.plane.retriever.search("repo", query, 5)
            assert answer.path in (RetrievalPath.SEMANTIC_APPROXIMATE, RetrievalPath.SEMANTIC_EXACT)
            paths = [h.entry.path for h in answer.hits]
            # a query for its users has its caller first (`delegate.getNumberType()` in a
            # file naming JsonParser: users_first.py), the declaring file next
            first = 1 if query.endswith("used") else 0
            assert paths[first] == "core/JsonParser.java", (query, paths)
            assert first == 0 or paths[0] == "core/util/JsonParserDelegate.java", paths
            scores = [h.score for h in answer.hits]
            assert scores == sorted(scores, reverse=True)
        # the test's own JsonParser is a mock: not lifted unless tests are asked for
        hits = (await rig.plane.retriever.search("repo", "JsonParser.getNumberType", 5)).hits
        assert [h.entry.path for h in hits].index("tests/JsonParserTest.java") > 0


def _hit(path: str, score: float, kind: EntryKind = "File") -> t.SearchHit:
    entry = t.EntryView(key=f"repo:{path}", exists=True, kind=kind, path=path)
    return t.SearchHit(score=score, entry=entry, reasons=[])


def test_declared_first_moves_only_files_and_keeps_order() -> None:
    hits = [_hit("a.py", 0.9), _hit("b.py", 0.8), _hit("m", 0.7, "Memory"), _hit("c.py", 0.6)]
    moved = declared_first(hits, {"c.py", "b.py", "m"})
    assert [h.entry.path for h in moved] == ["b.py", "c.py", "a.py", "m"]
    assert [h.score for h in moved] == [0.9, 0.9, 0.9, 0.7]
    assert declared_first(hits, set()) is hits


async def test_a_module_named_by_its_qualified_name_ranks_first(tmp_path: Path) -> None:
    """`starlette.exceptions` is starlette/exceptions.py, though the middleware module repeats
    the request's other words for the encoder and for BM25."""
    middleware = "class ExceptionMiddleware:\n    def handle(self, exc):\n        raise exc\n"
    files = {
        "starlette/exceptions.py": "class HTTPException(Exception):\n    status_code = 500\n",
        "starlette/middleware/exceptions.py": middleware
        + "# remove the ExceptionMiddleware import proxy from the exceptions module\n" * 3,
    }
    async for rig in open_rig(tmp_path, files=files):
        await rig.indexer.run_until_idle()
        query = "Remove `ExceptionMiddleware` import proxy from `starlette.exceptions` module"
        answer = await rig.plane.retriever.search("repo", query, 5)
        assert answer.path in (RetrievalPath.SEMANTIC_APPROXIMATE, RetrievalPath.SEMANTIC_EXACT)
        assert answer.hits[0].entry.path == "starlette/exceptions.py"


async def test_tests_a_query_asks_for_are_in_the_hybrid_answer(tmp_path: Path) -> None:
    """Test files are never embedded, so the semantic list cannot hold them: `add tests for
    match_all` found args_test.py by keyword and lost it in the fusion to every embedded file."""
    source = "def match_all(*validators):\n    return all(validators)\n"
    files = {
        "args.py": source,
        "tests/test_args.py": "".join(
            f"def test_match_all_{case}():\n    assert match_all({case})\n\n"
            for case in ("none", "one", "two", "many")
        ),
        **{
            f"pkg/mod{i}.py": f"def add_tests{i}(tests):\n    return all(tests)\n"
            for i in range(12)
        },
    }
    async for rig in open_rig(tmp_path, files=files):
        await rig.indexer.run_until_idle()
        answer = await rig.plane.retriever.search("repo", "add tests for match_all", 5)
        assert answer.path in (RetrievalPath.SEMANTIC_APPROXIMATE, RetrievalPath.SEMANTIC_EXACT)
        paths = [h.entry.path for h in answer.hits]
        assert "tests/test_args.py" in paths[:3], paths
        # a query that asks for no tests keeps them below: the source is what it means
        paths = [
            h.entry.path for h in (await rig.plane.retriever.search("repo", "match_all", 5)).hits
        ]
        assert paths[0] == "args.py", paths


async def test_a_file_named_by_its_path_ranks_first_though_it_is_never_embedded(
    tmp_path: Path,
) -> None:
    """bubbletea: `in examples/simple/main.go make the countdown start at 10` ranked
    commands.go first and the example 22nd: examples are not embedded, so the fusion gave
    the named file its keyword share alone."""
    ticker = "package main\n\nfunc tick(n int) int {\n    return n - 1\n}\n"
    files = {
        "examples/simple/main.go": ticker,
        "commands.go": "package tea\n\n// a countdown command: start, tick, make the countdown\n"
        + "func Tick(countdown int) int {\n    return countdown - 1\n}\n" * 2,
    }
    async for rig in open_rig(tmp_path, files=files):
        await rig.indexer.run_until_idle()
        query = "in examples/simple/main.go make the countdown start at 10"
        answer = await rig.plane.retriever.search("repo", query, 5)
        assert answer.path in (RetrievalPath.SEMANTIC_APPROXIMATE, RetrievalPath.SEMANTIC_EXACT)
        assert answer.hits[0].entry.path == "examples/simple/main.go", answer.hits


async def test_a_lone_name_only_a_test_declares_ranks_that_test_first(tmp_path: Path) -> None:
    """go-resty/resty: `TestClientRetryGet` is a test's name, declared by retry_test.go
    alone; keyword search ranked that test first, but the answer put its subject retry.go
    above it, and the hybrid answer let three embedded files pass it (4th of 10). Looked up
    alone, the test is what the query means; inside a sentence the source stays first."""
    files = {
        "retry_test.go": "package resty\n\nfunc TestClientRetryGet(t *testing.T) {\n"
        "\tc := dc()\n\tc.SetRetryCount(3)\n}\n",
        "retry.go": "package resty\n\n// retry get client retry get client retry\n"
        "func Backoff(operation func() error) error {\n\treturn operation()\n}\n",
        **{
            f"client{i}.go": f"package resty\n\n// client retry get test client\n"
            f"func (c *Client) GetClient{i}() *Client {{\n\treturn c\n}}\n"
            for i in range(4)
        },
    }
    async for rig in open_rig(tmp_path, files=files):
        await rig.indexer.run_until_idle()
        answer = await rig.plane.retriever.search("repo", "TestClientRetryGet", 5)
        assert answer.path in (RetrievalPath.SEMANTIC_APPROXIMATE, RetrievalPath.SEMANTIC_EXACT)
        paths = [h.entry.path for h in answer.hits]
        assert paths[0] == "retry_test.go", paths
        scores = [h.score for h in answer.hits]
        assert scores == sorted(scores, reverse=True)
        sentence = await rig.plane.retriever.search("repo", "fix the client retry get", 5)
        assert sentence.hits[0].entry.path != "retry_test.go", sentence.hits
