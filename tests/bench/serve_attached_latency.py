"""Search over HTTP from a `serve` that owns its data directory and from one attached to a
stdio owner (repocontext/serve_attached.py), side by side (issue 24 item 7).

    .venv/bin/python -m tests.bench.serve_attached_latency REPO [--rounds 3] [--calls 30]

Two data directories, one copy of REPO each: a `serve` owns the first; a `repocontext mcp`
owns the second and a `serve` attached to it answers over HTTP. Each round times `--calls`
searches on each side in turn (after 10 untimed ones) and reads each `serve` process's CPU
from /proc: the attached one only authenticates, runs the session and pipes the messages.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path

from schemas.events import repo_id_from_name
from tests.conftest import ServeProcess
from tests.integration.mcp_helpers import http_session, wait_indexed
from tests.integration.test_several_agents import stdio_logged

QUERIES = [
    "set the response status code",
    "cookies signed keys",
    "context throw error",
    "body json stream",
    "proxy trust forwarded header",
]
WARM_CALLS = 10


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def timed(server: ServeProcess, repo_id: str, calls: int) -> tuple[list[float], float]:
    """Milliseconds per timed search, and the serve process's CPU seconds per search."""
    out: list[float] = []
    async with http_session(server.base) as session:
        await wait_indexed(session, repo_id, 600)
        for query in QUERIES * (WARM_CALLS // len(QUERIES)):
            await session.call_tool("repocontext_search", {"repoId": repo_id, "query": query})
        before = cpu_seconds(server.proc.pid)
        for i in range(calls):
            started = time.perf_counter()
            args = {"repoId": repo_id, "query": QUERIES[i % len(QUERIES)]}
            result = await session.call_tool("repocontext_search", args)
            out.append((time.perf_counter() - started) * 1000)
            assert not result.isError, result.content
        cpu = cpu_seconds(server.proc.pid) - before
    return out, cpu / calls


def summary(name: str, millis: list[float], cpu: list[float]) -> str:
    millis = sorted(millis)
    p95 = millis[min(len(millis) - 1, int(len(millis) * 0.95))]
    return (
        f"{name:9} n {len(millis)}  p50 {statistics.median(millis):.1f} ms  p95 {p95:.1f} ms  "
        f"serve CPU per search {statistics.mean(cpu) * 1000:.1f} ms"
    )


async def main(repo: Path, rounds: int, calls: int) -> None:
    repo_id = repo_id_from_name(repo.name)  # as `serve PATH` names it
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for side in ("owning", "attached"):
            (work / side).mkdir()
        owning = ServeProcess(repo, work / "owning" / "data")
        stdio = stdio_logged(work / "attached" / "data", work / "owner.log", str(repo))
        try:
            async with stdio as owner:
                await wait_indexed(owner, repo_id, 600)
                attached = ServeProcess(repo, work / "attached" / "data")
                try:
                    millis: dict[str, list[float]] = {"owning": [], "attached": []}
                    cpu: dict[str, list[float]] = {"owning": [], "attached": []}
                    for _ in range(rounds):
                        for name, server in (("owning", owning), ("attached", attached)):
                            got, per_call = await timed(server, repo_id, calls)
                            millis[name] += got
                            cpu[name].append(per_call)
                    for name in millis:
                        print(summary(name, millis[name], cpu[name]))
                    print(f"load average {os.getloadavg()[0]:.1f}")
                finally:
                    attached.stop()
        finally:
            owning.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repo", type=Path, help="a repository checkout (koa's, say)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--calls", type=int, default=30, help="timed searches per side a round")
    options = parser.parse_args()
    asyncio.run(main(options.repo.resolve(), options.rounds, options.calls))
