"""Search answers an agent can act on (issue 24 items 1 and 3), over the real MCP client:
hits name their lines and the matching ones, Python names read as imported, nothing null or
empty travels, the text block is not the JSON again, and a query nothing matches gets
`hits: []` with a note instead of unrelated files that share a fragment of it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp.shared.memory import create_connected_server_and_client_session

from query_api.retrieval.hit_details import query_terms
from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import hash_vectors, memory_rig

pytestmark = pytest.mark.anyio
CLIENT = '''"""The test client."""


class FlaskClient:
    """Drives the app without a server."""

    def open(self, path):
        environ = build_environ(path)
        return self.app.wsgi_app(environ)
'''


def no_nulls(value: object) -> bool:
    if isinstance(value, dict):
        return all(v not in (None, [], {}, "") and no_nulls(v) for v in value.values())
    if isinstance(value, list):
        return all(no_nulls(v) for v in value)
    return True


async def test_hits_carry_lines_snippets_and_import_names(tmp_path: Path) -> None:
    repo = tmp_path / "ws" / "repo"
    (repo / "src" / "flask").mkdir(parents=True)
    (repo / "src" / "flask" / "__init__.py").write_text('"""Flask."""\n')
    (repo / "src" / "flask" / "testing.py").write_text(CLIENT)
    async with memory_rig(tmp_path, index=True) as (_, s):
        result = await s.call_tool(
            "repocontext_search", {"repoId": "repo", "query": "build_environ wsgi_app"}
        )
        answer = result.structuredContent
        assert answer is not None and no_nulls(answer)
        top = answer["hits"][0]
        assert top["entry"]["path"] == "src/flask/testing.py"
        assert (top["startLine"], top["endLine"]) == (7, 9)  # the method around the match
        assert top["snippet"] == (
            "8: environ = build_environ(path)\n9: return self.app.wsgi_app(environ)"
        )
        text = result.content[0].text  # type: ignore[union-attr]
        assert "src/flask/testing.py:7-9" in text and "8: environ = build_environ(path)" in text
        assert not text.startswith("{")  # a rendering for a model, not the JSON again
        assert len(text) < len(json.dumps(answer, separators=(",", ":")))

        named = await call(s, "repocontext_search", {"repoId": "repo", "query": "FlaskClient"})
        reasons = named["hits"][0]["reasons"]
        assert "symbol:flask.testing.FlaskClient" in reasons, reasons  # not src.flask...


CONTEXT_JS = """const proto = module.exports = {
  inspect () {
    return this.toJSON()
  },

  throw (...args) {
    throw createError(...args)
  }
}
"""


async def test_a_hit_found_by_the_parts_of_an_identifier_has_lines(tmp_path: Path) -> None:
    """`ctx.throw` occurs nowhere whole in koa's lib/context.js, which search finds by its
    `throw` declaration (and another file holds it whole, so the answer is no "no match");
    the hit still names the lines holding its words (it had no lines and no snippet)."""
    repo = tmp_path / "ws" / "repo"
    (repo / "lib").mkdir(parents=True)
    (repo / "lib" / "context.js").write_text(CONTEXT_JS)
    (repo / "lib" / "respond.js").write_text("function fail (ctx) {\n  ctx.throw(500)\n}\n")
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": "ctx.throw"})
        hits = {h["entry"]["path"]: h for h in found["hits"]}
        assert hits["lib/respond.js"]["snippet"] == "2: ctx.throw(500)"
        by_parts = hits["lib/context.js"]
        assert (by_parts["startLine"], by_parts["endLine"]) == (6, 8), by_parts
        assert "6: throw (...args) {" in by_parts["snippet"], by_parts


async def test_no_match_is_an_answer(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True) as (app, s):
        root = app.settings.workspace_root
        assert root is not None
        only = root / "repo" / "src" / "zoo.py"
        only.write_text("def feed():\n    return 'zebra_quokka_unique'\n")
        (root / "repo" / "src" / "ids.py").write_text("def unique_ids(xs):\n    return set(xs)\n")
        await call(s, "repocontext_refresh", {"repoId": "repo"})
        query = {"repoId": "repo", "query": "zebra_quokka_unique"}
        found = await call(s, "repocontext_search", query)
        assert found["hits"][0]["entry"]["path"] == "src/zoo.py"

        only.unlink()
        await call(s, "repocontext_refresh", {"repoId": "repo", "paths": ["src/zoo.py"]})
        gone = await call(s, "repocontext_search", query)
        assert gone["hits"] == [], gone["hits"]  # not ids.py for its `unique`
        assert "contains 'zebra_quokka_unique'" in gone["note"]
        assert gone["mode"] == "keyword" and gone["retrievalPath"] == "keyword.no_embedder"
        bundle = await call(s, "repocontext_context", {"repoId": "repo", "task": query["query"]})
        assert bundle["entries"] == [] and bundle["responseTokens"] == 0

        # a word of the query still matches where it occurs: that is an answer with hits
        unique = await call(s, "repocontext_search", {"repoId": "repo", "query": "unique ids"})
        assert unique["hits"] and "note" not in unique


async def test_the_changelog_is_found_by_what_it_is(tmp_path: Path) -> None:
    """QA on pallets/jinja: `where is the changelog` answered `hits: []`, since no file holds
    the word; CHANGES.rst holds versions and fixes."""
    async with memory_rig(tmp_path, index=True) as (app, s):
        root = app.settings.workspace_root
        assert root is not None
        (root / "repo" / "CHANGES.rst").write_text("Version 2.0\n-----------\n\n-   Faster.\n")
        await call(s, "repocontext_refresh", {"repoId": "repo"})
        for query in ("where is the changelog", "release notes for 2.0"):
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            assert found["hits"][0]["entry"]["path"] == "CHANGES.rst", (query, found)


async def test_a_definition_query_puts_the_declaring_file_first(tmp_path: Path) -> None:
    """QA on spf13/pflag: `Value interface` ranked files using values (`intValue`,
    `flagValueWrapper`) above flag.go, which declares `type Value interface`."""
    async with memory_rig(tmp_path, index=True) as (app, s):
        root = app.settings.workspace_root
        assert root is not None
        pkg = root / "repo" / "pflag"
        pkg.mkdir()
        (pkg / "flag.go").write_text(
            "package pflag\n\ntype Value interface {\n\tString() string\n}\n\n"
            + "".join(f"func helper{i}() int {{ return {i} }}\n" for i in range(60))
        )
        for name in ("int", "uint", "float"):
            (pkg / f"{name}.go").write_text(
                f"package pflag\n\n// {name}Value is a value of a Value interface.\n"
                f"type {name}Value int\n\nfunc (v *{name}Value) Value() Value {{ return v }}\n"
            )
        await call(s, "repocontext_refresh", {"repoId": "repo"})
        for query in ("Value interface", "where is the Value interface defined"):
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            assert found["hits"][0]["entry"]["path"] == "pflag/flag.go", (query, found["hits"])


async def test_no_match_for_a_word_nothing_ever_held(tmp_path: Path) -> None:
    """Keyword mode (no vectors): a word no file, name or memory entry ever held finds no
    candidate at all, and the empty answer says why, as the semantic path's does."""
    async with memory_rig(tmp_path, index=True) as (_, s):
        query = {"repoId": "repo", "query": "xylophonequasar"}
        result = await s.call_tool("repocontext_search", query)
        nothing = result.structuredContent
        assert nothing is not None and nothing["hits"] == []
        assert nothing["mode"] == "keyword" and nothing["retrievalPath"] == "keyword.no_embedder"
        assert "contains 'xylophonequasar'" in nothing["note"]
        text = result.content[0].text  # type: ignore[union-attr]
        assert text.startswith("0 hits for xylophonequasar") and nothing["note"] in text
        stop_words = await call(s, "repocontext_search", {"repoId": "repo", "query": "the of"})
        assert "note" not in stop_words  # stop words alone are never judged "no match"
        # ... but an answer with no hit at all says why (no file holds "who" or "why": it had
        # `hits: []` and no note, where the README promises one)
        absent = await call(s, "repocontext_search", {"repoId": "repo", "query": "who why"})
        assert absent["hits"] == [] and "contains 'who why'" in absent["note"]


