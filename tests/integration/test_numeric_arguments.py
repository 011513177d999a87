"""Every numeric tool argument has a range and is finite; a number outside it is refused with
an error naming the argument and its range, and a refused call writes nothing (issue 24
item 4, issue 18 item 9). Driven through the real MCP client and server."""

from __future__ import annotations

import json
import selectors
import subprocess
import time
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

from repocontext.app import EmbeddedApp
from schemas.bounds import MAX_TTL_SECONDS
from tests.conftest import child_env, cli_command, write_sample_repo
from tests.integration.mcp_helpers import call, call_error
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio
KEY = "repo/repo/mem/notes/kept"
COMMANDS = "repocontext.memory.commands.v1"


async def commands_end(app: EmbeddedApp) -> list[int]:
    """The memory command topic's end offsets: unchanged means nothing was written."""
    parts = await app.log.partitions(COMMANDS)
    return [await app.log.end_offset(COMMANDS, p) for p in range(parts)]


async def test_every_numeric_argument_advertises_a_range(tmp_path: Path) -> None:
    async with memory_rig(tmp_path) as (_, s):
        tools = (await s.list_tools()).tools
        numeric = 0
        for tool in tools:
            for name, prop in tool.inputSchema.get("properties", {}).items():
                kinds = {b.get("type") for b in prop.get("anyOf", [prop])}
                if not kinds & {"integer", "number"}:
                    continue
                numeric += 1
                bounded = [b for b in prop.get("anyOf", [prop]) if b.get("type") != "null"]
                for branch in bounded:
                    assert "minimum" in branch or "exclusiveMinimum" in branch, (tool.name, name)
                    assert "maximum" in branch, (tool.name, name)
        assert numeric >= 15  # k, budgets, ttl/lapse/lease seconds, page sizes, fences...


OUT_OF_RANGE: list[tuple[str, dict[str, Any], str]] = [
    ("repocontext_search", {"repoId": "repo", "query": "x", "k": -5}, "`k` must be from 1"),
    ("repocontext_search", {"repoId": "repo", "query": "x", "k": 10**30}, "to 100"),
    ("repocontext_scan", {"repoId": "repo", "scope": "Memory", "pageSize": 0}, "`pageSize`"),
    ("repocontext_neighbors", {"key": KEY, "depth": 9}, "`depth` must be from 1 to 3"),
    ("repocontext_context", {"repoId": "repo", "task": "x", "top": -1}, "`top`"),
    (
        "repocontext_context",
        {"repoId": "repo", "task": "x", "responseBudgetTokens": 10**9},
        "`responseBudgetTokens` must be from 1 to 200000",
    ),
    ("repocontext_refresh", {"repoId": "repo", "timeoutSeconds": -1}, "`timeoutSeconds`"),
    ("repocontext_claim", {"key": KEY, "owner": "a", "leaseSeconds": 1e308}, "leaseSeconds"),
    ("repocontext_claim", {"key": KEY, "owner": "a", "maxWaitSeconds": -2}, "maxWaitSeconds"),
    ("repocontext_release_claim", {"key": KEY, "fencingToken": 2**70}, "`fencingToken`"),
]


async def test_out_of_range_numbers_are_refused_by_name(tmp_path: Path) -> None:
    async with memory_rig(tmp_path) as (_, s):
        for tool, args, named in OUT_OF_RANGE:
            text = await call_error(s, tool, args)
            assert named in text and "(got " in text, text
            assert "internal error" not in text


NOT_INTEGERS: list[tuple[str, dict[str, Any], str]] = [
    ("repocontext_search", {"repoId": "repo", "query": "x", "k": "3"}, '(got "3")'),
    ("repocontext_search", {"repoId": "repo", "query": "x", "k": True}, "(got true)"),
    ("repocontext_search", {"repoId": "repo", "query": "x", "k": 2.5}, "(got 2.5)"),
    ("repocontext_context", {"repoId": "repo", "task": "x", "top": False}, "`top`"),
    (
        "repocontext_context",
        {"repoId": "repo", "task": "x", "responseBudgetTokens": "100"},
        "`responseBudgetTokens` must be an integer from 1 to 200000",
    ),
    ("repocontext_scan", {"repoId": "repo", "scope": "Memory", "pageSize": "5"}, "`pageSize`"),
    ("repocontext_release_claim", {"key": KEY, "fencingToken": "7"}, "`fencingToken`"),
    ("repocontext_refresh", {"repoId": "repo", "timeoutSeconds": "5"}, "a number from 0.0"),
    ("repocontext_claim", {"key": KEY, "owner": "a", "leaseSeconds": True}, "(got true)"),
    # a QA pass: outline's offset took "5" and true (as 1); every argument is strict now
    ("repocontext_outline", {"repoId": "repo", "path": "a.py", "offset": "5"}, "`offset`"),
    ("repocontext_outline", {"repoId": "repo", "path": "a.py", "offset": True}, "(got true)"),
]


async def test_non_booleans_are_refused_by_name(tmp_path: Path) -> None:
    """`"yes"`, `"no"` or 1 is not a boolean: lax validation took `lapse: "yes"` as true and
    expired an entry, and `respectGitignore: "no"` re-indexed a repository without its
    .gitignore."""
    async with memory_rig(tmp_path) as (_, s):
        for tool, args in (
            ("repocontext_forget", {"key": KEY, "lapse": "yes"}),
            ("repocontext_forget", {"key": KEY, "lapse": 1}),
            ("repocontext_add_repo", {"path": "repo", "respectGitignore": "no"}),
        ):
            text = await call_error(s, tool, args)
            assert "valid boolean" in text, text


