"""Memory links to symbols in either spelling, and dangling targets said (issue 24): in a src
layout outline shows `flask.testing.FlaskClient` while the symbol is stored (and scanned,
recalled, linked) as `src.flask.testing.FlaskClient`; a link written with the name outline
shows lands on the stored key, and a target that names nothing is reported, not silently
kept. Real app, real MCP client over the SDK's in-memory transport."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import ClientSession

from tests.integration.mcp_helpers import call, wait_for
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

TESTING = "class FlaskClient:\n    def open(self, path):\n        return path\n"
STORED = "repo/repo/symbol/src.flask.testing.FlaskClient"
SHOWN = "repo/repo/symbol/flask.testing.FlaskClient"
TYPO_FILE = "repo/repo/file/src/flask/testin.py"
TYPO_SYMBOL = "repo/repo/symbol/flask.testing.FlaskClent"


async def outlined(s: ClientSession, path: str) -> list[str]:
    """The fq names outline lists for `path` (empty until the file is indexed)."""
    outline = await call(s, "repocontext_outline", {"repoId": "repo", "path": path})
    return [x["fullyQualifiedName"] for x in outline.get("symbols", [])]


async def test_links_take_either_spelling_and_dangling_targets_are_reported(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "ws" / "repo"
    (repo / "src" / "flask").mkdir(parents=True)
    (repo / "src" / "flask" / "__init__.py").write_text('"""Flask."""\n')
    (repo / "src" / "flask" / "testing.py").write_text(TESTING)
    async with memory_rig(tmp_path, index=True) as (_, s):
        assert (await wait_for(lambda: outlined(s, "src/flask/testing.py"), what="outline"))[
            0
        ] == "flask.testing.FlaskClient"
        # recall answers either spelling with the stored key
        for key in (SHOWN, STORED):
            recalled = await call(s, "repocontext_recall", {"key": key})
            assert (recalled["exists"], recalled["key"]) == (True, STORED)

        written = await call(
            s,
            "repocontext_remember",
            {
                "repoId": "repo",
                "topic": "gotchas",
                "id": "client",
                "body": "FlaskClient.open returns the path",
                "addLinks": {"anchoredTo": [SHOWN, TYPO_FILE, TYPO_SYMBOL]},
            },
        )
        assert written["linksAdded"] == 3
        assert written["danglingLinks"] == [TYPO_FILE, TYPO_SYMBOL]
        assert f"{SHOWN} as {STORED}" in written["note"]
        assert "danglingLinks" in written["note"]

        entry = await call(s, "repocontext_recall", {"key": "repo/repo/mem/gotchas/client"})
        assert sorted(entry["links"]["anchoredTo"]) == sorted([STORED, TYPO_FILE, TYPO_SYMBOL])
        neighbors = await call(s, "repocontext_neighbors", {"key": "repo/repo/mem/gotchas/client"})
        assert {n["key"]: n["exists"] for n in neighbors["neighbors"]} == {
            STORED: True,
            TYPO_FILE: False,
            TYPO_SYMBOL: False,
        }

        # removing by the shown spelling removes the stored link; a stored key as written
        # and an existing memory entry are nothing to say
        updated = await call(
            s,
            "repocontext_update",
            {
                "key": "repo/repo/mem/gotchas/client",
                "removeLinks": {"anchoredTo": [SHOWN, TYPO_FILE, TYPO_SYMBOL]},
                "addLinks": {"seeAlso": [STORED, "repo/repo/mem/gotchas/client"]},
            },
        )
        assert "danglingLinks" not in updated or updated["danglingLinks"] == []
        entry = await call(s, "repocontext_recall", {"key": "repo/repo/mem/gotchas/client"})
        assert entry["links"].get("anchoredTo", []) == []
        assert sorted(entry["links"]["seeAlso"]) == ["repo/repo/mem/gotchas/client", STORED]


async def test_a_rust_path_spelling_of_a_symbol_key_is_the_stored_key(tmp_path: Path) -> None:
    """QA on casey/just: recall of `repo/just/symbol/Parser::parse_recipe`, the name as Rust
    code writes it, answered exists=false for the stored `Parser.parse_recipe`."""
    repo = tmp_path / "ws" / "repo"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "parser.rs").write_text(
        "pub struct Parser;\n\nimpl Parser {\n    pub fn parse_recipe(&self) {}\n}\n"
    )
    async with memory_rig(tmp_path, index=True) as (_, s):
        assert "Parser.parse_recipe" in await wait_for(
            lambda: outlined(s, "src/parser.rs"), what="outline"
        )
        stored = "repo/repo/symbol/Parser.parse_recipe"
        for key in ("repo/repo/symbol/Parser::parse_recipe", stored):
            recalled = await call(s, "repocontext_recall", {"key": key})
            assert (recalled["exists"], recalled["key"]) == (True, stored)
        written = await call(
            s,
            "repocontext_remember",
            {
                "repoId": "repo",
                "topic": "gotchas",
                "id": "parse",
                "body": "parse_recipe checks attributes first",
                "addLinks": {"about": ["repo/repo/symbol/Parser::parse_recipe"]},
            },
        )
        assert "danglingLinks" not in written
        entry = await call(s, "repocontext_recall", {"key": "repo/repo/mem/gotchas/parse"})
        assert entry["links"]["about"] == [stored]
        # a name no declaration has stays as written
        absent = await call(s, "repocontext_recall", {"key": "repo/repo/symbol/Parser::nothing"})
        assert absent["exists"] is False


async def test_a_rust_path_with_its_modules_is_the_key_of_the_declaration(tmp_path: Path) -> None:
    """QA on sharkdp/fd: a link to `repo/src/symbol/crate::filter::TimeFilter`, the name as
    Rust code writes it, was stored dangling; the declaration is stored as `TimeFilter`."""
    repo = tmp_path / "ws" / "repo"
    (repo / "src" / "filter").mkdir(parents=True)
    (repo / "src" / "filter" / "time.rs").write_text(
        "pub enum TimeFilter {\n    Before(u64),\n}\n\nimpl TimeFilter {\n"
        "    pub fn from_str(s: &str) {}\n}\n"
    )
    (repo / "src" / "other.rs").write_text("pub fn from_str() {}\n")
    async with memory_rig(tmp_path, index=True) as (_, s):
        assert "TimeFilter" in await wait_for(
            lambda: outlined(s, "src/filter/time.rs"), what="outline"
        )
        for key, stored in (
            ("crate::filter::TimeFilter", "TimeFilter"),
            ("filter::TimeFilter::from_str", "TimeFilter.from_str"),
        ):
            recalled = await call(s, "repocontext_recall", {"key": f"repo/repo/symbol/{key}"})
            assert (recalled["exists"], recalled["key"]) == (True, f"repo/repo/symbol/{stored}")
        written = await call(
            s,
            "repocontext_remember",
            {
                "repoId": "repo",
                "topic": "gotchas",
                "id": "time",
                "body": "from_str must not panic",
                "addLinks": {"about": ["repo/repo/symbol/crate::filter::TimeFilter"]},
            },
        )
        assert "danglingLinks" not in written
        # a last name alone only under a module the path names: other.rs's is not filter's
        absent = await call(
            s, "repocontext_recall", {"key": "repo/repo/symbol/crate::walk::from_str"}
        )
        assert absent["exists"] is False


SIGNER = """import typing as t


