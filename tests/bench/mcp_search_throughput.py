"""Keyword search over MCP at scale: latency from one client, throughput from 16 (issue 25 item 1):

    python -m tests.bench.mcp_search_throughput [--generated 100000] [--data-dir DIR]
        [--corpus DIR] [--queries 200] [--calls 320] [--clients 16] [--noop N] [--tree DIR]
        [--profile OUT] [--answers OUT.json] [--readers 0,2] [--rounds R]

Starts `repocontext serve CORPUS --embedder none` (keyword only) on a prepared data directory:
spring-framework at search_latency's PIN (11.4k files) or the generated corpus of
`--generated N` files, both indexed by `python -m tests.bench.search_latency [--generated N]`
into ~/.cache/repocontext-bench/systems/latency/<name>.<build versions>, the default `--data-dir`
(give a copy when another run may hold that one: a data directory has one owner). The real MCP
client over streamable HTTP then waits until the server's CPU settles (a reopened data
directory re-walks the corpus and may rebuild its views; the first search builds the
in-memory postings in a background thread), and runs the localisation benchmark's change
requests as `repocontext_search` k=10:

1. one client, each query once, sequentially: p50/p95/p99;
2. `--clients` concurrent clients (one MCP session each, calls back to back) sharing
   `--calls` calls, each client walking the queries from its own offset: p50/p95/p99 and
   searches/s over the phase's wall time.

Each phase also reports the server process's CPU per search (/proc) and this client process's
(all 16 clients live in it): on a shared machine those move far less with the load than the
times do, and on a 2-core machine the client's share is CPU the server does not get. The
clients validate every result against the tool's output schema, as the SDK's do, with one
validator per schema (`SchemaCheckedOnce`); `--stock-client` uses the SDK's client as it is,
which re-checks the schema itself on every call.
`--readers 0,2 [--rounds R]` runs the server with each number of search reader processes
(REPOCONTEXT_SEARCH_READERS, query_api/server/search_readers.py) in turns on the same data,
the order reversed each round; the server's CPU then counts its children (the readers) too.
`--noop N` first times N calls of a tool that does not exist from one client: what the
HTTP/MCP path costs with no answer to compute.

The issue's target at u-boot scale (38.5k files), quiet machine: p50 <= 40 ms, p99 <= 150 ms,
>= 40 searches/s with 16 clients. The load average is printed beside each phase; on a shared
machine compare two trees (`--tree`, e.g. a `git worktree` of an older commit) back to back.
`--profile OUT` samples the server's busy threads during the concurrent phase and writes the
share of samples per function to OUT. `--answers OUT.json` writes the one-client phase's
answers (structured content but the freshness), so two trees' answers can be compared.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import mcp.types as types
from jsonschema import ValidationError  # type: ignore[import-untyped]
from jsonschema.validators import validator_for  # type: ignore[import-untyped]
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from referencing import Registry

from tests.bench.localisation.cases import CASES_FILE, read_cases
from tests.bench.localisation.checkout import DEFAULT_CACHE, materialise
from tests.bench.localisation.repos import DEFAULT_MIRRORS, require_mirror
from tests.bench.search_latency import PIN, cached_system, generated_corpus, pct
from tests.bench.search_under_backfill import free_port, session, wait_until

# Server CPU seconds over SETTLE_WINDOW_S below which it is idle: an idle server's timers and
# pollers cost it 0.15-0.26 s per 3 s at load ~10 (u-boot).
SETTLED_CPU_S = 0.3
SETTLE_WINDOW_S = 3.0
# Quiet windows in a row: on a loaded machine a background build (the postings, ~3 min of CPU
# at 38k files) can get almost no CPU for one window and look finished.
SETTLE_WINDOWS = 3
SAMPLE_S = 0.005
HEADER = (
    "| phase | calls | p50 ms | p95 ms | p99 ms | searches/s | server CPU ms/search "
    "| client CPU ms/search | load |\n"
    "|---|---|---|---|---|---|---|---|---|"
)


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def own_cpu_s(pid: int) -> float:
    """User + system CPU seconds of the process alone (without its children)."""
    fields = _stat(pid)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process and its live children: the search readers and
    processor workers work for it (Linux /proc)."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = _stat(int(entry.name))
        except (OSError, IndexError):  # gone meanwhile
            continue
        if int(entry.name) == pid or int(fields[1]) == pid:
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> tuple[float, float]:
    """Resident MiB of a process and of its live children together (readers, workers)."""
    own = children = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int(_stat(int(entry.name))[1])
            if int(entry.name) != pid and ppid != pid:
                continue
            status = (entry / "status").read_text()
        except (OSError, IndexError):
            continue
        kib = next((int(x.split()[1]) for x in status.splitlines() if x.startswith("VmRSS:")), 0)
        if int(entry.name) == pid:
            own = kib / 1024
        else:
            children += kib / 1024
    return own, children


def cli_module(tree: Path) -> str:
    """The tree's CLI module: `repocontext.cli`, or `query_api.cli` in a tree from before the
    composition root moved into `repocontext/` (such as the issue's 813317c)."""
    return "repocontext.cli" if (tree / "repocontext" / "cli.py").is_file() else "query_api.cli"


def serve(
    tree: Path,
    corpus: Path,
    data: Path,
    port: int,
    profile: Path | None,
    log: Path,
    readers: int,
    repo_id: str | None = None,
) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=str(tree), REPOCONTEXT_EMBEDDER="none")
    env["REPOCONTEXT_SEARCH_READERS"] = str(readers)
    entry = ["-m", cli_module(tree)]
    if profile is not None:
        entry = ["-m", "tests.bench.mcp_search_throughput", "--serve-sampled", str(profile), "--"]
    command = [sys.executable, *entry, "serve", str(corpus), "--data-dir", str(data)]
    command += ["--embedder", "none", "--port", str(port), "--workspace-root", str(corpus)]
    if repo_id is not None:
        command += ["--repo-id", repo_id]
    with log.open("ab") as out:
        return subprocess.Popen(command, cwd=tree, env=env, stdout=out, stderr=out)