async def test_a_small_k_is_the_head_of_a_large_one_even_when_its_hits_share_no_word(
    tmp_path: Path,
) -> None:
    """The first hits hold only the query's stop word ("the", weighed down but counted), a
    later one holds a word of it ("apply", once in a long file): the k=1 answer is the k=50
    answer's head, not an empty "nothing matches" because its one hit holds no word of it."""
    async with memory_rig(tmp_path, index=True) as (app, s):
        root = app.settings.workspace_root
        assert root is not None
        src = root / "repo" / "src"
        for name in ("route.go", "path.go", "host.go"):
            (src / name).write_text("// the route, the path and the host\n" * 20)
        filler = "".join(f"var v{i} = {i}\n" for i in range(2000))
        for i in range(8):  # a word many files hold weighs little
            (src / f"apply{i}.go").write_text(f"func apply{i}() {{}} // apply\n{filler}")
        await call(s, "repocontext_refresh", {"repoId": "repo"})
        query = "apply the stringscutprefix modernizer"
        wide = await call(s, "repocontext_search", {"repoId": "repo", "query": query, "k": 50})
        narrow = await call(s, "repocontext_search", {"repoId": "repo", "query": query, "k": 1})
        paths = [hit["entry"]["path"] for hit in wide["hits"]]
        assert "src/apply0.go" in paths and paths[0] == "src/host.go", paths
        assert [hit["entry"]["path"] for hit in narrow["hits"]] == paths[:1]
        assert "note" not in narrow


