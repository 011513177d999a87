"""A server process imports the MCP SDK's server parts, not its client (repocontext/sdk_imports.py).

Run in a fresh interpreter: this test process has imported the whole SDK already.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SERVER_START = """
import sys
from repocontext import cli
cli.defer_sdk_package_inits()
import repocontext.commands, mcp.server.stdio, mcp.types
print(sorted(m for m in ("mcp.client.session", "mcp.server.fastmcp", "sse_starlette")
             if m in sys.modules))
"""

LATER_USE = """
from repocontext.sdk_imports import defer_sdk_package_inits
defer_sdk_package_inits()
import mcp.types
from mcp import ClientSession, types
from mcp.server import FastMCP
import mcp
assert types is mcp.types and ClientSession.__name__ == "ClientSession", types
try:
    mcp.no_such_name
except AttributeError as exc:
    print("AttributeError", exc)
"""


def _run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_cli_imports_the_sdks_server_without_its_client() -> None:
    assert _run(SERVER_START) == "[]"


def test_a_deferred_package_still_gives_every_name_on_first_use() -> None:
    assert _run(LATER_USE) == "AttributeError module 'mcp' has no attribute 'no_such_name'"
