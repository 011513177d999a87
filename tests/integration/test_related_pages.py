"""related on a file every other file uses comes a page at a time, most related first, and
says how much it left out (QA on jsoup: related(Jsoup.java) listed 498 dependents and 498
tests, cut at 500 pairs with no sign of it, in 42k tokens, past the 25k-token tool output of
common MCP clients). Real server, real MCP client, real index."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from processors.tokens import count_tokens
from schemas.symbols import MAX_RELATED_FILES, MAX_RELATED_PAIRS
from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import memory_rig, rig_settings

pytestmark = pytest.mark.anyio

USERS = 90  # files outside tests using core.py, each with i % 7 + 1 functions naming Core
TESTS = 50  # test files using it
CORE = "class Core:\n    def run(self):\n        return 1\n"


def user(i: int) -> str:
    uses = "".join(f"def use_{j}():\n    return Core()\n\n" for j in range(i % 7 + 1))
    return f"from shop.core import Core\n\n{uses}"


def write_repo(root: Path) -> None:
    (root / "shop" / "users").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "shop" / "__init__.py").write_text("")
    (root / "shop" / "users" / "__init__.py").write_text("")
    (root / "shop" / "core.py").write_text(CORE)
    for i in range(USERS):
        (root / "shop" / "users" / f"u{i:03}.py").write_text(user(i))
    for i in range(TESTS):
        (root / "tests" / f"test_u{i:03}.py").write_text(user(i).replace("def use_", "def test_"))
    # named for the file: the first test, though it names Core only once
    (root / "tests" / "test_core.py").write_text(
        "from shop.core import Core\n\ndef test_run():\n    assert Core().run() == 1\n"
    )


async def test_related_pages_a_file_every_other_file_uses(tmp_path: Path) -> None:
    root = rig_settings(tmp_path).workspace_root
    assert root is not None
    write_repo(root / "repo")
    args = {"repoId": "repo", "path": "shop/core.py"}
    async with memory_rig(tmp_path, index=True) as (_, s):
        first = await s.call_tool("repocontext_related", args)
        page = first.structuredContent
        assert page is not None
        deps = {d["path"] for d in page["dependents"]}
        assert len(deps) == MAX_RELATED_FILES and len(page["dependents"]) <= MAX_RELATED_PAIRS
        pairs = sum(i % 7 + 1 for i in range(USERS)) + sum(i % 7 + 1 for i in range(TESTS)) + 1
        assert (page["dependentFiles"], page["dependentCount"]) == (USERS + TESTS + 1, pairs)
        assert (page["testFiles"], page["nextOffset"]) == (TESTS + 1, MAX_RELATED_FILES)
        # outside tests first, the closest coupled first: 7 functions of u006, u013, ...
        assert page["dependents"][0]["path"] == "shop/users/u006.py"
        assert all(path.startswith("shop/users/") for path in deps)
        assert page["tests"][0] == {"path": "tests/test_core.py", "symbol": "test_core.test_run"}
        text = first.content[0].text  # type: ignore[union-attr]
        head = f"dependents: files 1-40 of 141, {len(page['dependents'])} of {pairs:,} symbols"
        assert f"{head}; offset 40 lists the next" in text.splitlines()
        wire = json.dumps(first.model_dump(by_alias=True, exclude_none=True, mode="json"))
        assert count_tokens(wire) < 12_000

        seen_deps = [d["path"] for d in page["dependents"]]
        seen_tests = [t["path"] for t in page["tests"]]
        while "nextOffset" in page:
            page = await call(s, "repocontext_related", {**args, "offset": page["nextOffset"]})
            assert page["dependentFiles"] == USERS + TESTS + 1
            seen_deps += [d["path"] for d in page.get("dependents", [])]
            seen_tests += [t["path"] for t in page.get("tests", [])]
        # every file once, on some page: the pages cut symbols, never files
        assert len(set(seen_deps)) == USERS + TESTS + 1 and len(set(seen_tests)) == TESTS + 1
        last = await s.call_tool("repocontext_related", {**args, "offset": 120})
        lines = last.content[0].text.splitlines()  # type: ignore[union-attr]
        assert any(line.startswith("dependents: files 121-141 of 141,") for line in lines)
        assert "tests: offset past the last of 51 files" in lines


async def test_a_short_related_answer_has_no_page_fields(tmp_path: Path) -> None:
    root = rig_settings(tmp_path).workspace_root
    assert root is not None
    write_repo(root / "repo")
    async with memory_rig(tmp_path, index=True) as (_, s):
        page = await call(
            s, "repocontext_related", {"repoId": "repo", "path": "shop/users/u001.py"}
        )
    assert page["imports"] == ["shop.core"]
    assert not {"dependentCount", "dependentFiles", "testCount", "testFiles", "nextOffset"} & set(
        page
    )
