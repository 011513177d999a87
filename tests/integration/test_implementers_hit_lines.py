"""`what implements X` points each implementing file's hit at the type declared implementing
X, not at its first use of X. QA on mswjs/msw: `what implements SetupWorker` pointed
setup-worker.ts at line 33, `function setupWorker(...): SetupWorker {`, a return type; the
class implementing it, `class SetupWorkerApi implements SetupWorker {`, is at line 126."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "src/glossary.ts": (
        "export interface SetupWorker {\n  start(): Promise<void>\n  stop(): void\n}\n"
    ),
    "src/setup-worker.ts": (
        "import type { SetupWorker } from './glossary'\n\n"
        "export function setupWorker(url: string): SetupWorker {\n"
        "  return new SetupWorkerApi(url)\n}\n\n"
        "export class SetupWorkerApi implements SetupWorker {\n"
        "  constructor(private url: string) {}\n\n"
        "  async start(): Promise<void> {}\n\n"
        "  stop(): void {}\n}\n"
    ),
}


async def test_an_implementer_points_at_its_implementing_type(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        query = "what implements SetupWorker"
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        hit = next(h for h in found["hits"] if h["entry"]["path"] == "src/setup-worker.ts")
        assert "uses:SetupWorker" in hit["reasons"], hit
        assert hit["snippet"].startswith("7: export class SetupWorkerApi implements"), hit
        assert hit["startLine"] == 7, hit
