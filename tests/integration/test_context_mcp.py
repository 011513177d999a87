"""repocontext_context and repocontext_stats over the real MCP client (spec §3.7): the wire
cost never exceeds the budget and `responseTokens` is that cost, detail levels, reuse through
seen/known/session, and the usage the stats tool reports."""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession
from mcp.shared.memory import create_connected_server_and_client_session

from processors.tokens import count_tokens
from query_api.context.receipts import parse_known
from repocontext.app import EmbeddedApp
from tests.conftest import write_sample_repo
from tests.integration.mcp_helpers import call, call_error
from tests.integration.memory_rig import memory_rig, rig_settings

pytestmark = pytest.mark.anyio
TASK = "post an entry to the ledger and compute the invoice total"


async def context_wire(s: ClientSession, args: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """The structured result and the exact token cost of the JSON-RPC response on the wire."""
    result = await s.call_tool("repocontext_context", args)
    assert not result.isError, result.content
    assert result.structuredContent is not None
    message = {
        "jsonrpc": "2.0",
        "id": 1,
        "result": result.model_dump(mode="json", by_alias=True, exclude_none=True),
    }
    wire = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
    return result.structuredContent, count_tokens(wire)


@pytest.mark.slow  # generated budgets, each a bundle
async def test_budget_property_and_response_tokens_are_the_wire(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True) as (_, s):
        rng = random.Random(20261130)
        budgets = [1, 8, 32, 200, 10000, *sorted(rng.randint(1, 10000) for _ in range(35))]
        packed_any = False
        for budget in budgets:
            result, wire = await context_wire(
                s, {"repoId": "repo", "task": TASK, "responseBudgetTokens": budget}
            )
            assert result["budgetTokens"] == budget and result["detail"] != "auto"
            assert result["totalTokens"] == sum(
                count_tokens(e["content"]) for e in result["entries"]
            )
            assert result["responseTokens"] <= budget, (budget, result["responseTokens"])
            if result["entries"]:
                packed_any = True
                assert wire <= budget, (budget, wire, result["detail"])
                assert result["responseTokens"] == wire  # what was sent, counted exactly
            else:
                # nothing packed, nothing charged (the reserve comes with the first entry)
                assert result["responseTokens"] == 0 and result["truncated"], result
                retry = result["retryBudgetTokens"]
                assert retry is not None and retry > budget, (budget, result)
                again, wire2 = await context_wire(
                    s, {"repoId": "repo", "task": TASK, "responseBudgetTokens": retry}
                )
                assert again["entries"] and wire2 <= retry  # guaranteed to fit
                assert again["responseTokens"] <= retry
        assert packed_any


async def test_detail_levels_and_reuse(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True) as (_, s):
        base = {"repoId": "repo", "task": TASK, "responseBudgetTokens": 20_000}
        paths = await call(s, "repocontext_context", {**base, "detail": "paths"})
        assert paths["detail"] == "paths" and paths["mode"] == "keyword"
        assert all(e["content"] == e["path"] for e in paths["entries"])
        assert all(u["kind"] == "pointer" for e in paths["entries"] for u in e["units"])
        outline = await call(s, "repocontext_context", {**base, "detail": "outline"})
        invoice = next(e for e in outline["entries"] if e["path"].endswith("invoice.py"))
        assert invoice["units"][0]["symbol"].endswith("InvoiceCalculator")
        assert len(invoice["content"].split("\n")) == len(invoice["units"])
        # each declaration's line, which the agent reads it at (QA on mswjs/msw)
        assert invoice["content"].startswith("1: class InvoiceCalculator"), invoice["content"]
        slices = await call(s, "repocontext_context", {**base, "detail": "weird"})
        assert slices["detail"] == "slices"  # unknown -> auto -> slices when one fits
        assert slices["note"] == (
            "detail 'weird' is none of paths, outline, slices, auto: packed as auto"
        )
        assert "note" not in paths and "note" not in outline
        entry = next(e for e in slices["entries"] if e["path"].endswith("ledger.py"))
        assert entry["content"].startswith("def post_entry") and "startLine" not in entry  # whole
        # the SHA-256's first 16 hex digits: the full 64 cost a whole file ~40 tokens
        full_hash = __import__("hashlib").sha256(entry["content"].encode()).hexdigest()
        assert entry["contentHash"] == full_hash[:16]
        again = await call(s, "repocontext_context", {**base, "detail": "slices"})
        assert again["entries"] == slices["entries"] and "note" not in again  # deterministic

        # seen receipts suppress exactly those units, acknowledged in `reused`
        receipt = entry["units"][0]["receipt"]
        seen = await call(s, "repocontext_context", {**base, "detail": "slices", "seen": [receipt]})
        assert entry["path"] not in [e["path"] for e in seen["entries"]]
        assert {"path": entry["path"], "kind": "span", "receipt": receipt}.items() <= next(
            r for r in seen["reused"] if r["path"] == entry["path"]
        ).items()

        # known path@hash is honoured only with a session that received the whole body
        known = [f"{entry['path']}@{entry['contentHash']}"]
        nosession = await call(s, "repocontext_context", {**base, "known": known})
        assert entry["path"] in [e["path"] for e in nosession["entries"]]
        # ... and says so: the caller would otherwise pay for a file it holds without a word
        assert nosession["note"].startswith("1 of 1 known claim not honoured: a claim counts")
        await call(s, "repocontext_context", {**base, "detail": "outline", "session": "s1"})
        partial = await call(s, "repocontext_context", {**base, "known": known, "session": "s1"})
        assert entry["path"] in [e["path"] for e in partial["entries"]]  # outline != possession
        sliced = await call(s, "repocontext_context", {**base, "session": "s2"})
        assert sliced["session"] == "s2" and sliced["detail"] == "slices"
        reuse = await call(s, "repocontext_context", {**base, "known": known, "session": "s2"})
        assert entry["path"] not in [e["path"] for e in reuse["entries"]]
        ack = next(r for r in reuse["reused"] if r["path"] == entry["path"])
        assert ack["kind"] == "file" and ack["contentHash"] == entry["contentHash"]
        assert "not honoured" not in reuse.get("note", "")
        # a claim may name the full SHA-256 a caller computes from the file it holds
        claimed = parse_known([f"{entry['path']}@{full_hash}", *known])
        assert claimed == {(entry["path"], entry["contentHash"])}
        odd = await call(s, "repocontext_context", {**base, "known": ["a@zz"], "session": "s2"})
        assert "1 known claim not of the form path@<contentHash> ignored" in odd["note"]
        # a search hit's digest is named for what it is not (QA on hyperium/hyper)
        assert "not a search hit's digest" in odd["note"], odd
        # QA on unjs/ofetch: a malformed receipt was ignored without a word
        receipt = entry["units"][0]["receipt"]
        bad = await call(s, "repocontext_context", {**base, "seen": ["not a receipt", receipt]})
        assert "1 seen receipt not of the form <16 hex digits> ignored" in bad["note"], bad
        good = await call(s, "repocontext_context", {**base, "seen": [receipt]})
        assert "seen receipts" not in good.get("note", ""), good

        assert parse_known(["no-at-sign", "a@zz", "x@" + "A" * 64]) == set()  # fails closed
        text = await call_error(s, "repocontext_context", {"repoId": "nope", "task": "x"})
        assert "unknown repository" in text


async def test_a_session_remembers_what_it_was_sent(tmp_path: Path) -> None:
    """A call repeated in one session, with no `seen` or `known`, sends nothing it sent
    before and acknowledges each such unit in `reused`; another session gets it all again."""
    base = {"repoId": "repo", "task": TASK, "responseBudgetTokens": 20_000}
    async with memory_rig(tmp_path, index=True) as (_, s):
        for detail in ("slices", "outline"):
            args = {**base, "detail": detail, "session": f"a-{detail}"}
            first = await call(s, "repocontext_context", args)
            sent = {(e["path"], u["receipt"]) for e in first["entries"] for u in e["units"]}
            assert sent and "reused" not in first
            again = await call(s, "repocontext_context", args)
            assert again["detail"] == detail  # not a coarser level of what it already has
            acked = {(r["path"], r.get("receipt")) for r in again.get("reused", [])}
            # a file whose every one of several units was sent is acknowledged once, whole
            whole = {e["path"] for e in first["entries"] if len(e["units"]) > 1}
            assert acked == {(p, None if p in whole else r) for p, r in sent}, (detail, again)
            kinds = {"slices": {"span", "pointer"}, "outline": {"outline", "pointer"}}[detail]
            assert {r["kind"] for r in again["reused"]} <= kinds
            resent = {(e["path"], u["receipt"]) for e in again["entries"] for u in e["units"]}
            assert not resent & sent
            other = await call(s, "repocontext_context", {**args, "session": f"b-{detail}"})
            assert other["entries"] == first["entries"] and "reused" not in other


async def test_stats_window(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True) as (_, s):
        empty = await call(s, "repocontext_stats", {})
        assert empty == {
            "calls": 0,
            "responseTokens": 0,
            "readsReplacedTokens": 0,
            "netSavedTokens": 0,
            "windowSeconds": 3600,
        }
        a = await call(
            s, "repocontext_context", {"repoId": "repo", "task": TASK, "detail": "paths"}
        )
        b = await call(
            s, "repocontext_context", {"repoId": "repo", "task": TASK, "detail": "slices"}
        )
        stats = await call(s, "repocontext_stats", {})
        # a file sent whole replaces its full read; a span, the code it carries
        replaced = sum(
            e["fullReadTokenCount"] if "contentHash" in e else e["tokenCount"]
            for e in b["entries"]
            if any(u["kind"] == "span" for u in e["units"])
        )
        assert stats["calls"] == 2
        assert stats["responseTokens"] == a["responseTokens"] + b["responseTokens"]
        assert stats["readsReplacedTokens"] == replaced  # only slices deliveries count
        assert stats["netSavedTokens"] == replaced - stats["responseTokens"]


async def test_large_files_are_sliced_into_the_spans_that_matter(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True) as (app, s):
        root = app.settings.workspace_root
        assert root is not None
        funcs = [f"def helper_{i}(x):\n    return x + {i}\n\n" for i in range(400)]
        funcs.insert(200, "def reconcile_payouts(batch):\n    total = 0\n    return total\n\n")
        (root / "repo" / "src" / "big.py").write_text("".join(funcs))
        await call(s, "repocontext_refresh", {"repoId": "repo", "paths": ["src/big.py"]})
        result = await call(
            s,
            "repocontext_context",
            {
                "repoId": "repo",
                "task": "reconcile payouts",
                "detail": "slices",
                "responseBudgetTokens": 4000,
            },
        )
        big = next(e for e in result["entries"] if e["path"] == "src/big.py")
        # the declaration the task names, grown with the code around it to the file's share
        # of the budget (a 4,000-token answer covers fewer files, each with more of its code)
        assert big["fullReadTokenCount"] > 1500 and big["tokenCount"] < big["fullReadTokenCount"]
        assert "contentHash" not in big  # a sliced entry: its receipts say what it sent
        [unit] = big["units"]
        # named as the file declares it (its path is the entry's), and not again in reasons
        assert unit["kind"] == "span" and unit["symbol"] == "reconcile_payouts"
        assert not [r for r in big["reasons"] if r.endswith("reconcile_payouts")], big["reasons"]
        lines = big["content"].split("\n")
        assert "def reconcile_payouts(batch):" in lines
        # one span: its lines are the entry's (a unit names its own only among several)
        assert "startLine" not in unit and big["endLine"] - big["startLine"] + 1 == len(lines)


async def test_an_overloads_span_is_named_as_its_code_names_it(tmp_path: Path) -> None:
    """A span of one of several `@overload`s is named by its function's name, not by the fq
    name the symbol views tell the overloads apart with (`settle(int|None,str|None,...)#2`):
    the span's lines show which one it is. Reasons name it alike, each once."""
    async with memory_rig(tmp_path, index=True) as (app, s):
        root = app.settings.workspace_root
        assert root is not None
        params = "amount: int | None = None, currency: str | None = None, memo: str = ''"
        head = ["import typing as t\n\n"]
        head += [f"@t.overload\ndef settle_refund({params}) -> int: ...\n\n" for _ in range(2)]
        head.append(f"def settle_refund({params}) -> int:\n    return amount or 0\n\n")
        filler = [f"def helper_{i}(x):\n    return x + {i}\n\n" for i in range(400)]
        (root / "repo" / "src" / "refunds.py").write_text("".join(head + filler))
        await call(s, "repocontext_refresh", {"repoId": "repo", "paths": ["src/refunds.py"]})
        args = {"repoId": "repo", "task": "settle refund", "responseBudgetTokens": 4000}
        result = await call(s, "repocontext_context", {**args, "detail": "slices"})
        entry = next(e for e in result["entries"] if e["path"] == "src/refunds.py")
        assert entry["tokenCount"] < entry["fullReadTokenCount"], "the file is sliced"
        names = [u.get("symbol") for u in entry["units"]]
        assert "settle_refund" in names, names
        assert not [n for n in names if n and ("(" in n or "#" in n)], names
        # and so do the reasons, in the bundle and in search
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": "settle refund"})
        [hit] = [h for h in found["hits"] if h["entry"]["path"] == "src/refunds.py"]
        for reasons in (entry["reasons"], hit["reasons"]):
            assert not [r for r in reasons if "(" in r or "#" in r], reasons
            assert len(reasons) == len(set(reasons)), reasons


async def test_the_retry_budget_is_the_least_that_packs(tmp_path: Path) -> None:
    """Nothing fits: `retryBudgetTokens` is the least budget at which the answer packs, grown
    only by the freshness fields' worst case, not the top file's spans as rendered at any
    budget (a share cuts them: 1,800-2,400 tokens offered where 255-355 packed on zod)."""
    async with memory_rig(tmp_path, index=True) as (app, s):
        root = app.settings.workspace_root
        assert root is not None
        funcs = [f"def reconcile_step_{i}(batch):\n    return batch + {i}\n\n" for i in range(400)]
        (root / "repo" / "src" / "big.py").write_text("".join(funcs))
        await call(s, "repocontext_refresh", {"repoId": "repo", "paths": ["src/big.py"]})
        base = {"repoId": "repo", "task": "reconcile payouts batch", "detail": "slices"}

        async def packs(budget: int) -> bool:
            got = await call(s, "repocontext_context", {**base, "responseBudgetTokens": budget})
            return bool(got["entries"])

        tiny = await call(s, "repocontext_context", {**base, "responseBudgetTokens": 40})
        assert not tiny["entries"]
        retry = tiny["retryBudgetTokens"]
        assert await packs(retry)  # still guaranteed to fit
        low, least = 40, retry
        while low + 1 < least:
            middle = (low + least) // 2
            low, least = (low, middle) if await packs(middle) else (middle, least)
        # the margin is `freshness` grown to its worst (receipts.worst_freshness), both blocks
        assert retry - least <= 100, (retry, least)


async def test_a_large_budget_fills_with_whole_files_and_the_next_ones(tmp_path: Path) -> None:
    """At 200,000 tokens the bundle sends large files whole and goes on to the ranking's next
    files past the default `top` of 10, up to the budget; an explicit `top` caps the files."""
    async with memory_rig(tmp_path, index=True) as (app, s):
        root = app.settings.workspace_root
        assert root is not None
        big = [f"def settle_refund_{i}(x):\n    return x + {i}\n\n" for i in range(400)]
        (root / "repo" / "src" / "refunds.py").write_text("".join(big))
        paths = ["src/refunds.py"]
        for i in range(14):
            body = [
                f"def settle_refund_batch_{i}_{j}(batch):\n    return sum(batch) - {j}\n"
                for j in range(30)
            ]
            (root / "repo" / "src" / f"refund_batch_{i}.py").write_text("".join(body))
            paths.append(f"src/refund_batch_{i}.py")
        await call(s, "repocontext_refresh", {"repoId": "repo", "paths": paths})
        task = {"repoId": "repo", "task": "settle refund batch"}
        large, wire = await context_wire(s, {**task, "responseBudgetTokens": 200_000})
        got = {e["path"]: e for e in large["entries"]}
        assert set(paths) <= set(got) and len(got) > 10, sorted(got)
        assert got["src/refunds.py"]["fullReadTokenCount"] > 1500  # sliced at small budgets
        assert all(e["tokenCount"] == e["fullReadTokenCount"] for e in got.values())
        assert not large["truncated"] and wire <= 200_000
        capped = await call(
            s, "repocontext_context", {**task, "top": 3, "responseBudgetTokens": 200_000}
        )
        assert len(capped["entries"]) == 3
        assert [e["path"] for e in capped["entries"]] == [e["path"] for e in large["entries"][:3]]


async def test_cl100k_base_is_selectable(tmp_path: Path) -> None:
    """REPOCONTEXT_TOKEN_ENCODING=cl100k_base: outline and bundle counts are exact cl100k BPE
    and the wire cost, measured in cl100k, stays within the budget."""
    body = "GREETING = '日本語のテキスト, émojis 🎉🎉'  # ledger invoice\n"
    write_sample_repo(tmp_path / "ws" / "repo")
    (tmp_path / "ws" / "repo" / "src" / "i18n.py").write_text(body)
    async with memory_rig(tmp_path, index=True, token_encoding="cl100k_base") as (_, s):
        got = await call(s, "repocontext_outline", {"repoId": "repo", "path": "src/i18n.py"})
        assert got["fullReadTokenCount"] == count_tokens(body, "cl100k_base")
        assert count_tokens(body, "cl100k_base") != count_tokens(body)  # the choice matters
        for budget in (1500, 3000, 8192):
            args = {"repoId": "repo", "task": TASK, "responseBudgetTokens": budget}
            result = await s.call_tool("repocontext_context", args)
            content = result.structuredContent
            assert content is not None and content["entries"]
            assert content["totalTokens"] == sum(
                count_tokens(e["content"], "cl100k_base") for e in content["entries"]
            )
            message = {"jsonrpc": "2.0", "id": 1, "result": result.model_dump(mode="json")}
            wire = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
            assert content["responseTokens"] <= budget
            assert count_tokens(wire, "cl100k_base") <= budget


async def test_session_possession_survives_a_restart(tmp_path: Path) -> None:
    base = {"repoId": "repo", "task": TASK, "responseBudgetTokens": 20_000}
    async with memory_rig(tmp_path, index=True) as (_, s):
        first = await call(s, "repocontext_context", {**base, "session": "agent-1"})
        assert first["detail"] == "slices"
        ledger = next(e for e in first["entries"] if e["path"].endswith("ledger.py"))
    known = [f"{ledger['path']}@{ledger['contentHash']}"]
    async with memory_rig(tmp_path, index=True) as (app, s):  # a new server, same data dir
        again = await call(s, "repocontext_context", {**base, "known": known, "session": "agent-1"})
        assert ledger["path"] not in [e["path"] for e in again["entries"]]
        ack = next(r for r in again["reused"] if r["path"] == ledger["path"])
        assert ack["kind"] == "file"
        other = await call(s, "repocontext_context", {**base, "known": known, "session": "x"})
        assert ledger["path"] in [e["path"] for e in other["entries"]]  # not that session's
        sessions = app.services.bundle.sessions
        assert sessions.get("repo", "agent-1", time.time()).possessions
        await call(s, "repocontext_remove_repo", {"repoId": "repo"})  # sessions go with it
        assert not sessions.get("repo", "agent-1", time.time()).possessions


async def test_a_session_is_not_sent_a_declaration_again_at_another_budget(
    tmp_path: Path,
) -> None:
    """Spans are cut afresh for each call's share of the budget, so their lines move; a
    span's receipt names its declaration, and a session that holds a declaration's code (or
    the whole file) is not sent it again however the next call cuts the file."""
    async with memory_rig(tmp_path, index=True) as (app, s):
        root = app.settings.workspace_root
        assert root is not None
        funcs = [f"def helper_{i}(x):\n    return x + {i}\n\n" for i in range(300)]
        for n, at in enumerate((60, 150, 240)):
            funcs.insert(at, f"def reconcile_payouts_{n}(batch):\n    return sum(batch)\n\n")
        (root / "repo" / "src" / "big.py").write_text("".join(funcs))
        await call(s, "repocontext_refresh", {"repoId": "repo", "paths": ["src/big.py"]})
        task = {"repoId": "repo", "task": "reconcile payouts", "session": "cut"}
        sent: set[tuple[str, str]] = set()
        for budget in (2000, 4000, 8192):
            got = await call(s, "repocontext_context", {**task, "responseBudgetTokens": budget})
            units = {(e["path"], u.get("symbol")) for e in got["entries"] for u in e["units"]}
            named = {unit for unit in units if unit[1] is not None}
            assert not named & sent, (budget, named & sent)
            sent |= named
        assert any(path == "src/big.py" for path, _ in sent)
        whole = {**task, "session": "whole"}
        first = await call(s, "repocontext_context", {**whole, "responseBudgetTokens": 200_000})
        big = next(e for e in first["entries"] if e["path"] == "src/big.py")
        assert big["contentHash"] and [u["kind"] for u in big["units"]] == ["span"]
        again = await call(s, "repocontext_context", {**whole, "responseBudgetTokens": 2000})
        assert all(e["path"] != "src/big.py" for e in again["entries"])
        assert {"path": "src/big.py", "kind": "file", "contentHash": big["contentHash"]} in again[
            "reused"
        ]


async def test_credentials_are_redacted_before_the_answer_is_counted(tmp_path: Path) -> None:
    """A body holding a URL with credentials is sent redacted, its token counts are those
    of what is sent, and since that is not the stored body it names no contentHash (a
    `known` claim could not name bytes the caller never received)."""
    async with memory_rig(tmp_path, index=True) as (app, s):
        root = app.settings.workspace_root
        assert root is not None
        body = 'MIRROR_URL = "https://deploy:hunter2secret@mirror.example.com/repo.git"\n'
        (root / "repo" / "src" / "mirror.py").write_text(body * 3)
        await call(s, "repocontext_refresh", {"repoId": "repo", "paths": ["src/mirror.py"]})
        args = {"repoId": "repo", "task": "mirror url", "session": "redacted"}
        result, wire = await context_wire(s, args)
        entry = next(e for e in result["entries"] if e["path"] == "src/mirror.py")
        assert "hunter2secret" not in json.dumps(result) and "***@mirror" in entry["content"]
        assert result["responseTokens"] == wire
        assert entry["tokenCount"] == count_tokens(entry["content"])
        assert "contentHash" not in entry


async def test_an_answer_reads_a_large_files_declarations_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A generated module declares more names than the views' shared cache keeps per file;
    the plan renders it several times (spans, units, shares), and each render read and
    decoded all of them again (29 reads of three 30,000-name modules: 10 s for one bundle).
    One answer reads each file's declarations once."""
    from streams.stores.views.symbols import SymbolViews

    reads: list[str] = []
    of_file = SymbolViews.symbols_of_file

    def counted(self: SymbolViews, repo_id: str, path: str) -> Any:
        if threading.current_thread().name != "file-graph":  # the graph's rebuild reads too
            reads.append(path)
        return of_file(self, repo_id, path)

    async with memory_rig(tmp_path, index=True) as (app, s):
        root = app.settings.workspace_root
        assert root is not None
        funcs = "".join(f"def get_field_{i}(msg):\n    return msg.field_{i}\n" for i in range(6000))
        (root / "repo" / "src" / "fields_pb2.py").write_text(funcs)
        await call(s, "repocontext_refresh", {"repoId": "repo", "paths": ["src/fields_pb2.py"]})
        monkeypatch.setattr(SymbolViews, "symbols_of_file", counted)
        result = await call(
            s, "repocontext_context", {"repoId": "repo", "task": "rename get_field_4000"}
        )
        assert any(e["path"] == "src/fields_pb2.py" for e in result["entries"])
        assert reads.count("src/fields_pb2.py") == 1, reads


async def test_a_repository_registered_but_not_yet_in_the_views_is_not_unknown(
    tmp_path: Path,
) -> None:
    """Right after add_repo the views hold nothing of a repository yet; search answered that
    it was being built while context said "unknown repository" (a QA pass). The pipeline is
    not started, so the views cannot apply the registration before the call (with it
    running, they sometimes had: a race in the test, not in the service)."""
    settings = rig_settings(tmp_path)
    async with EmbeddedApp(settings, watch=False) as app:
        assert settings.workspace_root is not None
        (settings.workspace_root / "fresh").mkdir()
        await app.service.ensure_repo(str(settings.workspace_root / "fresh"), "fresh", launch=False)
        assert app.views.get_repo("fresh") is None  # registered, nothing applied yet
        async with create_connected_server_and_client_session(app.mcp_server()) as s:
            task = {"repoId": "fresh", "task": "router"}
            result = await call(s, "repocontext_context", task)
            assert result["entries"] == [] and result["repoId"] == "fresh"
            missing = await call_error(s, "repocontext_context", {**task, "repoId": "nowhere"})
            assert "unknown repository 'nowhere'" in missing


async def test_a_task_nothing_matches_says_so(tmp_path: Path) -> None:
    async with memory_rig(tmp_path, index=True) as (_, s):
        task = {"repoId": "repo", "task": "zebraquokka walrusnarwhal"}
        result = await s.call_tool("repocontext_context", task)
        answer = result.structuredContent
        assert answer is not None and answer["entries"] == [] and answer["responseTokens"] == 0
        assert answer["note"].startswith("no file or memory entry in 'repo' contains"), answer
        assert answer["note"] in result.content[0].text  # type: ignore[union-attr]


async def test_acknowledgements_are_counted_and_bounded(tmp_path: Path) -> None:
    """A session sent many files and asking again at a small budget: each acknowledgement is
    on the wire and counted in `responseTokens`, which stays the answer's exact cost within
    the budget; those past a quarter of it are left out and the note counts them."""
    repo = tmp_path / "ws" / "repo"
    repo.mkdir(parents=True)
    write_sample_repo(repo)
    for i in range(40):
        # 60 lines: a later file must carry six times its envelope in code (plan.EFFICIENCY)
        body = "".join(f"    total += ledger.post(amount, {n})\n" for n in range(60))
        (repo / f"ledger_part_{i:02d}.py").write_text(
            f"def post_ledger_entry_{i}(ledger, amount):\n    total = 0\n{body}    return total\n"
        )
    task = "post a ledger entry"
    async with memory_rig(tmp_path, index=True) as (_, s):
        big = {"repoId": "repo", "task": task, "session": "many", "top": 50}
        first = await call(s, "repocontext_context", {**big, "responseBudgetTokens": 200_000})
        assert len(first["entries"]) >= 30
        for budget in (1, 200, 800, 2_100, 5_000):
            args = {**big, "responseBudgetTokens": budget, "detail": "paths"}
            again, wire = await context_wire(s, args)
            acks = again.get("reused", [])
            if again["entries"] or acks:
                assert again["responseTokens"] == wire <= budget, (budget, again)
            else:
                assert again["responseTokens"] == 0
            assert len(acks) < len(first["entries"])  # past the share: counted in the note
            assert "more acknowledgements of code this session holds" in again["note"]
        # everything asked was sent before: a paths answer of acknowledgements alone
        assert not again["entries"] and acks


async def test_seen_holds_receipts_only_not_a_session_possession(tmp_path: Path) -> None:
    """`seen` is unit receipts: a session's possession (`path NUL hash`) or span record
    (`path NUL hash NUL start NUL end`) written into it acknowledged the whole file without a
    session, which a `known` claim never does (spec §3.7: no session, nothing validates); a
    QA pass on ky had source/core/Ky.ts acknowledged as `kind: file` that way."""
    async with memory_rig(tmp_path, index=True) as (_, s):
        base = {"repoId": "repo", "task": TASK, "responseBudgetTokens": 20_000, "detail": "slices"}
        plain = await call(s, "repocontext_context", base)
        entry = next(e for e in plain["entries"] if e.get("contentHash"))
        path, digest = entry["path"], entry["contentHash"]
        forged = [f"{path}\x00{digest}", f"{path}\x00{digest}\x001\x00100000"]
        for session in (None, "fresh"):
            args = {**base, "seen": forged} | ({"session": session} if session else {})
            answer = await call(s, "repocontext_context", args)
            assert path in [e["path"] for e in answer["entries"]], (session, answer)
            assert not answer.get("reused"), answer


async def test_a_long_task_is_echoed_as_its_first_words(tmp_path: Path) -> None:
    """The answer echoes `task`: a 16,384-character one left 956 tokens of code of 8,192 (a
    QA pass on ky), and a change request's paragraph took a twentieth of a 2,000-token
    answer. A long task is echoed as its first words; its spans still follow all of it."""
    words = "reconcile the quarterly ledger entries and the invoice totals "
    long_task = (words * 260)[:16_000]
    async with memory_rig(tmp_path, index=True) as (_, s):
        got = await call(s, "repocontext_context", {"repoId": "repo", "task": long_task})
        assert got["task"].endswith(" …") and len(got["task"]) <= 102, got["task"]
        assert long_task.startswith(got["task"][: -len(" …")])
        assert got["responseTokens"] < count_tokens(long_task) and "echo" not in got.get("note", "")
        # the plan counts the first 2,000 characters of it: the code sent is that task's
        small = {"repoId": "repo", "responseBudgetTokens": 2600}
        got = await call(s, "repocontext_context", {**small, "task": long_task})
        head = await call(s, "repocontext_context", {**small, "task": long_task[:2000]})
        assert got["totalTokens"] == head["totalTokens"] > 0, got
        short = await call(s, "repocontext_context", {"repoId": "repo", "task": TASK})
        assert short["task"] == TASK
