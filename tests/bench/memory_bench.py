"""Memory and context-bundle benchmarks (issue 5), through the real MCP client (in-memory
transport) against a real EmbeddedApp:

1. remember -> recall round trip (p50/p99) in the embedded runtime;
2. repocontext_context latency at budgets 2k/8k/32k on the pinned Django corpus;
3. "file recall at budget": on a small hand-written dev set of Django tasks, the fraction of
   relevant files whose content (not just the path) appears in an 8,192-token bundle.

Run: .venv/bin/python -m tests.bench.memory_bench [--corpus /path/to/Django-5.1.4]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from mcp import ClientSession
from mcp.shared.memory import create_connected_server_and_client_session

from query_api.settings import Settings
from repocontext.app import EmbeddedApp
from schemas.tools import RepoIdArgs

# task -> files a developer would need to read (repo-relative), Django 5.1.4.
DEV_SET: list[tuple[str, list[str]]] = [
    ("add a new password hasher algorithm", ["django/contrib/auth/hashers.py"]),
    ("change how CSRF tokens are rotated and checked", ["django/middleware/csrf.py"]),
    ("paginate a queryset with a custom page size", ["django/core/paginator.py"]),
    ("signing values with a timestamp and max age", ["django/core/signing.py"]),
    ("slugify unicode text for URLs", ["django/utils/text.py"]),
    ("validate email addresses in a form field", ["django/core/validators.py"]),
    (
        "send mail with attachments via SMTP backend",
        ["django/core/mail/message.py", "django/core/mail/backends/smtp.py"],
    ),
    ("cache backend using local memory with culling", ["django/core/cache/backends/locmem.py"]),
    ("template filter to truncate words", ["django/template/defaultfilters.py"]),
    ("URL resolver reverse with namespaces", ["django/urls/resolvers.py", "django/urls/base.py"]),
    ("session middleware saving cookie expiry", ["django/contrib/sessions/middleware.py"]),
    ("GZip compress responses middleware", ["django/middleware/gzip.py"]),
    ("parse HTTP multipart form uploads", ["django/http/multipartparser.py"]),
    ("feed generator for RSS and Atom", ["django/utils/feedgenerator.py"]),
    ("humanize natural time filter", ["django/contrib/humanize/templatetags/humanize.py"]),
]

ROUND_TRIPS = 200
CONTEXT_QUERIES = 20


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def call(s: ClientSession, name: str, args: dict[str, Any]) -> dict[str, Any]:
    result = await s.call_tool(name, args)
    assert not result.isError, result.content
    assert result.structuredContent is not None
    return result.structuredContent


async def round_trips(data: Path) -> dict[str, float]:
    workspace = data.parent / f"{data.name}-workspace"
    (workspace / "bench").mkdir(parents=True, exist_ok=True)
    settings = Settings(
        data_dir=data, embedder="none", processor_workers=0, workspace_root=workspace
    )
    async with EmbeddedApp(settings, watch=False) as app:
        await app.start(resume=False)
        # memory belongs to a registered repository (registered, never walked)
        await app.service.ensure_repo(str(workspace / "bench"), "bench", launch=False)
        async with create_connected_server_and_client_session(app.mcp_server()) as s:
            trips: list[float] = []
            writes: list[float] = []
            for i in range(ROUND_TRIPS):
                started = time.perf_counter()
                made = await call(
                    s,
                    "repocontext_remember",
                    {
                        "repoId": "bench",
                        "topic": "notes",
                        "id": f"n{i % 50}",
                        "body": f"note {i}",
                        "tags": [f"t{i % 7}"],
                    },
                )
                writes.append(time.perf_counter() - started)
                got = await call(s, "repocontext_recall", {"key": made["key"]})
                trips.append(time.perf_counter() - started)
                assert got["fields"]["body"] == f"note {i}"
    ms = 1000.0
    return {
        "remember_p50_ms": statistics.median(writes) * ms,
        "remember_p99_ms": pct(writes, 0.99) * ms,
        "round_trip_p50_ms": statistics.median(trips) * ms,
        "round_trip_p99_ms": pct(trips, 0.99) * ms,
    }


async def context_measures(corpus: Path, data: Path) -> dict[str, Any]:
    settings = Settings(data_dir=data, embedder="none", workspace_root=corpus.parent)
    out: dict[str, Any] = {}
    async with EmbeddedApp(settings, watch=False) as app:
        await app.start(resume=False)
        await app.service.ensure_repo(str(corpus), "django")
        while (await app.service.index_status(RepoIdArgs(repoId="django"))).status != "Completed":
            await asyncio.sleep(0.2)
        assert await app.runtime.wait_idle(600)
        async with create_connected_server_and_client_session(app.mcp_server()) as s:
            tasks = [task for task, _ in DEV_SET]
            for budget in (2048, 8192, 32768):
                lat: list[float] = []
                for i in range(CONTEXT_QUERIES):
                    started = time.perf_counter()
                    await call(
                        s,
                        "repocontext_context",
                        {
                            "repoId": "django",
                            "task": tasks[i % len(tasks)],
                            "responseBudgetTokens": budget,
                        },
                    )
                    lat.append(time.perf_counter() - started)
                out[f"context_{budget}_p50_ms"] = statistics.median(lat) * 1000
                out[f"context_{budget}_p95_ms"] = pct(lat, 0.95) * 1000
            found = total = 0
            in_top = 0
            for task, relevant in DEV_SET:
                result = await call(
                    s,
                    "repocontext_context",
                    {"repoId": "django", "task": task, "responseBudgetTokens": 8192},
                )
                hits = await call(s, "repocontext_search", {"repoId": "django", "query": task})
                ranked = [h["entry"]["path"] for h in hits["hits"]]
                delivered = {
                    e["path"]
                    for e in result["entries"]
                    if e["content"] != e["path"] and result["detail"] == "slices"
                }
                for path in relevant:
                    total += 1
                    found += path in delivered
                    in_top += path in ranked
            out["file_recall_at_8192"] = found / total
            out["search_recall_at_10"] = in_top / total
            out["dev_set_files"] = total
    return out


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", default="/tmp/Django-5.1.4")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        result = await round_trips(Path(tmp) / "rt")
        corpus = Path(args.corpus)
        if corpus.is_dir():
            result.update(await context_measures(corpus, Path(tmp) / "ctx"))
    print(
        json.dumps(
            {k: round(v, 3) if isinstance(v, float) else v for k, v in result.items()}, indent=2
        )
    )


if __name__ == "__main__":
    asyncio.run(main())
