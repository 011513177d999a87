"""At a budget too small for the top file's outline, `auto` used to keep the first coarser
level that packed anything: the outline level, where files that declare nothing (docs) travel
as their paths and a code file's outline does not fit, so the bundle for "cors" held
docs/middleware.md and README.md and not the middleware itself (found on encode/starlette at
300 tokens). Over the real MCP client and server."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import memory_rig, rig_settings

pytestmark = pytest.mark.anyio

MIDDLEWARE = (
    "class CORSMiddleware:\n"
    "    def preflight_response(self, request_headers: dict[str, str]) -> list[str]:\n"
    + "".join(
        f"        cors_header_{i} = request_headers.get('cors-{i}', '')\n" for i in range(120)
    )
    + "        return [cors_header_0]\n"
)
CORS_TESTS = "".join(
    f"def test_cors_case_{i}() -> None:\n    assert CORSMiddleware() is not None\n\n"
    for i in range(6)
)


async def test_a_small_budget_sends_the_top_file_at_the_level_that_holds_it(
    tmp_path: Path,
) -> None:
    workspace = rig_settings(tmp_path).workspace_root
    assert workspace is not None
    repo = workspace / "repo"
    (repo / "middleware").mkdir()
    (repo / "middleware" / "cors.py").write_text(MIDDLEWARE)
    (repo / "tests" / "middleware").mkdir(parents=True, exist_ok=True)
    (repo / "tests" / "middleware" / "test_cors.py").write_text(CORS_TESTS)
    (repo / "docs").mkdir(exist_ok=True)
    (repo / "docs" / "middleware.md").write_text("# Middleware\n\nThe CORS middleware.\n")
    (repo / "NOTES.md").write_text("Features: CORS, GZip.\n")
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": "cors"})
        assert found["hits"][0]["entry"]["path"] == "middleware/cors.py", found
        outline_left_it_out = False
        for budget in range(150, 300, 10):
            args = {"repoId": "repo", "task": "cors", "responseBudgetTokens": budget}
            answer = await call(s, "repocontext_context", args)
            assert answer["responseTokens"] <= budget
            coarse = await call(s, "repocontext_context", {**args, "detail": "paths"})
            if not coarse["entries"] or coarse["entries"][0]["path"] != "middleware/cors.py":
                continue
            # the middleware's path fits: auto sends it first, at whatever level holds it
            assert answer["entries"][0]["path"] == "middleware/cors.py", (budget, answer)
            outline = await call(s, "repocontext_context", {**args, "detail": "outline"})
            first = [e["path"] for e in outline["entries"]][:1]
            outline_left_it_out |= first == ["docs/middleware.md"]
        assert outline_left_it_out  # a budget where the outline level sent the docs alone


async def test_an_outline_bundle_names_the_better_ranked_files_it_left_out(
    tmp_path: Path,
) -> None:
    """QA on pallets/jinja: at `detail: outline`, "preserve __slots__ on Undefined classes"
    at 6,000 tokens sent utils.py and exceptions.py and said nothing of runtime.py, the
    search's first file, whose outline did not fit: an outline is never cut."""
    workspace = rig_settings(tmp_path).workspace_root
    assert workspace is not None
    repo = workspace / "repo"
    (repo / "middleware").mkdir()
    rules = "".join(f"def cors_rule_{i}(request):\n    return {i}\n\n\n" for i in range(150))
    (repo / "middleware" / "cors.py").write_text(rules)
    (repo / "helpers.py").write_text("def cors_enabled():\n    return True\n")
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": "cors"})
        assert found["hits"][0]["entry"]["path"] == "middleware/cors.py", found
        args = {"repoId": "repo", "task": "cors", "detail": "outline"}
        answer = await call(s, "repocontext_context", {**args, "responseBudgetTokens": 1500})
        assert [e["path"] for e in answer["entries"]] == ["helpers.py"], answer
        assert answer["note"] == (
            "middleware/cors.py ranks above the files sent, but its outline does not fit the "
            "budget: detail slices or paths, or a larger responseBudgetTokens, sends it"
        ), answer
        whole = await call(s, "repocontext_context", {**args, "responseBudgetTokens": 20000})
        assert whole["entries"][0]["path"] == "middleware/cors.py" and "note" not in whole
