"""A Rust macro's name written with its bang, as Rust code writes it (`where is tri!
defined`, `what calls tri!`, `who uses the json! macro`), is read as the macro's name. QA on
serde-rs/json: no definition or users form matched such a query, so `where is tri! defined`
ranked src/lib.rs (`macro_rules! tri`) 7th, below files invoking it, and `what calls tri!`
placed no user: a one-word name's bare references were not trusted, where a macro's
invocations import nothing and are all there is; `where is the deserialize_number macro used`
looked the name up without its bang and found a method of that name."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.definition_sites import defined_name
from query_api.retrieval.users_first import used_name
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


def test_the_bang_is_read_as_part_of_the_name_written() -> None:
    assert defined_name("where is tri! defined") == "tri"
    assert defined_name("where is the json! macro defined") == "json"
    assert defined_name("where is `tri!` defined") == "tri"
    assert defined_name("json! macro") == "json"
    # the users' lookup is by the name as stored: with its bang
    assert used_name("what calls tri!") == "tri!"
    assert used_name("who uses the json! macro") == "json!"
    assert used_name("what calls parse_args()") == "parse_args"
    # called a macro without its bang: the macro's name as stored
    assert used_name("where is the tri macro used") == "tri!"
    assert used_name("what calls the Foo constructor") == "Foo"


FILES = {
    "Cargo.toml": '[package]\nname = "demo"\nversion = "0.1.0"\n',
    "src/lib.rs": (
        "macro_rules! tri {\n"
        "    ($e:expr) => {\n"
        "        match $e {\n"
        "            Ok(v) => v,\n"
        "            Err(e) => return Err(e),\n"
        "        }\n"
        "    };\n"
        "}\n\n"
        "mod de;\nmod ser;\nmod other;\n"
    ),
    "src/de.rs": (
        "pub fn parse(text: &str) -> Result<u32, String> {\n"
        "    let n = tri!(text.parse::<u32>().map_err(|e| e.to_string()));\n"
        "    Ok(n)\n"
        "}\n"
    ),
    "src/ser.rs": (
        "pub fn write(out: &mut String, n: u32) -> Result<(), String> {\n"
        "    tri!(check(n));\n"
        "    out.push_str(&n.to_string());\n"
        "    Ok(())\n"
        "}\n\n"
        "fn check(n: u32) -> Result<(), String> {\n"
        '    if n > 9 { Err(String::from("too big")) } else { Ok(()) }\n'
        "}\n"
    ),
    # the word `tri` without the macro: no user of it
    "src/other.rs": "/// tri state, tri colour\npub fn tri_state() -> u8 {\n    3\n}\n",
}


async def test_a_macro_written_with_its_bang_is_defined_and_used(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "demo") as app:
        found = await app.service.search(t.SearchArgs(repoId="demo", query="where is tri! defined"))
        assert found.hits[0].entry.path == "src/lib.rs", [h.entry.path for h in found.hits]
        assert found.hits[0].startLine == 1, found.hits[0]
        for query in ("what calls tri!", "where is the tri macro used"):
            found = await app.service.search(t.SearchArgs(repoId="demo", query=query))
            placed = [h.entry.path or "" for h in found.hits if "uses:tri!" in h.reasons]
            assert sorted(placed) == ["src/de.rs", "src/ser.rs"], [
                (h.entry.path, h.reasons) for h in found.hits
            ]
            assert [h.entry.path for h in found.hits][:2] == placed