class SchemaCheckedOnce(ClientSession):
    """The SDK's client validating each result against the tool's output schema as it does,
    with one validator per schema: the SDK's `jsonschema.validate` checks the schema itself
    against the metaschema on every call (~14 ms of the client's ~21 ms CPU per spring
    answer), CPU that on a 2-core machine the server under test does not get."""

    _validators: dict[str, Any]

    async def _validate_tool_result(self, name: str, result: types.CallToolResult) -> None:
        if name not in self._tool_output_schemas:
            await self.list_tools()
        schema = self._tool_output_schemas.get(name)
        if schema is None:
            return
        if result.structuredContent is None:
            raise RuntimeError(f"{name} has an output schema but returned no structured content")
        validators = self.__dict__.setdefault("_validators", {})
        if name not in validators:
            kind = validator_for(schema)
            kind.check_schema(schema)
            validators[name] = kind(schema, registry=Registry())
        try:
            validators[name].validate(result.structuredContent)
        except ValidationError as exc:
            raise RuntimeError(f"invalid structured content from {name}: {exc}") from exc


STOCK_CLIENT = False  # --stock-client: the SDK's ClientSession as it is


@asynccontextmanager
async def bench_session(url: str) -> AsyncIterator[ClientSession]:
    kind = ClientSession if STOCK_CLIENT else SchemaCheckedOnce
    async with (
        streamable_http_client(url) as (read, write, _),
        kind(read, write) as mcp,
    ):
        await mcp.initialize()
        yield mcp


async def search(
    mcp: ClientSession, repo: str, query: str, answers: list[object] | None = None
) -> float:
    began = time.perf_counter()
    result = await mcp.call_tool("repocontext_search", {"repoId": repo, "query": query, "k": 10})
    elapsed = time.perf_counter() - began
    if result.isError:
        raise SystemExit(f"search failed: {result.content}")
    if answers is not None:
        content = dict(result.structuredContent or {})
        content.pop("freshness", None)  # when the views were read, not what they answered
        answers.append({"query": query, "answer": content})
    return elapsed * 1000


async def client(
    url: str,
    repo: str,
    queries: list[str],
    calls: int,
    offset: int,
    answers: list[object] | None = None,
) -> list[float]:
    async with bench_session(url) as mcp:
        return [
            await search(mcp, repo, queries[(offset + i) % len(queries)], answers)
            for i in range(calls)
        ]


async def settle(url: str, repo: str, pid: int) -> None:
    """Until the repository answers and the server's CPU stays quiet after a search (the walk,
    a views rebuild and the postings build run in the background; a search starts a build of
    postings that are missing or too far behind)."""

    async def quiet_after_search() -> bool:
        try:
            async with session(url) as mcp:
                args = {"repoId": repo, "query": "warm up", "k": 10}
                if (await mcp.call_tool("repocontext_search", args)).isError:
                    return False  # past its deadline while the corpus is being indexed
        except Exception:
            return False
        for _ in range(SETTLE_WINDOWS):
            before = server_cpu_s(pid)
            await asyncio.sleep(SETTLE_WINDOW_S)
            if server_cpu_s(pid) - before >= SETTLED_CPU_S:
                return False
        return True

    await wait_until("server CPU settled after a search", quiet_after_search, limit_s=7200)