class Signer:
    @t.overload
    def unsign(self, value: str, strict: t.Literal[True]) -> str: ...

    @t.overload
    def unsign(self, value: str, strict: bool) -> str | None: ...

    def unsign(self, value, strict=True):
        return value
"""


async def test_a_link_to_an_overloaded_method_by_its_plain_name_names_its_declarations(
    tmp_path: Path,
) -> None:
    """QA on pallets/itsdangerous: a link to `itsdangerous.timed.TimestampSigner.unsign`
    came back dangling with "check the key for a typo", though outline lists that method;
    it is stored once per overload, as `...unsign(self,str|bytes,...)`, and the note did not
    say so. The note now names the declarations to link instead."""
    repo = tmp_path / "ws" / "repo"
    (repo / "src" / "pkg").mkdir(parents=True)
    (repo / "src" / "pkg" / "__init__.py").write_text('"""pkg."""\n')
    (repo / "src" / "pkg" / "signer.py").write_text(SIGNER)
    async with memory_rig(tmp_path, index=True) as (_, s):
        names = await wait_for(lambda: outlined(s, "src/pkg/signer.py"), what="outline")
        overloads = [n for n in names if n.startswith("pkg.signer.Signer.unsign(")]
        assert len(overloads) == 3, names
        plain = "repo/repo/symbol/pkg.signer.Signer.unsign"
        written = await call(
            s,
            "repocontext_remember",
            {
                "repoId": "repo",
                "topic": "gotchas",
                "id": "unsign",
                "body": "unsign is overloaded on strict",
                "addLinks": {"about": [plain]},
            },
        )
        assert written["danglingLinks"] == [plain]  # stored as written, as before
        note = written["note"]
        assert f"{plain} is declared more than once (overloads)" in note, note
        assert "repo/repo/symbol/src.pkg.signer.Signer.unsign(" in note, note
        assert "check the key for a typo" not in note, note


BUILDER = """package shop;

public final class Builder {
    private String baseUrl;

    public Builder baseUrl(String url) { this.baseUrl = url; return this; }

