"""Search latency over MCP while a repository is first indexed (keyword only):

    .venv/bin/python -m tests.bench.search_during_index [--baseline-tree DIR] [--rounds N] REPO

One `repocontext serve REPO --embedder none` (fresh data directory) per run, driven by the
real MCP client over streamable HTTP: as soon as it answers, one client searches (k=10, a
fixed list of queries, 50 ms apart) until `repocontext_index_status` says Completed, and the
latency of each search answered meanwhile is kept. The view sink writes batch after batch
then, so this is where a read that waits on the writer shows. With `--baseline-tree DIR` (a
`git worktree add DIR <older commit>`) that tree's server is run too, in turns with this one,
`--rounds` times each. Prints per run the searches answered during the index, p50, p90 and the
largest. Nothing is asserted: the machine is shared, so compare runs made side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client

from tests.bench.search_under_backfill import free_port

QUERIES = (
    "plugin cache ttl",
    "reload the config file",
    "parse command line arguments",
    "render the component tree",
    "escape a json string",
)
CONNECT_TRIES = 200  # the server's start, 0.1 s apart
PAUSE_S = 0.05


def serve(tree: Path, repo: Path, data: str, port: int) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    command = [sys.executable, "-m", "repocontext.cli", "serve", str(repo), "--embedder", "none"]
    command += ["--port", str(port), "--data-dir", data, "--repo-id", "bench"]
    return subprocess.Popen(command, cwd=tree, env=env, stderr=subprocess.DEVNULL)


async def searches_while_indexing(port: int) -> list[float]:
    """Milliseconds of each search answered before the index run completed."""
    await _listening(port)
    async with (
        streamablehttp_client(f"http://127.0.0.1:{port}/mcp") as (read, write, _),
        ClientSession(read, write) as client,
    ):
        await client.initialize()
        return await _search_until_indexed(client)


async def _listening(port: int) -> None:
    for _ in range(CONNECT_TRIES):
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.1)
            continue
        writer.close()
        return
    raise RuntimeError(f"no server listened on port {port}")


async def _search_until_indexed(client: ClientSession) -> list[float]:
    latencies: list[float] = []
    for i in range(100_000):
        status = await client.call_tool("repocontext_index_status", {"repoId": "bench"})
        if (status.structuredContent or {}).get("status") == "Completed":
            break
        args = {"repoId": "bench", "query": QUERIES[i % len(QUERIES)], "k": 10}
        started = time.perf_counter()
        result = await client.call_tool("repocontext_search", args)
        if not result.isError:  # "unknown repository" until its registration lands
            latencies.append((time.perf_counter() - started) * 1000)
        await asyncio.sleep(PAUSE_S)
    return latencies


async def run_once(tree: Path, repo: Path) -> list[float]:
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="rc-during-") as data:
        server = serve(tree, repo, data, port)
        try:
            return await searches_while_indexing(port)
        finally:
            server.terminate()
            server.wait(timeout=60)


def row(label: str, latencies: list[float]) -> str:
    if len(latencies) < 2:
        return f"{label}: {len(latencies)} searches during the index"
    p90 = statistics.quantiles(latencies, n=10)[8]
    return (
        f"{label}: {len(latencies)} searches during the index, p50 "
        f"{statistics.median(latencies):.1f} ms, p90 {p90:.1f} ms, max {max(latencies):.1f} ms"
    )


async def main(args: argparse.Namespace) -> None:
    trees = [("this tree", Path.cwd())]
    if args.baseline_tree is not None:
        trees.insert(0, ("baseline", args.baseline_tree.resolve()))
    for round_no in range(args.rounds):
        for label, tree in trees:
            latencies = await run_once(tree, args.repo.resolve())
            print(row(f"round {round_no} {label}", latencies), f"(load {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--baseline-tree", type=Path, default=None)
    parser.add_argument("--rounds", type=int, default=2)
    asyncio.run(main(parser.parse_args()))
