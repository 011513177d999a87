"""What a context bundle spends beyond its code, over the localisation benchmark's change
requests with full vector coverage (issue 20 item 3):

    python -m tests.bench.context_envelope [--split tuning] [--repos click,gin] \
        [--budgets 2000,4000,8192,16000] [--per-repo 15]

Opens each repository's `default` system as `python -m tests.bench.localisation run` builds it
(its cached data directory under `--cache`, vectors backfilled to full coverage; a checkout
the cache lacks is extracted from `--mirrors`), then asks repocontext_context over the MCP
SDK's in-memory transport, once per case and budget, with the case's query as the task.
Each answer is counted as the JSON-RPC response the client received (o200k_base, compact,
nulls excluded: what travels, as tests/integration/test_context_envelope.py counts it); the
envelope is that minus twice each entry's JSON-escaped content (it travels in the structured
content and again in the text block). Prints, per repository and budget, the median and the
largest envelope share, how many answers pass 15 %, and the files packed; then the same over
every repository.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcp import ClientSession
from mcp.shared.memory import create_connected_server_and_client_session

from processors.tokens import count_tokens
from tests.bench.localisation.cases import read_cases
from tests.bench.localisation.checkout import DEFAULT_CACHE, cache_key, checkout
from tests.bench.localisation.repos import DEFAULT_MIRRORS, SPLITS, PinnedRepo, select
from tests.bench.localisation.system import RepocontextSystem

LIMIT = 0.15  # the bound on the envelope's share of responseTokens


@dataclass
class Shares:
    """Envelope shares and files packed, one per answer that packed an entry."""

    shares: list[float] = field(default_factory=list)
    files: list[int] = field(default_factory=list)

    def row(self, label: str, budget: int) -> str:
        if not self.shares:
            return f"| {label} | {budget:,} | 0 | | | | |"
        over = sum(s > LIMIT for s in self.shares)
        return (
            f"| {label} | {budget:,} | {len(self.shares)} | {statistics.median(self.shares):.1%}"
            f" | {max(self.shares):.1%} | {over} | {statistics.median(self.files):g} |"
        )


async def envelope_share(s: ClientSession, repo_id: str, task: str, budget: int) -> Any:
    """(share, files) of one answer, or None when it packed nothing."""
    args = {"repoId": repo_id, "task": task, "responseBudgetTokens": budget}
    result = await s.call_tool("repocontext_context", args)
    if result.isError or result.structuredContent is None:
        raise RuntimeError(f"repocontext_context failed: {result.content}")
    entries = result.structuredContent.get("entries") or []
    if not entries:
        return None
    message = {
        "jsonrpc": "2.0",
        "id": 1,
        "result": result.model_dump(mode="json", by_alias=True, exclude_none=True),
    }
    wire = count_tokens(json.dumps(message, separators=(",", ":"), ensure_ascii=False))
    code = sum(2 * count_tokens(json.dumps(e["content"], ensure_ascii=False)) for e in entries)
    return (wire - code) / wire, len(entries)


async def measure_repo(
    repo: PinnedRepo, tasks: list[str], budgets: list[int], mirrors: Path, cache: Path
) -> dict[int, Shares]:
    root = checkout(repo, mirrors, cache)
    data_dir = cache / "systems" / "local" / cache_key(repo)
    system = await RepocontextSystem.open(root, data_dir, embedder="local")
    out = {budget: Shares() for budget in budgets}
    try:
        async with create_connected_server_and_client_session(system.app.mcp_server()) as s:
            for budget in budgets:
                for task in tasks:
                    got = await envelope_share(s, system.repo_id, task, budget)
                    if got is not None:
                        out[budget].shares.append(got[0])
                        out[budget].files.append(got[1])
    finally:
        await system.app.close()
    return out


async def run(args: argparse.Namespace) -> None:
    repos = select(args.split, args.repos.split(",") if args.repos else None)
    budgets = [int(b) for b in args.budgets.split(",")]
    cases = read_cases()
    overall = {budget: Shares() for budget in budgets}
    print("| repository | budget | answers | median | largest | over 15 % | files (median) |")
    print("|---|---|---|---|---|---|---|")
    for repo in repos:
        tasks = [c.query for c in cases if c.repo == repo.name][: args.per_repo]
        measured = await measure_repo(repo, tasks, budgets, args.mirrors, args.cache)
        for budget in budgets:
            print(measured[budget].row(repo.name, budget), flush=True)
            overall[budget].shares += measured[budget].shares
            overall[budget].files += measured[budget].files
    for budget in budgets:
        print(overall[budget].row("all", budget))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", default="tuning", choices=[*SPLITS, "all"])
    parser.add_argument("--repos", default="", help="comma-separated repository names")
    parser.add_argument("--budgets", default="2000,4000,8192,16000")
    parser.add_argument("--per-repo", type=int, default=15)
    parser.add_argument("--mirrors", type=Path, default=DEFAULT_MIRRORS)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
