"""A bundle for `what calls X` sends the declarations calling X, not those sharing its words.
QA on jquense/yup: `what calls formatError` sent locale.ts's `MixedLocale` interface, whose
imports hold `ValidationError`, beside `notType`, the one function there calling
`ValidationError.formatError`."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

ERRORS = (
    "class ValidationError(Exception):\n"
    "    @staticmethod\n"
    "    def format_error(message, params):\n"
    "        return message.format(**params)\n"
)


def locale_module() -> str:
    """A module too large to send whole: an error-worded class at its head, filler, and one
    function calling `format_error` at its end."""
    head = [
        "from errors import ValidationError",
        "",
        "class MixedLocale:",
        '    """Messages for a mixed schema\'s errors: the error format of each check."""',
        "    error_format = 'the error for {path}'",
        "    error_type = 'a type error'",
        "",
    ]
    filler = [f"def message_{n}(path):\n    return 'message {n} for ' + path\n" for n in range(80)]
    caller = [
        "def not_type(params):",
        "    text = 'not of the type'",
        "    return ValidationError.format_error(text, params)",
    ]
    return "\n".join(head + filler + caller) + "\n"


def lines_of(entry: dict[str, object]) -> list[tuple[int, int]]:
    units = entry.get("units") or []
    assert isinstance(units, list)
    if len(units) == 1 and "startLine" in entry:
        return [(int(entry["startLine"]), int(entry["endLine"]))]  # type: ignore[call-overload]
    return [(int(u["startLine"]), int(u["endLine"])) for u in units]


async def test_a_users_bundle_sends_the_callers_lines(tmp_path: Path) -> None:
    repo = tmp_path / "ws" / "repo"
    repo.mkdir(parents=True)
    (repo / "errors.py").write_text(ERRORS)
    body = locale_module()
    (repo / "locale.py").write_text(body)
    call_line = body.split("\n").index("    return ValidationError.format_error(text, params)") + 1
    async with memory_rig(tmp_path, index=True) as (_, s):
        args = {"repoId": "repo", "task": "what calls format_error", "responseBudgetTokens": 2000}
        answer = await call(s, "repocontext_context", args)
        sent = next(e for e in answer["entries"] if e["path"] == "locale.py")
        assert sent["tokenCount"] < sent["fullReadTokenCount"], sent  # sliced, not whole
        spans = lines_of(sent)
        assert any(a <= call_line <= z for a, z in spans), (call_line, spans)
        assert all(z < 3 or a > 6 for a, z in spans), spans  # not the MixedLocale class
