"""`what raises X` and `where is X raised` ask for the code using an exception, as `what
calls X` does for a function: the files raising it come first, each pointed at its raise.
QA on pallets/werkzeug: `what raises SecurityError` left sansio/utils.py, the one file
raising it (`raise SecurityError(f"Host {host!r} is not trusted.")`), out of the first five,
and three of them were pointed at `raise ValueError(...)` lines for the word `raises`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from query_api.retrieval.form_words import keyword_text
from query_api.retrieval.use_sites import use_lines
from query_api.retrieval.users_first import used_name
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "src/pkg/__init__.py": "",
    "src/pkg/exceptions.py": (
        "class SecurityError(Exception):\n"
        '    """Raised if something triggers a security error."""\n'
    ),
    "src/pkg/utils.py": (
        "from .exceptions import SecurityError\n\n\n"
        "def host_checked(host: str, trusted: list[str]) -> str:\n"
        "    if host not in trusted:\n"
        '        raise SecurityError(f"Host {host!r} is not trusted.")\n'
        "    return host\n"
    ),
    "src/pkg/http.py": (
        "def parse_etag(value: str) -> str:\n"
        "    if not value:\n"
        '        raise ValueError("invalid etag: raises when empty")\n'
        "    return value\n\n\n"
        "def quote(value: str) -> str:\n"
        '    """Raises ValueError when the value raises."""\n'
        "    return value\n"
    ),
}


def test_the_raise_forms_ask_for_users() -> None:
    for query in (
        "what raises SecurityError",
        "who throws SecurityError",
        "where is SecurityError raised?",
        "where is SecurityError thrown",
    ):
        assert used_name(query) == "SecurityError", query
        assert "rais" not in keyword_text(query) and "throw" not in keyword_text(query), query


async def test_the_files_raising_it_come_first(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        for query in ("what raises SecurityError", "where is SecurityError raised"):
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            first = found["hits"][0]
            assert first["entry"]["path"] == "src/pkg/utils.py", (query, found["hits"])
            assert "uses:SecurityError" in first["reasons"], (query, first)
            assert "raise SecurityError" in first.get("snippet", ""), (query, first)


def test_a_docstring_naming_it_is_no_use() -> None:
    """sansio/utils.py's `get_host` documents `:raise .SecurityError: If the host is not
    trusted.` 40 lines above its `raise SecurityError(...)`: the hit pointed at the docstring."""
    lines = [
        "def get_host(host: str) -> str:",  # 1
        '    """Get the host.',  # 2
        "",  # 3
        "    :raise .SecurityError: If the host is not trusted.",  # 4
        '    """',  # 5
        '    doc = """SecurityError in a string"""',  # 6
        "    if not host:",  # 7
        '        raise SecurityError("no host")',  # 8
        "    return host",  # 9
    ]
    whole = re.compile(r"(?<![\w$])SecurityError(?![\w$])")
    assert use_lines(lines, [], set(), whole) == [8]