async def test_no_match_is_never_said_of_a_pool_hit_the_neighbours_pushed_out(
    tmp_path: Path,
) -> None:
    """Places 6-10 take the files the first five import, which the keyword pool may not
    hold; the pool's own hits they push out still count as matches. A QA pass: the one file
    holding `jaguarLargeHead` (a long note, pool place 9) left a k=10 answer that then said
    no file contains it, while k=5 and k=20 listed it."""
    async with memory_rig(tmp_path, index=True) as (app, s):
        root = app.settings.workspace_root
        assert root is not None
        src = root / "repo" / "lib"
        src.mkdir()
        for i in range(8):
            (src / f"util{i}.js").write_text(
                f"module.exports = function util{i}() {{ return {i} }}\n"
            )
            (src / f"header{i}.js").write_text(
                f"const util = require('./util{i}')\n"
                + "".join(f"// set the head of the large response {n}\n" for n in range(12))
            )
        line = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod\n"
        (root / "repo" / "notes.txt").write_text("jaguarLargeHead marker\n" + line * 1500)
        await call(s, "repocontext_refresh", {"repoId": "repo"})
        for k in (5, 10, 20):
            found = await call(
                s, "repocontext_search", {"repoId": "repo", "query": "jaguarLargeHead", "k": k}
            )
            assert found["hits"] and "note" not in found, (k, found.get("note"))


