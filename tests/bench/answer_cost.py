"""What a search answer costs after the search, on a large repository (issue 25 item 1):

    python -m tests.bench.answer_cost [--queries 200] [--data-dir DIR]

Opens spring-framework as `tests.bench.search_latency` does (its cached data directory; give a
copy when a server may hold that one), runs the localisation change requests as searches
(k=10) once, then times in this thread, per answer, what the MCP server does with it:

- `render`: the pruned JSON and the text (query_api/answers/render.py);
- `redaction`: the check and, for an answer holding `@`, `=` or `earer`, the redacted copies
  (query_api/server/mcp_server.py `invoke`; code snippets make that nearly every answer);
- `result`: the CallToolResult built of them;
- `wire`: the JSON-RPC response the SDK writes of it (`model_dump` into a JSONRPCResponse,
  then `model_dump_json`).

Issue 25's profile asked whether serialisation, validation or rendering of our own answers
is where a call's CPU goes beyond the search; this says how much of it they are.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import mcp.types as types

from query_api.answers.render import render
from schemas.tools import SearchArgs
from streams.redact import redact, redact_values
from tests.bench.localisation.cases import CASES_FILE, read_cases
from tests.bench.localisation.checkout import DEFAULT_CACHE, materialise
from tests.bench.localisation.repos import DEFAULT_MIRRORS, require_mirror
from tests.bench.localisation.system import RepocontextSystem
from tests.bench.search_latency import PIN, pct


def redaction(payload: dict[str, Any], text: str) -> tuple[dict[str, Any], str]:
    """As `invoke` redacts a result."""
    dumped = json.dumps(payload, ensure_ascii=False)
    if any(mark in text or mark in dumped for mark in ("@", "=", "earer")):
        return redact_values(payload), redact(text)
    return payload, text


def result_of(payload: dict[str, Any], text: str) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)], structuredContent=payload
    )


def wire(answer: types.CallToolResult) -> str:
    result = answer.model_dump(by_alias=True, mode="json", exclude_none=True)
    message = types.JSONRPCResponse(jsonrpc="2.0", id=1, result=result)
    return message.model_dump_json(by_alias=True, exclude_none=True)


def timed(spent: list[float], call: Callable[..., Any], *args: Any) -> Any:
    began = time.thread_time()
    value = call(*args)
    spent.append((time.thread_time() - began) * 1000)
    return value


async def measure(corpus: Path, data_dir: Path, queries: list[str]) -> None:
    system = await RepocontextSystem.open(corpus, data_dir)
    try:
        service = system.app.service
        answers = [
            await service.search(SearchArgs(repoId=system.repo_id, query=query, k=10))
            for query in queries
        ]
    finally:
        await system.close()
    spent: dict[str, list[float]] = {k: [] for k in ("render", "redaction", "result", "wire")}
    for _ in range(3):
        for answer in answers:
            payload, text = timed(spent["render"], render, answer)
            payload, text = timed(spent["redaction"], redaction, payload, text)
            result = timed(spent["result"], result_of, payload, text)
            timed(spent["wire"], wire, result)
    sizes = [len(wire(result_of(*render(a)))) for a in answers]
    print(f"{len(answers)} answers over {corpus.name}, k=10, median {statistics.median(sizes)} B")
    print("| step (thread CPU) | p50 ms | mean ms | p95 ms |\n|---|---|---|---|")
    for name, values in spent.items():
        cells = f"{pct(values, 0.5):.3f} | {statistics.mean(values):.3f} | {pct(values, 0.95):.3f}"
        print(f"| {name} | {cells} |")
    total = sum(statistics.mean(v) for v in spent.values())
    print(f"all four, mean: {total:.2f} ms a call")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--mirrors", type=Path, default=DEFAULT_MIRRORS)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--data-dir", type=Path, help="default: search_latency's cache")
    args = parser.parse_args()
    name = f"{PIN.slug}-{PIN.commit[:12]}"
    target = args.cache / "checkouts" / name / "spring-framework"
    corpus = materialise(require_mirror(PIN, args.mirrors), PIN.commit, target)
    data = args.data_dir or args.cache / "systems" / "latency" / name
    queries = [case.query[:4096] for case in read_cases(CASES_FILE)][: args.queries]
    asyncio.run(measure(corpus, data, queries))


if __name__ == "__main__":
    main()
