"""scan's `pathPrefix` is read as outline, related, changed and refresh read a path
(query_api/access/repo_paths.py). QA on uber-go/zap: `./zapcore`, `zapcore\\lazy` and the
absolute path of zapcore/ under the indexed root each scanned no file at all, an empty page
with no word of why, though outline takes each of those spellings; `/zapcore` (a path from
the filesystem's root) scanned none either where outline says it leaves the repository."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, call_error, stdio_session, wait_indexed

pytestmark = pytest.mark.anyio


async def test_a_path_prefix_is_read_as_other_tools_read_a_path(
    sample_repo: Path, tmp_path: Path
) -> None:
    async with stdio_session(tmp_path / "data", str(sample_repo)) as session:
        await wait_indexed(session, "sample")

        async def scanned(prefix: str) -> list[str]:
            args = {"repoId": "sample", "scope": "Files", "pathPrefix": prefix}
            page = await call(session, "repocontext_scan", args)
            return [entry["path"] for entry in page["entries"]]

        plain = await scanned("src/billing/")
        assert plain and all(p.startswith("src/billing/") for p in plain), plain
        for prefix in ("./src/billing/", "src\\billing\\", f"{sample_repo}/src/billing/"):
            assert await scanned(prefix) == plain, prefix
        # a prefix is a string prefix still: the start of a file's name, not only a folder
        assert await scanned("src/billing/inv") == ["src/billing/invoice.py"]
        assert await scanned("./src/billing/inv") == ["src/billing/invoice.py"]
        assert await scanned(str(sample_repo)) == await scanned("")
        text = await call_error(
            session,
            "repocontext_scan",
            {"repoId": "sample", "scope": "Files", "pathPrefix": "/billing"},
        )
        assert "`pathPrefix`" in text and "leaves the repository" in text, text