def row(
    name: str, times: list[float], wall_s: float, cpu_s: tuple[float, float], load: float
) -> str:
    """One phase's line; `cpu_s` is (server, client) CPU seconds over the phase."""
    cells = " | ".join(f"{pct(times, q):.1f}" for q in (0.5, 0.95, 0.99))
    rate = len(times) / wall_s
    server, client = (c / len(times) * 1000 for c in cpu_s)
    spent = f"{server:.1f} | {client:.1f}"
    return f"| {name} | {len(times)} | {cells} | {rate:.1f} | {spent} | {load:.1f} |"


async def noop_phase(url: str, calls: int, pid: int) -> str:
    """`calls` calls of a tool that does not exist (answered by an error, no handler)."""
    load, cpu, own = os.getloadavg()[0], server_cpu_s(pid), time.process_time()
    times = []
    began = time.perf_counter()
    async with bench_session(url) as mcp:
        for _ in range(calls):
            start = time.perf_counter()
            await mcp.call_tool("repocontext_no_such_tool", {})
            times.append((time.perf_counter() - start) * 1000)
    wall, cpu = time.perf_counter() - began, server_cpu_s(pid) - cpu
    return row("1 client, no-op call", times, wall, (cpu, time.process_time() - own), load)


async def phases(
    url: str,
    repo: str,
    queries: list[str],
    calls: int,
    clients: int,
    pid: int,
    profile: object,
    answers: list[object] | None = None,
) -> list[str]:
    rows = []
    load, cpu, own = os.getloadavg()[0], server_cpu_s(pid), time.process_time()
    alone = own_cpu_s(pid)
    began = time.perf_counter()
    times = await client(url, repo, queries, len(queries), 0, answers)
    wall, cpu = time.perf_counter() - began, server_cpu_s(pid) - cpu
    rows.append(row("1 client, sequential", times, wall, (cpu, time.process_time() - own), load))
    rows.append(owner_line(own_cpu_s(pid) - alone, len(times)))
    print("\n".join(rows[-2:]), flush=True)
    if profile is not None:
        os.kill(pid, signal.SIGUSR1)  # the server's threads start profiling on their next call
    load, cpu, own = os.getloadavg()[0], server_cpu_s(pid), time.process_time()
    alone = own_cpu_s(pid)
    share = [calls // clients + (c < calls % clients) for c in range(clients)]
    stride = max(1, len(queries) // clients)
    began = time.perf_counter()
    runs = [client(url, repo, queries, share[c], c * stride) for c in range(clients)]
    times = [t for part in await asyncio.gather(*runs) for t in part]
    wall, cpu = time.perf_counter() - began, server_cpu_s(pid) - cpu
    spent = (cpu, time.process_time() - own)
    rows.append(row(f"{clients} clients, concurrent", times, wall, spent, load))
    rows.append(owner_line(own_cpu_s(pid) - alone, len(times)))
    print("\n".join(rows[-2:]), flush=True)
    return rows


def owner_line(cpu_s: float, calls: int) -> str:
    """The server process's own share of its CPU per search: with search readers, what one
    process still does per call (HTTP, MCP, freshness, rendering)."""
    return f"|   of which the server process itself | | | | | | {cpu_s / calls * 1000:.1f} | | |"


async def measure(
    args: argparse.Namespace, corpus: Path, data: Path, queries: list[str], readers: int
) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    log = Path(args.server_log)
    tree = args.tree.resolve()
    server = serve(tree, corpus, data, port, args.profile, log, readers, args.repo_id)
    repo = args.repo_id or corpus.name
    try:
        await settle(url, repo, server.pid)
        began = time.strftime("%H:%M", time.gmtime())
        print(f"\n{len(queries)} change requests over {repo} ({corpus}), k=10, over MCP")
        print(f"server: {readers} search reader processes, {began} UTC")
        print(HEADER)
        if args.noop:
            print(await noop_phase(url, args.noop, server.pid), flush=True)
        answers: list[object] | None = [] if args.answers else None
        await phases(
            url, repo, queries, args.calls, args.clients, server.pid, args.profile, answers
        )
        if args.answers:
            out = Path(args.answers)
            if len(args.readers) > 1:  # one file per configuration, to compare them
                out = out.with_name(f"{out.stem}.readers-{readers}{out.suffix}")
            out.write_text(json.dumps(answers, indent=1) + "\n")
            print(f"the one client's answers: {out}")
        own, children = rss_mib(server.pid)
        print(f"server RSS after: {own:.0f} MiB, its children {children:.0f} MiB")
        print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    finally:
        server.terminate()
        server.wait(120)
    if args.profile is not None:
        print(f"profile of the server's concurrent phase: {args.profile}")


IDLE_LEAVES = frozenset({"wait", "select", "poll", "_worker", "get", "sleep", "accept", "epoll"})


def serve_sampled(out: Path, argv: list[str]) -> None:
    """The CLI with a stack sampler started by SIGUSR1: every SAMPLE_S it records where each
    busy thread is (threads parked in a wait are left out), so the profile covers the
    concurrent phase only and costs the server nothing per call. At exit OUT gets the share of
    samples each function was on the stack (inclusive) and on top (self), busiest first."""
    import collections
    import signal
    import threading

    from repocontext.cli import main as cli_main

    inclusive: collections.Counter[str] = collections.Counter()
    on_top: collections.Counter[str] = collections.Counter()
    totals = [0]

    def sample() -> None:
        me = threading.get_ident()
        while True:
            time.sleep(SAMPLE_S)
            for ident, frame in sys._current_frames().items():
                if ident == me or frame.f_code.co_name in IDLE_LEAVES:
                    continue
                totals[0] += 1
                seen: set[str] = set()
                f: Any = frame
                on_top[_where(f)] += 1
                while f is not None:
                    seen.add(_where(f))
                    f = f.f_back
                inclusive.update(seen)

    def start(*_: object) -> None:
        threading.Thread(target=sample, name="sampler", daemon=True).start()

    signal.signal(signal.SIGUSR1, start)
    try:
        sys.argv = ["repocontext", *argv]
        cli_main()
    finally:
        n = max(1, totals[0])
        lines = [f"{totals[0]} samples of busy threads, every {SAMPLE_S * 1000:.0f} ms"]
        lines += ["inclusive %  self %  function"]
        for where, count in inclusive.most_common(120):
            lines.append(f"{100 * count / n:10.1f}  {100 * on_top[where] / n:6.1f}  {where}")
        lines += ["", "self %  function"]
        lines += [f"{100 * c / n:6.1f}  {w}" for w, c in on_top.most_common(60)]
        out.write_text("\n".join(lines) + "\n")


def _where(frame: Any) -> str:
    code = frame.f_code
    return f"{'/'.join(code.co_filename.rsplit('/', 2)[-2:])}:{code.co_firstlineno} {code.co_name}"


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--serve-sampled":
        serve_sampled(Path(sys.argv[2]), sys.argv[4:])
        return
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--generated", type=int, default=0, help="N generated files, not spring")
    parser.add_argument("--corpus", type=Path, help="another checkout (indexed on the first run)")
    parser.add_argument("--data-dir", type=Path, help="prepared data directory (default: cache)")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--calls", type=int, default=320, help="calls of the concurrent phase")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--noop", type=int, default=0, help="no-op calls timed first")
    parser.add_argument(
        "--stock-client", action="store_true", help="the SDK's client (schema re-checked per call)"
    )
    parser.add_argument("--tree", type=Path, default=Path.cwd(), help="source tree of the server")
    parser.add_argument("--profile", type=Path, help="sample the server into this file")
    parser.add_argument(
        "--answers", type=Path, help="write the one client's answers (JSON), to compare trees"
    )
    parser.add_argument("--server-log", default=os.devnull, help="append the server's output")
    parser.add_argument(
        "--readers",
        type=lambda v: [int(n) for n in v.split(",")],
        default=[0],
        help="search reader processes of the server, e.g. 0,2: each in turn, same data",
    )
    parser.add_argument("--rounds", type=int, default=1, help="turns (order reversed each)")
    parser.add_argument(
        "--repo-id", help="the corpus's id in the data directory (default: its name)"
    )
    parser.add_argument("--mirrors", type=Path, default=DEFAULT_MIRRORS)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    args = parser.parse_args()
    global STOCK_CLIENT
    STOCK_CLIENT = args.stock_client
    if args.corpus:
        corpus = args.corpus.expanduser().resolve()
        name = f"mcp-{corpus.name}"
    elif args.generated:
        name = f"generated-{args.generated}"
        corpus = args.cache / "checkouts" / name / "corpus"
        corpus = generated_corpus(corpus, args.generated)
    else:
        name = f"{PIN.slug}-{PIN.commit[:12]}"
        target = args.cache / "checkouts" / name / "spring-framework"
        corpus = materialise(require_mirror(PIN, args.mirrors), PIN.commit, target)
    data = args.data_dir or cached_system(args.cache, name, args.tree)
    queries = [case.query[:4096] for case in read_cases(CASES_FILE)][: args.queries]
    client = "the SDK's ClientSession" if STOCK_CLIENT else "SchemaCheckedOnce"
    print(f"server tree {args.tree}, data {data}, client {client}", flush=True)
    for round_ in range(args.rounds):
        order = args.readers if round_ % 2 == 0 else args.readers[::-1]
        for readers in order:
            asyncio.run(measure(args, corpus, data, queries, readers))


if __name__ == "__main__":
    main()
