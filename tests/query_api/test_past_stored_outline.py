"""A bundle entry whose search hit lies past the file's stored text (its first 64 Ki
characters) sends the heads of the declarations at the hit, from the symbols, not spans of the
stored text the task did not ask for. QA on serde-rs/json: `where is StreamDeserializer
defined` at 2,000 tokens sent 84 lines of src/de.rs's ParserNumber (117-200), all its budget,
the declaration being at line 2361, past line 1994."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas.bundle import ContextArgs
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


def long_module() -> str:
    """Over 64 Ki characters of filler, then the class the task names."""
    filler = [
        f"def helper_{n}(value):\n    return value * {n} + len('padding text for the module')\n"
        for n in range(1200)
    ]
    tail = (
        "class StreamReader:\n"
        "    def __init__(self, source):\n"
        "        self.source = source\n\n"
        "    def next_value(self):\n"
        "        return self.source.pop()\n"
    )
    return "\n".join(filler) + "\n" + tail


async def test_a_hit_past_the_stored_text_sends_its_declarations_heads(tmp_path: Path) -> None:
    body = long_module()
    assert len(body) > 65_536
    files = {"reader.py": body, "other.py": "def read_all(source):\n    return list(source)\n"}
    head = body.split("\n").index("class StreamReader:") + 1
    async with indexed_app(tmp_path, files) as app:
        args = ContextArgs(
            repoId="repo", task="where is StreamReader defined", responseBudgetTokens=2000
        )
        result = await app.services.bundle.context(args)
        entry = next(e for e in result.entries if e.path == "reader.py")
        assert entry.content.startswith(f"{head}: class StreamReader"), entry.content[:300]
        assert "helper_" not in entry.content, entry.content[:300]
        assert entry.tokenCount < 200, entry.tokenCount


async def test_test_declarations_at_the_hit_are_not_sent_as_heads(tmp_path: Path) -> None:
    """QA on clap: `Remove extra allocation` put arg.rs first, its hit past the stored text
    in the inline `mod test`; the entry sent the heads `test` and `test.option_display_...`
    (27 tokens), not code. Test declarations are passed over: the stored spans go instead."""
    body = long_module().replace(
        "class StreamReader:", "class TestStreamReader:\n    pass\n\n\ndef test_stream_reader():"
    )
    body = body.replace(
        "    def __init__(self, source):", "    def __init__(self, source) -> None:"
    )
    files = {"reader.py": body, "other.py": "def read_all(source):\n    return list(source)\n"}
    async with indexed_app(tmp_path, files) as app:
        args = ContextArgs(
            repoId="repo", task="where is test_stream_reader defined", responseBudgetTokens=2000
        )
        result = await app.services.bundle.context(args)
        entry = next(e for e in result.entries if e.path == "reader.py")
        assert "test_stream_reader" not in entry.content.split("\n")[0], entry.content[:300]
        assert all(u.kind != "outline" for u in entry.units), entry.units
