"""Tokens per tool answer on the wire, before and after a change (issue 24 item 2).

    .venv/bin/python -m tests.bench.wire_tokens [--before 813317c] [--after HEAD] [--repo PATH]

Indexes one repository (default: a copy of this project's own Python sources, query_api/,
processors/ and streams/, about a hundred files) with the code of `--after` and of `--before`
(each checked out once as a git worktree under /tmp; `--after .` runs the working tree), both
keyword-only, and calls over
the MCP SDK's in-memory transport: search (k=10) for each query, outline and related of a few
files, and context (default budget) for each query. Each answer is counted as the JSON-RPC
response the client received (o200k_base, compact, nulls excluded: what travels), and the
context answers' own `responseTokens` is printed next to it.

The same file runs both sides: with `--side PATH` it imports the code under PATH and prints
one JSON line of measurements, which the parent collects.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

PROJECT = Path(__file__).resolve().parents[2]
QUERIES = [
    "exact fallback breaker after a stall in the retrieval ladder",
    "how are memory claims fenced and renewed",
    "gitignore rules when walking the workspace",
    "tokenize camelCase identifiers for BM25",
    "replay the event log into the SQLite views",
    "compute the token budget of a context bundle",
]
FILES = [
    "query_api/retrieval/ladder.py",
    "processors/tokenizer.py",
    "streams/stores/views/store.py",
]


def copy_sources(root: Path) -> None:
    for package in ("query_api", "processors", "streams"):
        for source in (PROJECT / package).rglob("*.py"):
            target = root / source.relative_to(PROJECT)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)


def wire_tokens(result: Any) -> int:
    from processors.tokens import count_tokens

    dumped = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    message = {"jsonrpc": "2.0", "id": 1, "result": dumped}
    return count_tokens(json.dumps(message, separators=(",", ":"), ensure_ascii=False))


async def measure(workspace: Path, data: Path) -> dict[str, Any]:
    """Runs inside the side's interpreter: its own query_api answers."""
    from mcp.shared.memory import create_connected_server_and_client_session

    import query_api
    from query_api.settings import Settings
    from schemas.tools import RepoIdArgs

    # the side's own composition root: repocontext/ since the house move, query_api/ before
    code = Path(query_api.__file__).resolve().parent.parent
    root = "repocontext.app" if (code / "repocontext" / "app.py").exists() else "query_api.app"
    EmbeddedApp = importlib.import_module(root).EmbeddedApp

    settings = Settings(
        data_dir=data,
        workspace_root=workspace,
        embedder="none",
        processor_workers=0,
        compaction_interval_s=3600.0,
    )
    out: dict[str, list[int]] = {"search": [], "outline": [], "related": [], "context": []}
    response_tokens: list[int] = []
    async with EmbeddedApp(settings, watch=False) as app:
        await app.start(resume=False)
        await app.service.ensure_repo(str(workspace / "repo"), "repo", launch=True)
        deadline = time.monotonic() + 600
        while (await app.service.index_status(RepoIdArgs(repoId="repo"))).status != "Completed":
            assert time.monotonic() < deadline, "indexing did not finish"
            await asyncio.sleep(0.05)
        await app.runtime.wait_idle(600)
        async with create_connected_server_and_client_session(app.mcp_server()) as s:
            for query in QUERIES:
                args = {"repoId": "repo", "query": query, "k": 10}
                out["search"].append(wire_tokens(await s.call_tool("repocontext_search", args)))
                ctx = await s.call_tool("repocontext_context", {"repoId": "repo", "task": query})
                out["context"].append(wire_tokens(ctx))
                response_tokens.append(int((ctx.structuredContent or {})["responseTokens"]))
            for path in FILES:
                for tool in ("outline", "related"):
                    answer = await s.call_tool(
                        f"repocontext_{tool}", {"repoId": "repo", "path": path}
                    )
                    out[tool].append(wire_tokens(answer))
    return {"wire": out, "responseTokens": response_tokens}


def run_side(code: Path, workspace: Path) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="wire-bench-") as data:
        command = [sys.executable, str(Path(__file__).resolve()), "--side", str(code)]
        command += ["--workspace", str(workspace), "--data", data]
        done = subprocess.run(command, cwd=code, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"side {code} failed:\n{done.stderr[-3000:]}")
        return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def worktree(commit: str) -> Path:
    if commit == ".":
        return PROJECT
    sha = subprocess.run(
        ["git", "rev-parse", "--short=12", commit],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    path = Path(tempfile.gettempdir()) / f"repocontext-{sha}"
    if not path.exists():
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(path), sha], cwd=PROJECT, check=True
        )
    return path


def report(before: dict[str, Any], after: dict[str, Any], commit: str, head: str) -> str:
    lines = [
        f"o200k tokens per answer on the wire (mean of {len(QUERIES)} queries, {len(FILES)} files)",
        f"{'tool':<10} {commit:>10} {head:>10} {'change':>8}",
    ]
    for tool in ("search", "outline", "related", "context"):
        a = statistics.mean(before["wire"][tool])
        b = statistics.mean(after["wire"][tool])
        lines.append(f"{tool:<10} {a:>10.0f} {b:>10.0f} {100 * (b - a) / a:>+7.0f}%")
    for side, got in ((commit, before), (head, after)):
        pairs = ", ".join(
            f"{r}/{w}" for r, w in zip(got["responseTokens"], got["wire"]["context"], strict=True)
        )
        lines.append(f"context responseTokens/wire at {side}: {pairs}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default="813317c", help="commit to compare with")
    parser.add_argument("--after", default="HEAD", help="commit measured ('.': working tree)")
    parser.add_argument("--repo", type=Path, help="repository to index (default: our sources)")
    parser.add_argument("--side", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--workspace", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--data", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.side is not None:
        sys.path.insert(0, str(args.side))
        print(json.dumps(asyncio.run(measure(args.workspace, args.data))))
        return
    with tempfile.TemporaryDirectory(prefix="wire-bench-ws-") as ws:
        workspace = Path(ws)
        if args.repo is not None:
            shutil.copytree(args.repo, workspace / "repo", ignore=shutil.ignore_patterns(".git"))
        else:
            copy_sources(workspace / "repo")
        before = run_side(worktree(args.before), workspace)
        after = run_side(worktree(args.after), workspace)
    print(report(before, after, args.before, args.after))


if __name__ == "__main__":
    main()