async def test_no_match_on_the_semantic_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Vectors always have nearest passages; when none holds a word of the query and the best
    is below the floor, the answer is still `hits: []` (mode and path unchanged). The floor is
    calibrated for MiniLM's cosines; the hash embedder's unrelated texts sit higher."""
    monkeypatch.setattr("query_api.core.search_ranking.SEMANTIC_FLOOR", 0.5)
    monkeypatch.setattr("query_api.retrieval.no_match.SEMANTIC_FLOOR", 0.5)
    async with (
        memory_rig(tmp_path, index=True) as (app, _),
        hash_vectors(app) as plane,
        create_connected_server_and_client_session(app.mcp_server()) as s,
    ):
        query = {"repoId": "repo", "query": "zebra_quokka_unique"}
        assert await plane.retriever.search("repo", query["query"], 10)  # nearest ones
        nothing = await call(s, "repocontext_search", query)
        assert nothing["mode"] == "semantic" and nothing["hits"] == []
        assert "< 0.5" in nothing["note"]
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": "ledger"})
        assert found["mode"] == "semantic" and found["hits"]


def test_query_terms_keep_identifiers_whole() -> None:
    terms = query_terms("where is zebra_quokka_unique used by FlaskClient in app.py")
    assert terms.identifiers == ("zebra_quokka_unique", "flaskclient", "app.py")
    assert terms.words == frozenset({"used"})
    assert query_terms("how is it").empty


def long_class(methods: int) -> str:
    """A class whose docstring names the query far from its first line, then `methods`
    short methods: the innermost declaration around the docstring is the whole class."""
    doc = [f"    Option {i} is described here." for i in range(60)]
    doc[45] = "    The terminal width decides where help text wraps."
    body = ["class Context:", '    """The context.', *doc, '    """', ""]
    for i in range(methods):
        body += [f"    def method_{i}(self):", f"        return {i}", ""]
    return "\n".join(body) + "\n"


async def test_a_hit_inside_a_long_class_names_a_short_range(tmp_path: Path) -> None:
    """A hit in click's 750-line `Context` class spanned all of it (208-956) while its snippet
    named two lines: the range is now the matching lines and a few around them, inside the
    class, and a symbol hit's whole declaration stays in its entry's fields."""
    repo = tmp_path / "ws" / "repo"
    repo.mkdir(parents=True)
    (repo / "core.py").write_text(long_class(200))
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": "terminal width"})
        top = found["hits"][0]
        assert top["entry"]["path"] == "core.py", top
        start, end = top["startLine"], top["endLine"]
        shown = [int(line.split(":", 1)[0]) for line in top["snippet"].splitlines()]
        assert shown == [48], top  # the docstring's line 45 + 3
        assert start <= 48 <= end and end - start + 1 <= 40, top
        assert start >= 1 and end < 600  # inside the class, not all of it

        # found by the class's name: its first lines, and the reason names the declaration,
        # whose whole span the symbol's entry holds
        named = await call(s, "repocontext_search", {"repoId": "repo", "query": "Context"})
        top = named["hits"][0]
        assert "symbol:core.Context" in top["reasons"], top
        assert top["startLine"] == 1 and top["endLine"] - top["startLine"] + 1 <= 40, top
        assert top["snippet"].startswith("1: class Context:"), top
        symbol = await call(s, "repocontext_recall", {"key": "repo/repo/symbol/core.Context"})
        assert (symbol["fields"]["startLine"], symbol["fields"]["endLine"]) == ("1", "663")


COMPLETION = '''"""Shell completion."""


class BashComplete:
    def format_completion(self, item):
        return f"{item.type},{item.value}"


class ZshComplete:
    def format_completion(self, item):
        return f"{item.type}\\n{item.value}\\n{item.help}"
'''


async def test_a_qualified_name_in_the_query_names_its_declaration(tmp_path: Path) -> None:
    """The dotted name is never in the file whole: its lines are the declaration it names,
    not the other class's method holding the same words, and its `symbol:` reason leads."""
    repo = tmp_path / "ws" / "repo"
    (repo / "src" / "click").mkdir(parents=True)
    (repo / "src" / "click" / "__init__.py").write_text('"""Click."""\n')
    (repo / "src" / "click" / "shell_completion.py").write_text(COMPLETION)
    async with memory_rig(tmp_path, index=True) as (_, s):
        for query, lines, named in (
            ("click.shell_completion.ZshComplete", (9, 11), "ZshComplete"),
            ("ZshComplete.format_completion", (10, 11), "ZshComplete.format_completion"),
            (
                "shell_completion.BashComplete.format_completion",
                (5, 6),
                "BashComplete.format_completion",
            ),
        ):
            answer = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            top = answer["hits"][0]
            assert top["entry"]["path"] == "src/click/shell_completion.py", query
            assert (top["startLine"], top["endLine"]) == lines, (query, top)
            symbols = [r for r in top["reasons"] if r.startswith("symbol:")]
            assert symbols[0] == f"symbol:click.shell_completion.{named}", (query, top)
