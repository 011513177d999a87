"""A hit on a file longer than the stored 64 Ki characters, found by a declaration past the
stored text whose name holds a word of the query that no stored line holds, points at that
declaration. QA on sharkdp/fd: `tests for hyperlink encoding` found tests/tests.rs (75 KB) by
its `test_hyperlink` (line 2,812, past the stored text's line 2,527) but pointed at lines
48-53, `#[cfg(test)] fn get_test_env_with_abs_path`, which hold only the word `test`: the best
stored line, though the stored text never says `hyperlink`. Only a declaration named exactly
as a query word was taken past the body (fd2c8c2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas.events import MAX_BODY_CHARS
from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import memory_rig, rig_settings

pytestmark = pytest.mark.anyio

FILLER = (
    "#[test]\nfn test_filler_{n}() {{\n"
    "    let te = TestEnv::new(DEFAULT_DIRS, DEFAULT_FILES);\n"
    '    te.assert_output(&["{n}"], "x");\n}}\n\n'
)
LATE = (
    "#[test]\nfn test_hyperlink() {\n"
    "    let te = TestEnv::new(DEFAULT_DIRS, DEFAULT_FILES);\n"
    '    te.assert_output(&["--hyperlink=always", "a.foo"], "file://a.foo");\n}\n'
)


async def test_a_hit_points_at_a_declaration_past_the_stored_text_named_for_its_word(
    tmp_path: Path,
) -> None:
    root = rig_settings(tmp_path).workspace_root
    assert root is not None
    head = "#[cfg(test)]\nfn get_test_env() -> TestEnv {\n    TestEnv::new(&[], &[])\n}\n\n"
    text = head + "".join(FILLER.format(n=n) for n in range(800)) + LATE
    assert text.index("test_hyperlink") > MAX_BODY_CHARS
    (root / "repo" / "tests").mkdir(parents=True)
    (root / "repo" / "tests" / "tests.rs").write_text(text)
    start = text[: text.index("fn test_hyperlink")].count("\n") + 1
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(
            s, "repocontext_search", {"repoId": "repo", "query": "tests for hyperlink encoding"}
        )
        hit = next(h for h in found["hits"] if h["entry"]["path"] == "tests/tests.rs")
        assert "symbol:test_hyperlink" in hit["reasons"], hit
        assert (hit["startLine"], hit["endLine"]) == (start - 1, start + 3), hit
        # the text is not stored: the test's head, from the symbols
        assert "fn test_hyperlink" in hit["snippet"], hit


async def test_a_place_past_the_stored_text_points_at_the_declaration_holding_it(
    tmp_path: Path,
) -> None:
    """QA on sharkdp/fd: `tests/tests.rs:2812` (inside test_hyperlink, past the stored text)
    pointed the hit at lines 48-53, which held only the path's word `tests`; the note said to
    open the file there, and the declarations past the stored text say which one holds it."""
    root = rig_settings(tmp_path).workspace_root
    assert root is not None
    head = "#[cfg(test)]\nfn get_test_env() -> TestEnv {\n    TestEnv::new(&[], &[])\n}\n\n"
    text = head + "".join(FILLER.format(n=n) for n in range(800)) + LATE
    (root / "repo" / "tests").mkdir(parents=True)
    (root / "repo" / "tests" / "tests.rs").write_text(text)
    start = text[: text.index("fn test_hyperlink")].count("\n") + 1
    async with memory_rig(tmp_path, index=True) as (_, s):
        query = f"tests/tests.rs:{start + 2}"
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        hit = found["hits"][0]
        assert hit["entry"]["path"] == "tests/tests.rs", found["hits"]
        assert (hit["startLine"], hit["endLine"]) == (start - 1, start + 3), hit
        # the text is not stored: the test's head, from the symbols
        assert "fn test_hyperlink" in hit["snippet"], hit
        assert "past the text stored" in found["note"], found.get("note")
