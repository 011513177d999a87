"""Memory in search and context over the real MCP client: BM25 over live entries with the
reference's reasons, memory passages in the vector plane (`chunk:memory`, expiry evaluated,
expired/forgotten vectors retired), and memory linked to a file or symbol attached to that
code's search hits and bundle entries, charged to the bundle's budget."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession
from mcp.shared.memory import create_connected_server_and_client_session

from query_api.retrieval.vector_plane import VectorPlane
from tests.integration.mcp_helpers import call, wait_for
from tests.integration.memory_rig import memory_rig
from tests.integration.test_context_mcp import context_wire
from tests.vectors.fake_embedder import HashEmbedder

pytestmark = pytest.mark.anyio
INVOICE = "repo/repo/file/src/billing/invoice.py"


async def remember(s: ClientSession, topic: str, id_: str, **kw: Any) -> dict[str, Any]:
    return await call(
        s, "repocontext_remember", {"repoId": "repo", "topic": topic, "id": id_, **kw}
    )


async def search(s: ClientSession, query: str, k: int = 10) -> list[dict[str, Any]]:
    result = await call(s, "repocontext_search", {"repoId": "repo", "query": query, "k": k})
    return list(result["hits"])


def by_key(hits: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {h["entry"]["key"]: h for h in hits}


async def test_keyword_memory_hits_and_linked_memory(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True) as (app, s):
        # a declaration's key is the one scan lists (outline shows the name code imports)
        scanned = await call(s, "repocontext_scan", {"repoId": "repo", "scope": "symbols"})
        calc = next(
            x for x in scanned["entries"] if x["fullyQualifiedName"].endswith("InvoiceCalculator")
        )
        await remember(
            s,
            "gotchas",
            "rounding",
            title="Invoice rounding happens per line",
            body="Round each zanzibar line before summing.",
            tags=["billing-rules"],
            addLinks={"about": [INVOICE]},
        )
        await remember(
            s,
            "decisions",
            "calc",
            kind="Decision",
            body="Keep the calculator pure.\nSecond line.",
            addLinks={"about": [calc["key"]]},
        )
        # 3 s: long enough to be searched first on a loaded machine, short enough to wait out
        await remember(s, "scratch", "tmp", body="ephemeralword here", ttlSeconds=3)

        hits = by_key(await search(s, "zanzibar"))
        hit = hits["repo/repo/mem/gotchas/rounding"]
        assert hit["entry"]["kind"] == "Memory" and hit["entry"]["topic"] == "gotchas"
        assert hit["reasons"] == ["content-match"] and hit.get("vectorId") is None
        assert (
            hit["entry"].get("hasExpired") is None and hit["entry"].get("stale") is None
        )  # bulk read
        assert hit.get("linkedMemory") is None
        tagged = by_key(await search(s, "rules gotchas summing"))["repo/repo/mem/gotchas/rounding"]
        assert tagged["reasons"] == ["tag:billing-rules", "topic-match", "content-match"]
        keyed = by_key(await search(s, "calc"))["repo/repo/mem/decisions/calc"]
        assert keyed["reasons"] == ["key-match"]

        # the file hit carries the memory linked to it and to the symbol it declares
        code = by_key(await search(s, "InvoiceCalculator compute total ledger"))
        linked = code[INVOICE]["linkedMemory"]
        assert [m["key"] for m in linked] == [
            "repo/repo/mem/decisions/calc",
            "repo/repo/mem/gotchas/rounding",
        ]
        assert linked[0] == {
            "key": "repo/repo/mem/decisions/calc",
            "kind": "Decision",
            "topic": "decisions",
            "summary": "Keep the calculator pure.",
            "stale": False,
        }
        assert linked[1]["summary"] == "Invoice rounding happens per line"
        assert code["repo/repo/file/src/billing/ledger.py"].get("linkedMemory", []) == []

        # expired entries vanish from search at once; forgotten ones too (and their links)
        assert "repo/repo/mem/scratch/tmp" in by_key(await search(s, "ephemeralword"))

        async def expired() -> bool:
            return not await search(s, "ephemeralword")

        await wait_for(expired, 15, "the 3 s entry to drop out of search")
        await call(s, "repocontext_forget", {"key": "repo/repo/mem/gotchas/rounding"})
        assert not await search(s, "zanzibar")
        code = by_key(await search(s, "InvoiceCalculator compute total ledger"))
        assert [m["key"] for m in code[INVOICE]["linkedMemory"]] == ["repo/repo/mem/decisions/calc"]

        # a linked file that changed makes its linked memory stale
        root = app.settings.workspace_root
        assert root is not None
        (root / "repo" / "src" / "billing" / "invoice.py").write_text(
            "class InvoiceCalculator:\n    def compute_total(self, lines):\n        return 0\n"
        )
        await remember(s, "gotchas", "drift", title="Totals", addLinks={"about": [INVOICE]})
        await call(
            s, "repocontext_refresh", {"repoId": "repo", "paths": ["src/billing/invoice.py"]}
        )
        code = by_key(await search(s, "InvoiceCalculator compute total"))
        drift = next(m for m in code[INVOICE]["linkedMemory"] if m["key"].endswith("/drift"))
        assert drift["stale"] is True


async def test_an_entry_matching_every_query_word_outranks_files(tmp_path: Path) -> None:
    """With one memory entry its own BM25 table had N = df = 1, so FTS5's idf,
    ln((N - df + 0.5)/(df + 0.5)), was negative for each of its words and floored at 1e-6: the
    entry scored ~5e-6 and ranked below every file. Memory and files now share the
    reference's ln(1 + ...) idf over both, so an exact title hit ranks first."""
    async with memory_rig(tmp_path, index=True) as (_, s):
        await remember(
            s,
            "howto",
            "posting",
            title="Ledger entry posting checklist",
            body="Post each ledger entry once; reconcile quarterly.",
            tags=["ledger"],
        )
        for extra in range(3):  # unrelated entries change nothing
            hits = await search(s, "ledger entry posting checklist")
            assert hits[0]["entry"]["key"] == "repo/repo/mem/howto/posting", [
                (h["entry"]["key"], h["score"]) for h in hits
            ]
            assert hits[0]["reasons"] == ["tag:ledger", "content-match", "key-match"]
            files = [h for h in hits if h["entry"]["kind"] == "File"]
            assert files and 0 < files[0]["score"] < hits[0]["score"]
            await remember(s, "notes", f"other{extra}", title="unrelated note", body="nothing")


