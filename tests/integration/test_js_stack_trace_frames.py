"""A pasted JavaScript stack trace (V8's `at fn (path:line:col)` frames, Firefox's
`fn@path:line:col`) ranks the repository files its frames name first, the innermost (printed
first) first, and leaves out Node's own frames (`node:internal/...`). QA on mswjs/msw: a
browser error through `at getWorkerInstance (get-worker-instance.ts:88:11)` and then `at async
ServiceWorkerSource.enable (service-worker-source.ts:250:5)` ranked service-worker-source.ts,
the outer frame, above get-worker-instance.ts, which threw: the frames were read as places in
no order of their own."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.named_lines import v8_frames
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "src/browser/get-worker-instance.ts": (
        "export async function getWorkerInstance(url: string): Promise<ServiceWorker> {\n"
        "  const registration = await navigator.serviceWorker.register(url)\n"
        "  if (!registration.active) {\n"
        "    throw new Error('Failed to register the Service Worker')\n"
        "  }\n"
        "  return registration.active\n"
        "}\n"
    ),
    # the outer frame; its words are the error's, the register call, the worker's source
    "src/browser/service-worker-source.ts": (
        "import { getWorkerInstance } from './get-worker-instance'\n\n"
        "/** Failed to register the Service Worker: the service worker source's errors. */\n"
        "export class ServiceWorkerSource {\n"
        "  async enable(url: string): Promise<void> {\n"
        "    // register the Service Worker, failed to register: unsupported MIME type\n"
        "    await getWorkerInstance(url)\n"
        "  }\n"
        "}\n"
    ),
}
TRACE = """Uncaught (in promise) Error: Failed to register the Service Worker: unsupported MIME type
    at getWorkerInstance (http://localhost:5173/src/browser/get-worker-instance.ts?t=1700:4:11)
    at async ServiceWorkerSource.enable (service-worker-source.ts:7:5)
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)
"""


def test_the_frames_of_a_javascript_stack_trace() -> None:
    assert v8_frames(TRACE) == [
        ("src/browser/get-worker-instance.ts", 4),
        ("service-worker-source.ts", 7),
    ]
    node = (
        "TypeError: x is undefined\n"
        "    at Object.<anonymous> (/home/me/app/src/index.ts:3:9)\n"
        "    at new Server (file:///home/me/app/src/server.mjs:10:1)\n"
        "    at C:\\app\\src\\win.js:2:3\n"
        "    at webpack-internal:///./src/pack.js:5:7\n"
        "    at Module._compile (node:internal/modules/cjs/loader:1256:14)\n"
        "parse@http://localhost:3000/src/firefox.js:12:4\n"
    )
    assert v8_frames(node) == [
        ("/home/me/app/src/index.ts", 3),
        ("/home/me/app/src/server.mjs", 10),
        ("C:/app/src/win.js", 2),
        ("src/pack.js", 5),
        ("src/firefox.js", 12),
    ]
    assert v8_frames("see src/app.ts:12:5 and at least 3 of them") == []


async def test_a_javascript_trace_ranks_its_frames_files_innermost_first(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": TRACE})
        paths = [hit["entry"]["path"] for hit in found["hits"]]
        assert paths[:2] == [
            "src/browser/get-worker-instance.ts",
            "src/browser/service-worker-source.ts",
        ], paths
        lines = [(h["startLine"], h["endLine"]) for h in found["hits"][:2]]
        assert lines == [(4, 4), (7, 7)], lines
