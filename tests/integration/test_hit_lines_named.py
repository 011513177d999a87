"""A file hit's lines are, of the lines that match the query equally well, those inside the
declarations its `symbol:` reasons name, over the real MCP client.

Found by a QA pass over MCP on requests: 'Digest auth fails when the server sends
qop=auth-int' showed as models.py's snippet line 95, `REDIRECT_STATI: Final[tuple[int,
...]]`, which shares only `int` (from `auth-int`) and won the tie with every `auth` line by
starting a declaration near the top, while the hit's reasons named `prepare_auth`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio
QUERY = "Digest auth fails when the server sends qop=auth-int"
# Every matching line shares one word of the query; the constants come first and each starts
# a declaration, as requests' models.py has them.
MODELS = '''"""Request models."""

REDIRECT_STATI: tuple[int, ...] = (301, 302, 303, 307, 308)
DEFAULT_REDIRECT_LIMIT: int = 30
CONTENT_CHUNK_SIZE: int = 10 * 1024


class PreparedRequest:
    def prepare_body(self, data):
        self.body = data

    def prepare_auth(self, auth, url=""):
        """Prepares the given HTTP auth data."""
        if auth is None:
            auth = get_auth_from_url(url)
        return auth
'''


async def test_the_lines_are_in_the_declaration_the_reasons_name(tmp_path: Path) -> None:
    repo = tmp_path / "ws" / "repo"
    repo.mkdir(parents=True)
    (repo / "models.py").write_text(MODELS)
    async with memory_rig(tmp_path, index=True) as (_, s):
        answer = await call(s, "repocontext_search", {"repoId": "repo", "query": QUERY})
        (hit,) = answer["hits"]
        assert "symbol:models.PreparedRequest.prepare_auth" in hit["reasons"], hit["reasons"]
        assert (hit["startLine"], hit["endLine"]) == (12, 16), hit
        assert hit["snippet"].splitlines()[0] == '12: def prepare_auth(self, auth, url=""):'
        assert "int" not in hit["snippet"], hit["snippet"]


async def test_a_line_with_more_of_the_query_still_wins(tmp_path: Path) -> None:
    """The reasons break ties only: a line sharing two words outside the named declaration
    is still the hit's."""
    repo = tmp_path / "ws" / "repo"
    repo.mkdir(parents=True)
    (repo / "models.py").write_text(MODELS.replace("(301,", "(301,  # digest int"))
    async with memory_rig(tmp_path, index=True) as (_, s):
        answer = await call(s, "repocontext_search", {"repoId": "repo", "query": QUERY})
        (hit,) = answer["hits"]
        assert hit["startLine"] == 3, hit
