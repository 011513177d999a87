"""A bundle says when a file's search hit lies past the text the views store (the first 64 Ki
characters): it cannot send those lines, and sent other spans of the file without a word. QA
on apache/commons-text: `TextStringBuilder.lastIndexOf("") returns incorrect index` sent its
`append` overloads while `lastIndexOf` is at lines 2405-2433. The entry's header in the text
block names the hit's lines (query_api/answers/text.py): a note in both blocks had pushed 12
more of the tuning half's 2,000-token answers past a 15 % envelope."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio


def long_module() -> str:
    """Over 64 Ki characters of filler, then the function the task names."""
    filler = [
        f"def helper_{n}(value):\n    return value * {n} + len('padding text for the module')\n"
        for n in range(1200)
    ]
    tail = "def last_index_of(text, needle):\n    return text.rfind(needle)\n"
    return "\n".join(filler) + "\n" + tail


async def test_a_hit_past_the_stored_text_is_named_in_the_entry(tmp_path: Path) -> None:
    body = long_module()
    assert len(body) > 65_536
    files = {"strings.py": body, "other.py": "def index_of(text, needle):\n    return 0\n"}
    write_files(tmp_path / "ws" / "repo", files)
    last = body.split("\n").index("def last_index_of(text, needle):") + 1
    async with memory_rig(tmp_path, index=True) as (_, s):
        task = "last_index_of returns the wrong index"
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": task})
        hit = next(h for h in found["hits"] if h["entry"]["path"] == "strings.py")
        assert hit["startLine"] == last, hit  # search reads the whole file
        args = {"repoId": "repo", "task": task, "responseBudgetTokens": 4000}
        result = await s.call_tool("repocontext_context", args)
        text = result.content[0].text  # type: ignore[union-attr]
        header = next(line for line in text.split("\n") if line.startswith("== strings.py"))
        assert f"; hit {last}-" in header and "past it)" in header, header
