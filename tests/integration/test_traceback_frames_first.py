"""A pasted Python traceback ranks the repository files its frames name first, the frame
where it failed (the innermost) first. QA on pallets/werkzeug: a traceback through
serving.py, routing/map.py and sansio/utils.py (where `raise SecurityError(...)` is) ranked
exceptions.py first (the exception's class, named by the last line) and wsgi.py, named by no
frame, above sansio/utils.py, 5th; the frames written as installed paths or as `src/...`
alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "src/pkg/__init__.py": "",
    "src/pkg/exceptions.py": (
        "class SecurityError(Exception):\n"
        '    """Raised if a host is not trusted: a security error, host not trusted."""\n'
    ),
    "src/pkg/wsgi.py": (
        "from .exceptions import SecurityError\n\n\n"
        "def trusted_host(environ: dict[str, str]) -> str:\n"
        '    """Raise SecurityError if the host is not trusted; host checks."""\n'
        "    return environ['host']\n"
    ),
    "src/pkg/serving.py": (
        "from .routing import bind\n\n\ndef run(app: object) -> object:\n    return bind(app)\n"
    ),
    "src/pkg/routing.py": (
        "from .utils import get_host\n\n\n"
        "def bind(environ: object) -> str:\n"
        "    return get_host(environ)\n"
    ),
    "src/pkg/utils.py": (
        "from .exceptions import SecurityError\n\n\n"
        "def get_host(environ: object) -> str:\n"
        '    raise SecurityError(f"Host {environ!r} is not trusted.")\n'
    ),
}

TRACE = """Traceback (most recent call last):
  File "{root}pkg/serving.py", line 5, in run
    return bind(app)
  File "{root}pkg/routing.py", line 5, in bind
    return get_host(environ)
  File "{root}pkg/utils.py", line 5, in get_host
    raise SecurityError(f"Host {{environ!r}} is not trusted.")
pkg.exceptions.SecurityError: Host 'evil.com' is not trusted. Security error, host not trusted."""


async def test_the_frames_files_come_first_innermost_first(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        for root in ("src/", "/venv/lib/python3.12/site-packages/"):
            query = TRACE.format(root=root)
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            paths = [hit["entry"]["path"] for hit in found["hits"]]
            assert paths[:3] == ["src/pkg/utils.py", "src/pkg/routing.py", "src/pkg/serving.py"], (
                root,
                paths,
            )
            assert found["hits"][0]["startLine"] == 5, found["hits"][0]