async def test_context_bundle_carries_linked_memory_within_budget(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True) as (_, s):
        for i in range(4):  # more than the 3 an entry carries
            await remember(
                s,
                "gotchas",
                f"g{i}",
                title=f"Ledger gotcha number {i} " + "with a longer summary " * 3,
                addLinks={"about": ["repo/repo/file/src/billing/ledger.py"]},
            )
        task = "post an entry to the ledger"
        big, _ = await context_wire(s, {"repoId": "repo", "task": task})
        ledger = next(e for e in big["entries"] if e["path"].endswith("ledger.py"))
        assert [m["key"][-2:] for m in ledger["linkedMemory"]] == ["g0", "g1", "g2"]
        assert all(m["summary"].startswith("Ledger gotcha") for m in ledger["linkedMemory"])
        others = [e for e in big["entries"] if not e["path"].endswith("ledger.py")]
        assert all(e.get("linkedMemory", []) == [] for e in others)
        packed = 0
        for budget in (1, 300, 600, 900, 1200, 1500, 2000, 3000, 5000):
            result, wire = await context_wire(
                s, {"repoId": "repo", "task": task, "responseBudgetTokens": budget}
            )
            if result["entries"]:
                packed += 1
                assert result["responseTokens"] == wire <= budget, (budget, wire)
        assert packed >= 5


async def test_memory_passages_in_the_vector_plane(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True) as (app, _):
        embedder = HashEmbedder()
        plane = VectorPlane(app.settings, app.log, app.views, embedder=embedder)
        app.service.plane, app.service.retriever = plane, plane.retriever  # what open() wires
        indexer, store = plane.indexer, plane.store
        assert indexer is not None and store is not None
        try:
            async with create_connected_server_and_client_session(app.mcp_server()) as s:
                await remember(
                    s,
                    "glossary",
                    "tenant",
                    title="Tenant",
                    body="A tenant owns many workspaces and pays one invoice monthly",
                )
                await remember(
                    s, "glossary", "brief", body="transient quokka wombat note", ttlSeconds=1
                )
                await indexer.run_until_idle()
                assert store.sources(repo_id="repo", kind="memory") == 2
                counts = plane.embedded_counts("repo")
                assert counts is not None and counts[2] == 2

                result = await call(
                    s,
                    "repocontext_search",
                    {"repoId": "repo", "query": "tenant owns workspaces pays monthly"},
                )
                assert result["mode"] == "semantic"
                hit = by_key(result["hits"])["repo/repo/mem/glossary/tenant"]
                assert hit["reasons"][:3] == ["semantic", "chunk:memory", "topic:glossary"]
                assert hit["vectorId"] is not None
                assert hit["entry"]["expires"] is False and hit["entry"]["hasExpired"] is False
                assert hit["entry"].get("stale") is None  # semantic hits: staleness not evaluated

                # expired since embedding: dropped at hydration, then retired by the sweep
                await wait_for(lambda: _expired(app, "brief"), 10, "the 1 s entry to expire")
                query = {"repoId": "repo", "query": "transient quokka wombat note"}
                found = await call(s, "repocontext_search", query)
                assert "repo/repo/mem/glossary/brief" not in by_key(found["hits"])
                assert await indexer.sweep_expired() == 1
                assert store.sources(repo_id="repo", kind="memory") == 1

                # forgotten: the memory arm retires its vectors
                await call(s, "repocontext_forget", {"key": "repo/repo/mem/glossary/tenant"})
                await indexer.run_until_idle()
                assert store.sources(repo_id="repo", kind="memory") == 0
        finally:
            plane.close()


async def _expired(app: Any, id_: str) -> bool:
    entry = app.services.memory.reader.memory.get(f"repo/repo/mem/glossary/{id_}")
    return bool(
        entry is not None and entry.expires_at is not None and entry.expires_at <= time.time()
    )


async def test_a_memory_hit_a_file_hit_above_carries_takes_no_slot(tmp_path: Path) -> None:
    """QA on encode/uvicorn: a note linked to proxy_headers.py, asked for with k=2, came back
    under the file's hit (linkedMemory) and again as the second hit: one of two slots spent on
    what the answer had already said. A memory hit a file or symbol hit ranked above it
    carries is left out, and the next hit takes its place."""
    async with memory_rig(tmp_path, index=True) as (_, s):
        await remember(
            s,
            "gotchas",
            "calc",
            title="InvoiceCalculator compute_total rounds per line",
            addLinks={"about": [INVOICE]},
        )
        hits = await search(s, "InvoiceCalculator compute_total", k=2)
        keys = [h["entry"]["key"] for h in hits]
        assert keys[0] == INVOICE, keys
        assert [m["key"] for m in hits[0]["linkedMemory"]] == ["repo/repo/mem/gotchas/calc"]
        assert "repo/repo/mem/gotchas/calc" not in keys, keys
        # where no hit above carries it, the note is a hit of its own
        alone = [h["entry"]["key"] for h in await search(s, "rounds per line")]
        assert "repo/repo/mem/gotchas/calc" in alone, alone