async def test_non_integers_are_refused_by_name(tmp_path: Path) -> None:
    """A string or a boolean is not a number: lax validation took `k: true` as 1,
    `responseBudgetTokens: "100"` as 100 and `leaseSeconds: true` as 1 s without a word."""
    async with memory_rig(tmp_path) as (_, s):
        for tool, args, named in NOT_INTEGERS:
            text = await call_error(s, tool, args)
            assert named in text and "must be a" in text, text


async def test_refused_ttl_writes_nothing(tmp_path: Path) -> None:
    async with memory_rig(tmp_path) as (app, s):
        end = await commands_end(app)
        for ttl in (1e12, 1e308, 0, -1):
            text = await call_error(
                s,
                "repocontext_remember",
                {"repoId": "repo", "topic": "notes", "id": "ttl", "body": "b", "ttlSeconds": ttl},
            )
            assert "`ttlSeconds` must be" in text and str(MAX_TTL_SECONDS) in text, text
        assert await commands_end(app) == end
        got = await call(s, "repocontext_recall", {"key": "repo/repo/mem/notes/ttl"})
        assert got["exists"] is False
        topics = await call(s, "repocontext_list_topics", {"repoId": "repo"})
        assert topics["topics"] == []
        # the largest accepted TTL is a real, recallable expiry
        made = await call(
            s,
            "repocontext_remember",
            {"repoId": "repo", "topic": "notes", "id": "far", "ttlSeconds": MAX_TTL_SECONDS},
        )
        assert made["expires"] is True and made["expiresAtUtc"]
        assert (await call(s, "repocontext_recall", {"key": made["key"]}))["exists"] is True


async def test_refused_lapse_leaves_the_entry(tmp_path: Path) -> None:
    async with memory_rig(tmp_path) as (app, s):
        await call(
            s,
            "repocontext_remember",
            {"repoId": "repo", "topic": "notes", "id": "kept", "body": "b"},
        )
        end = await commands_end(app)
        for lapse in (1e308, 0, -5):
            text = await call_error(
                s, "repocontext_forget", {"key": KEY, "lapse": True, "lapseSeconds": lapse}
            )
            assert "`lapseSeconds` must be" in text, text
        assert await commands_end(app) == end
        got = await call(s, "repocontext_recall", {"key": KEY})
        assert got["exists"] is True and got["expires"] is False


class RawStdio:
    """`repocontext mcp` spoken to in raw JSON lines: the SDK client turns inf/NaN into null
    before sending, but JSON-RPC text from any other client can carry 1e999 or NaN."""

    def __init__(self, repo: Path, data_dir: Path) -> None:
        self.stderr = open(data_dir.parent / "mcp-stderr.log", "wb")  # noqa: SIM115
        self.proc = subprocess.Popen(
            cli_command("mcp", str(repo)),
            env=child_env(data_dir),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
        )
        self.ids = 0

    def send(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text.encode() + b"\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: str, timeout: float = 60.0) -> dict[str, Any]:
        self.ids += 1
        self.send(f'{{"jsonrpc":"2.0","id":{self.ids},"method":"{method}","params":{params}}}')
        assert self.proc.stdout is not None
        with selectors.DefaultSelector() as sel:
            sel.register(self.proc.stdout, selectors.EVENT_READ)
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                if sel.select(deadline - time.monotonic()):
                    answer: dict[str, Any] = json.loads(self.proc.stdout.readline())
                    if answer.get("id") == self.ids:
                        return answer
        raise AssertionError(f"no answer to {method} within {timeout} s")

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.stderr.close()


def test_infinite_and_nan_numbers_from_raw_json_are_refused(tmp_path: Path) -> None:
    repo = write_sample_repo(tmp_path / "ws" / "repo")
    raw = RawStdio(repo, tmp_path / "data")
    try:
        hello = raw.request(
            "initialize",
            '{"protocolVersion":"2025-06-18","capabilities":{},'
            '"clientInfo":{"name":"raw","version":"0"}}',
        )
        info = hello["result"]["serverInfo"]
        assert info["name"] == "repocontext" and info["version"] == version("repocontext")
        assert "experimental" not in hello["result"]["capabilities"]  # nothing empty is sent
        raw.send('{"jsonrpc":"2.0","method":"notifications/initialized"}')
        for literal in ("1e999", "-Infinity", "NaN"):
            answer = raw.request(
                "tools/call",
                '{"name":"repocontext_remember","arguments":{"repoId":"repo","topic":"notes",'
                f'"id":"t","ttlSeconds":{literal}}}}}',
            )["result"]
            text = answer["content"][0]["text"]
            assert answer.get("isError") is True, answer
            assert "`ttlSeconds` must be a finite number" in text, text
        topics = raw.request(
            "tools/call", '{"name":"repocontext_list_topics","arguments":{"repoId":"repo"}}'
        )["result"]
        assert topics["structuredContent"]["topics"] == []  # nothing was written
    finally:
        raw.close()
