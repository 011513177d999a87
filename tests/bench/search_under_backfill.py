"""Search latency over MCP while idle and while a vector backfill runs (issue 21 item 2):

    .venv/bin/python -m tests.bench.search_under_backfill [--tree DIR] [--rounds N] [--single N]
        QUIET BUSY

QUIET and BUSY are two checkouts (e.g. the localisation benchmark's pinned koa and fastify
under ~/.cache/repocontext-bench/checkouts/). One `repocontext serve QUIET` over streamable
HTTP (fresh data directory, REPOCONTEXT_EMBEDDER=local) is driven by the real MCP client:

1. wait until QUIET has full vector coverage;
2. idle: default (hybrid, so each query is embedded) searches of QUIET, from 1 client
   (sequential calls) and then from 16 concurrent clients (one MCP session each);
3. `repocontext_add_repo BUSY`; wait until its keyword index is complete and its vector
   backfill has embedded its first passages;
4. the same searches of QUIET again while BUSY's backfill runs; the passages BUSY gained
   meanwhile are reported, so a backfill starved to nothing would show.

Reports p50/p95 per phase and client count, and the ratio of p95 during the backfill to idle
(the issue's target: <= 1.5), and per phase the CPU the server spent per call and the CPU its
child processes (the passage encoder) spent, so a slower phase shows whether the server
itself worked more or only waited longer for a core. Each client pauses `--think-s` before
each call, as an agent reading the previous answer does: the backfill yields to tool calls in
flight (streams/pacer.py), so calls back to back would mostly measure a paused backfill.
`--tree DIR` runs the server from another source tree (a `git archive` of an older commit) for
a before/after.
Nothing is asserted: the machine is shared, so run the two trees back to back and read the
load average printed with each.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

QUERIES = [
    "parse the request body",
    "set a response header",
    "sign cookies with the app keys",
    "handle errors thrown by middleware",
    "content negotiation accepts types",
    "redirect back to the referrer",
    "compose middleware into one function",
    "respond with a stream",
    "check whether the request is fresh",
    "default status code when the body is empty",
    "trust proxy headers for the client ip",
    "json response body",
]
CLIENTS = (1, 16)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@asynccontextmanager
async def session(url: str) -> AsyncIterator[ClientSession]:
    async with (
        streamable_http_client(url) as (read, write, _),
        ClientSession(read, write) as mcp,
    ):
        await mcp.initialize()
        yield mcp


async def coverage(mcp: ClientSession, repo: str) -> dict[str, Any]:
    listed = (await mcp.call_tool("repocontext_list_repos", {})).structuredContent or {}
    for entry in listed.get("repositories") or []:
        if entry.get("repoId") == repo:
            found: dict[str, Any] = entry.get("vectorCoverage") or {}
            return found
    return {}


async def wait_until(what: str, probe: Any, limit_s: float = 3600.0) -> None:
    began = time.monotonic()
    while time.monotonic() - began < limit_s:
        if await probe():
            print(f"  {what} after {time.monotonic() - began:.0f} s", flush=True)
            return
        await asyncio.sleep(1.0)
    raise SystemExit(f"gave up waiting for {what} after {limit_s:.0f} s")


async def one_client(url: str, repo: str, calls: int, offset: int, think_s: float) -> list[float]:
    times: list[float] = []
    async with session(url) as mcp:
        for i in range(calls):
            if think_s:  # an agent reads an answer before its next call
                await asyncio.sleep(think_s)
            query = QUERIES[(offset + i) % len(QUERIES)]
            began = time.perf_counter()
            result = await mcp.call_tool(
                "repocontext_search", {"repoId": repo, "query": query, "k": 10}
            )
            times.append(time.perf_counter() - began)
            if result.isError:
                raise SystemExit(f"search failed: {result.content}")
    return times


async def phase(
    url: str, repo: str, rounds: int, think_s: float, single: int
) -> dict[int, list[float]]:
    out: dict[int, list[float]] = {}
    for clients in CLIENTS:
        calls = single if clients == 1 else rounds
        runs = [one_client(url, repo, calls, c, think_s) for c in range(clients)]
        out[clients] = [t for times in await asyncio.gather(*runs) for t in times]
    return out


def cpu_s(pid: int) -> tuple[float, float]:
    """CPU seconds of `pid` itself, and of its children (the live ones and those reaped)."""
    tick = os.sysconf("SC_CLK_TCK")

    def fields(of: int) -> list[str]:
        try:
            with open(f"/proc/{of}/stat", encoding="ascii") as stat:
                return stat.read().rsplit(")", 1)[1].split()
        except OSError:
            return []

    own = fields(pid)
    if not own:
        return 0.0, 0.0
    children = (int(own[13]) + int(own[14])) / tick  # cutime + cstime: reaped children
    todo = [pid]
    while todo:
        parent = todo.pop()
        for tid in (
            os.listdir(f"/proc/{parent}/task") if os.path.isdir(f"/proc/{parent}/task") else []
        ):
            try:
                with open(f"/proc/{parent}/task/{tid}/children", encoding="ascii") as f:
                    kids = [int(x) for x in f.read().split()]
            except OSError:
                continue
            for kid in kids:
                found = fields(kid)
                if found:
                    children += (int(found[11]) + int(found[12])) / tick
                todo.append(kid)
    return (int(own[11]) + int(own[12])) / tick, children


def p(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def serve(tree: Path, quiet: Path, data: str, port: int) -> subprocess.Popen[bytes]:
    env = dict(
        os.environ,
        REPOCONTEXT_DATA_DIR=data,
        REPOCONTEXT_EMBEDDER="local",
        PYTHONPATH=str(tree),
    )
    command = [sys.executable, "-m", "repocontext.cli", "serve", str(quiet), "--port", str(port)]
    command += ["--workspace-root", str(quiet.parent.parent)]  # BUSY is added there later
    return subprocess.Popen(command, cwd=tree, env=env, stderr=subprocess.DEVNULL)


async def measure(
    tree: Path, quiet: Path, busy: Path, rounds: int, think_s: float, single: int
) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    with tempfile.TemporaryDirectory(prefix="search-backfill-") as data:
        server = serve(tree, quiet, data, port)
        try:
            await run_phases(url, quiet.name, busy, (rounds, single), think_s, server.pid)
        finally:
            server.terminate()
            server.wait(60)


async def timed_phase(
    url: str, repo: str, calls: tuple[int, int], think_s: float, server: int
) -> dict[int, list[float]]:
    """`phase`, printing the CPU the server and its children spent during it."""
    own, kids = cpu_s(server)
    out = await phase(url, repo, calls[0], think_s, calls[1])
    own_after, kids_after = cpu_s(server)
    made = sum(len(v) for v in out.values())
    print(
        f"  server CPU {(own_after - own) * 1000 / made:.0f} ms per call, "
        f"children {kids_after - kids:.1f} s of CPU",
        flush=True,
    )
    return out


async def run_phases(
    url: str, quiet: str, busy: Path, calls: tuple[int, int], think_s: float, server: int
) -> None:
    async def up() -> bool:
        try:
            async with session(url) as mcp:
                found = await coverage(mcp, quiet)  # 0 of 0 files is no coverage yet
                return bool(found.get("complete") and found.get("filesTotal"))
        except Exception:
            return False

    await wait_until(f"{quiet}: full vector coverage", up)
    print(f"  idle phase (load {os.getloadavg()[0]:.1f})", flush=True)
    idle = await timed_phase(url, quiet, calls, think_s, server)
    async with session(url) as mcp:
        added = await mcp.call_tool(
            "repocontext_add_repo", {"path": str(busy), "repoId": busy.name}
        )
        if added.isError:
            raise SystemExit(f"add_repo failed: {added.content}")

        async def backfilling() -> bool:
            status = await mcp.call_tool("repocontext_index_status", {"repoId": busy.name})
            job = (status.structuredContent or {}).get("status")
            found = await coverage(mcp, busy.name)
            return job == "Completed" and found.get("passagesEmbedded", 0) > 0

        await wait_until(f"{busy.name}: keyword index done, backfill started", backfilling)
        before = await coverage(mcp, busy.name)
        print(f"  backfill phase (load {os.getloadavg()[0]:.1f})", flush=True)
        started = time.perf_counter()
        during = await timed_phase(url, quiet, calls, think_s, server)
        seconds = time.perf_counter() - started
        after = await coverage(mcp, busy.name)
    gained = after.get("passagesEmbedded", 0) - before.get("passagesEmbedded", 0)
    print(
        f"  {busy.name} backfill during the phase: {gained} passages in {seconds:.0f} s "
        f"({gained / seconds:.1f}/s), complete at the end: {after.get('complete')}",
        flush=True,
    )
    report(idle, during)


def report(idle: dict[int, list[float]], during: dict[int, list[float]]) -> None:
    print("| clients | calls | idle p50 | idle p95 | backfill p50 | backfill p95 | p95 ratio |")
    print("|---|---|---|---|---|---|---|")
    for clients in CLIENTS:
        a, b = idle[clients], during[clients]
        ratio = p(b, 95) / p(a, 95)
        print(
            f"| {clients} | {len(a)} | {p(a, 50) * 1000:.0f} ms | {p(a, 95) * 1000:.0f} ms | "
            f"{p(b, 50) * 1000:.0f} ms | {p(b, 95) * 1000:.0f} ms | {ratio:.2f} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("quiet", type=Path, help="the repository searched")
    parser.add_argument("busy", type=Path, help="the repository whose backfill runs meanwhile")
    parser.add_argument("--tree", type=Path, default=Path.cwd(), help="source tree of the server")
    parser.add_argument("--rounds", type=int, default=8, help="calls per client of 16")
    parser.add_argument(
        "--single",
        type=int,
        default=0,
        help="calls of the single client per phase (default 2 x rounds; its p95 is the "
        "slowest 5 %%, so 24 calls make it the 2nd-slowest call)",
    )
    parser.add_argument(
        "--think-s",
        type=float,
        default=0.5,
        help="pause before each call (0: back to back, which keeps the backfill deferred)",
    )
    args = parser.parse_args()
    quiet, busy = args.quiet.expanduser().resolve(), args.busy.expanduser().resolve()
    if quiet.parent.parent != busy.parent.parent:
        raise SystemExit("QUIET and BUSY must share a grandparent (the workspace root)")
    print(f"server tree {args.tree}: {quiet.name} searched, {busy.name} backfilled", flush=True)
    single = args.single or 2 * args.rounds
    tree = args.tree.resolve()
    asyncio.run(measure(tree, quiet, busy, args.rounds, args.think_s, single))


if __name__ == "__main__":
    main()
