"""`python -m tests.bench.indexing --load N,M`: many agents at once against one `repocontext serve`.

Each simulated agent holds its own MCP session over HTTP on loopback and loops over a mix
of the read tools the server lists (search, outline, related, context) while a writer keeps
rewriting files so the repository is re-indexing the whole time. Bounded in time; reports
per-tool p50/p99, errors, shed requests (503) and the server's peak RSS.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx

from query_api.settings import default_data_dir
from tests.bench.indexing import _query_words, fetch_corpus, pct, say


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _peak_rss_mib(pid: int) -> float:
    """VmHWM of the server plus its processor workers (their own peaks)."""
    total = 0
    pids = [pid]
    with contextlib.suppress(OSError):
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(c) for c in children]
    for one in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{one}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    total += int(line.split()[1])
    return round(total / 1024, 1)


async def _agent(
    url: str, repo: str, words: list[str], paths: list[str], until: float, stats: dict[str, Any]
) -> None:
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    rng = random.Random(id(stats) ^ int(until))
    async with (
        httpx.AsyncClient(timeout=60) as client,
        streamable_http_client(url, http_client=client) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        listed = {t.name for t in (await session.list_tools()).tools}
        mix = [("repocontext_search", 6)]
        mix += [(n, 2) for n in ("repocontext_outline", "repocontext_related") if n in listed]
        mix += [("repocontext_context", 1)] if "repocontext_context" in listed else []
        tools = [name for name, weight in mix for _ in range(weight)]
        while time.monotonic() < until:
            name = rng.choice(tools)
            args: dict[str, Any] = {"repoId": repo}
            if name in ("repocontext_search", "repocontext_context"):
                args["query" if name == "repocontext_search" else "task"] = rng.choice(words)
            else:
                args["path"] = rng.choice(paths)
            started = time.perf_counter()
            try:
                result = await session.call_tool(name, args)
                failed = bool(result.isError)
            except Exception as exc:  # transport failures count as errors, with their kind
                failed = True
                stats["exceptions"][type(exc).__name__] += 1
            stats["latency"][name].append((time.perf_counter() - started) * 1000)
            stats["errors"] += int(failed)


def _server_seconds(base: str) -> dict[str, tuple[float, float]]:
    """Per tool (sum of seconds, count) of the server's own `repocontext.retrieval.duration`
    histogram: time inside the handler, without transport, queueing in the HTTP stack or the
    client's own work (the clients share these cores)."""
    text = httpx.get(base + "/metrics", timeout=30).text
    out: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for line in text.splitlines():
        if not line.startswith("repocontext_retrieval_duration_seconds_"):
            continue
        name, _, value = line.rpartition(" ")
        tool = name.partition('tool="')[2].partition('"')[0]
        if name.startswith("repocontext_retrieval_duration_seconds_sum"):
            out[tool][0] += float(value)
        elif name.startswith("repocontext_retrieval_duration_seconds_count"):
            out[tool][1] += float(value)
    return {tool: (v[0], v[1]) for tool, v in out.items()}


def _server_means(
    before: dict[str, tuple[float, float]], after: dict[str, tuple[float, float]]
) -> dict[str, float]:
    means = {}
    for tool, (total, count) in sorted(after.items()):
        total0, count0 = before.get(tool, (0.0, 0.0))
        if count > count0:
            means[tool] = round((total - total0) / (count - count0) * 1000, 1)
    return means


async def _writer(corpus: Path, until: float) -> int:
    """Keep the repository re-indexing: rewrite a few files every 200 ms."""
    files = sorted(corpus.rglob("*.py"))[:400]
    edits = 0
    while time.monotonic() < until:
        for path in random.sample(files, 10):
            with path.open("a") as handle:
                handle.write(f"\n# load-bench edit {edits}\n")
            edits += 1
        await asyncio.sleep(0.2)
    return edits


async def run_load(levels: list[int], seconds: float, corpus: str | None) -> int:
    tree = Path(corpus).resolve() if corpus else fetch_corpus(default_data_dir() / "bench")
    report: dict[str, Any] = {"corpus": str(tree), "seconds_per_level": seconds, "levels": []}
    with tempfile.TemporaryDirectory(prefix="repocontext-load-") as scratch:
        live = Path(scratch) / tree.name
        shutil.copytree(tree, live, symlinks=True)
        data, port = Path(scratch) / "data", _free_port()
        cli = [sys.executable, "-m", "repocontext.cli"]
        env_args = ["--data-dir", str(data)]
        say(f"indexing {live} ...")  # the child's progress lines follow on stderr
        subprocess.run([*cli, "index", str(live), *env_args], check=True, stdout=subprocess.DEVNULL)
        say("starting the server ...")
        server = subprocess.Popen(
            [*cli, "serve", str(live), "--port", str(port), *env_args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(base + "/health/live", timeout=1).status_code == 200:
                        break
                await asyncio.sleep(0.1)
            words = _query_words(live, 300)
            paths = [str(p.relative_to(live)) for p in sorted(live.rglob("*.py"))[:300]]
            for clients in levels:
                say(f"{clients} clients for {seconds:g} s while the repository re-indexes ...")
                stats: dict[str, Any] = {
                    "latency": defaultdict(list),
                    "errors": 0,
                    "exceptions": defaultdict(int),
                }
                before = _server_seconds(base)
                until = time.monotonic() + seconds
                writer = asyncio.create_task(_writer(live, until))
                await asyncio.gather(
                    *(
                        _agent(base + "/mcp", live.name, words, paths, until, stats)
                        for _ in range(clients)
                    ),
                    return_exceptions=False,
                )
                level = {
                    "clients": clients,
                    "edits_during_run": await writer,
                    "calls": sum(len(v) for v in stats["latency"].values()),
                    "errors": stats["errors"],
                    "exceptions": dict(stats["exceptions"]),
                    "per_tool_ms": {
                        tool: {"p50": round(pct(v, 0.5), 1), "p99": round(pct(v, 0.99), 1)}
                        for tool, v in sorted(stats["latency"].items())
                    },
                    "server_peak_rss_mib": _peak_rss_mib(server.pid),
                    "server_mean_ms": _server_means(before, _server_seconds(base)),
                }
                print(json.dumps(level), file=sys.stderr)
                report["levels"].append(level)
        finally:
            server.terminate()
            server.wait(timeout=60)
    print(json.dumps(report, indent=2))
    return 0