    public Builder baseUrl(java.net.URL url) { return baseUrl(url.toString()); }
}
"""


async def test_a_link_to_a_field_a_method_shares_its_name_with_names_the_methods(
    tmp_path: Path,
) -> None:
    """QA on square/retrofit: a link to `retrofit2.Retrofit.Builder.baseUrl`, meant for the
    builder's method, landed silently on its private field `baseUrl`: the methods of that
    name are stored with their parameters (`baseUrl(String)`), the field without. The note
    says which declaration the key names and the keys of the others."""
    repo = tmp_path / "ws" / "repo"
    (repo / "src" / "shop").mkdir(parents=True)
    (repo / "src" / "shop" / "Builder.java").write_text(BUILDER)
    async with memory_rig(tmp_path, index=True) as (_, s):
        names = await wait_for(lambda: outlined(s, "src/shop/Builder.java"), what="outline")
        assert "shop.Builder.baseUrl" in names, names
        field = "repo/repo/symbol/shop.Builder.baseUrl"
        written = await call(
            s,
            "repocontext_remember",
            {
                "repoId": "repo",
                "topic": "gotchas",
                "id": "base",
                "body": "baseUrl must end in /",
                "addLinks": {"about": [field]},
            },
        )
        assert "danglingLinks" not in written  # the field exists: linked as written
        assert written.get("note") == (
            f"{field} names the Field shop.Builder.baseUrl; 2 other declarations of that name "
            "are stored with their parameters: repo/repo/symbol/shop.Builder.baseUrl(String), "
            "repo/repo/symbol/shop.Builder.baseUrl(java.net.URL): link one of them to mean it"
        ), written


async def test_a_symbol_key_without_its_package_is_the_one_stored_name_ending_so(
    tmp_path: Path,
) -> None:
    """QA on square/retrofit: a link to `repo/src/symbol/Retrofit.Builder.baseUrl(HttpUrl)`
    (the class and method as code and Javadoc write them) came back dangling with "check the
    key for a typo": the declaration is stored as retrofit2.Retrofit.Builder.baseUrl(HttpUrl).
    A key that one stored name ends with, on a dot, is linked as that one; a key several
    end with is kept as written."""
    repo = tmp_path / "ws" / "repo"
    (repo / "src" / "shop").mkdir(parents=True)
    (repo / "src" / "shop" / "Builder.java").write_text(BUILDER)
    (repo / "src" / "shop" / "Other.java").write_text(
        "package shop;\n\npublic final class Other {\n    void baseUrl(String url) { }\n}\n"
    )
    async with memory_rig(tmp_path, index=True) as (_, s):
        await wait_for(lambda: outlined(s, "src/shop/Builder.java"), what="outline")
        short = "repo/repo/symbol/Builder.baseUrl(String)"
        stored = "repo/repo/symbol/shop.Builder.baseUrl(String)"
        ambiguous = "repo/repo/symbol/baseUrl"  # Builder's field and Other's method
        written = await call(
            s,
            "repocontext_remember",
            {
                "repoId": "repo",
                "topic": "gotchas",
                "id": "short",
                "body": "baseUrl(String) parses the URL",
                "addLinks": {"about": [short, ambiguous]},
            },
        )
        assert written["danglingLinks"] == [ambiguous], written
        assert f"{short} as {stored}" in written["note"], written
        recalled = await call(s, "repocontext_recall", {"key": "repo/repo/mem/gotchas/short"})
        assert recalled["links"]["about"] == [ambiguous, stored], recalled


async def test_an_overloaded_method_without_its_package_names_its_declarations(
    tmp_path: Path,
) -> None:
    """QA on square/retrofit: a link to `repo/src/symbol/Invocation.of` (two overloads,
    stored as retrofit2.Invocation.of(Class<T>,T,Method,List<?>) and ...of(Method,List<?>))
    said "check the key for a typo"; the overloads were named only for a key with the
    package."""
    repo = tmp_path / "ws" / "repo"
    (repo / "src" / "shop").mkdir(parents=True)
    (repo / "src" / "shop" / "Maker.java").write_text(
        "package shop;\n\npublic final class Maker {\n"
        "    static Maker of(String a) { return new Maker(); }\n\n"
        "    static Maker of(int a) { return new Maker(); }\n}\n"
    )
    async with memory_rig(tmp_path, index=True) as (_, s):
        await wait_for(lambda: outlined(s, "src/shop/Maker.java"), what="outline")
        short = "repo/repo/symbol/Maker.of"
        written = await call(
            s,
            "repocontext_remember",
            {"repoId": "repo", "topic": "t", "id": "of", "body": "of", "addLinks": {"a": [short]}},
        )
        note = written["note"]
        assert f"{short} is declared more than once (overloads)" in note, note
        assert "repo/repo/symbol/shop.Maker.of(String)" in note, note
        assert "check the key for a typo" not in note, note
