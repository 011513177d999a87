"""A session is not sent the same lines twice: a span within one it was sent before (the same
version of the file) is acknowledged in `reused`, although the later call cuts it afresh.
A QA pass saw a second call in a session resend 115 of its 127 lines of koa's response.js
(lines 1-322, then 10-285 under a new receipt)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio


def payments_module() -> str:
    """A module too large to send whole and with no declaration the task names: the lines
    that share its words are sent as a window keyed by its lines, cut anew for each share."""
    lines = [f"SETTING_{i} = {i}  # ledger configuration value {i}" for i in range(400)]
    for i in range(190, 215):
        lines[i] = f"REFUND_RULES.append(('refund settlement window', {i}))"
    return "\n".join(lines) + "\n"


def lines_of(entry: dict[str, object]) -> list[tuple[int, int]]:
    units = entry.get("units") or []
    assert isinstance(units, list)
    if len(units) == 1:
        return [(int(entry["startLine"]), int(entry["endLine"]))]  # type: ignore[call-overload]
    return [(int(u["startLine"]), int(u["endLine"])) for u in units]


async def test_a_span_within_one_sent_before_is_acknowledged(tmp_path: Path) -> None:
    repo = tmp_path / "ws" / "repo"
    repo.mkdir(parents=True)
    (repo / "payments.py").write_text(payments_module())
    async with memory_rig(tmp_path, index=True) as (_, s):
        task = {"repoId": "repo", "task": "refund settlement window", "session": "S", "top": 1}
        first = await call(s, "repocontext_context", {**task, "responseBudgetTokens": 6000})
        sent = next(e for e in first["entries"] if e["path"] == "payments.py")
        assert sent["tokenCount"] < sent["fullReadTokenCount"]  # sliced, not whole
        again = await call(s, "repocontext_context", {**task, "responseBudgetTokens": 2500})
        resent = [e for e in again.get("entries", []) if e["path"] == "payments.py"]
        before = lines_of(sent)
        for entry in resent:  # whatever is sent again lies outside what was sent
            for start, end in lines_of(entry):
                assert not any(a <= start and end <= b for a, b in before), (before, entry)
        assert any(r["path"] == "payments.py" for r in again.get("reused", [])), again

        other = {**task, "session": "T", "responseBudgetTokens": 2500}  # a new session
        fresh = await call(s, "repocontext_context", other)
        assert any(e["path"] == "payments.py" for e in fresh["entries"])


async def test_a_file_whose_share_holds_only_held_lines_is_acknowledged(tmp_path: Path) -> None:
    """A QA pass on koa: a second identical call in a session sent new files and
    acknowledged four of the five it had sent, but lib/context.js (sent as lines 40-248)
    was neither sent nor in `reused`. The plan cut it to a smaller share, within the lines
    the session holds, and dropped the cut without its acknowledgement. Here the second
    call shares the budget with ledger.py (the first call's refunds.py is reused whole)."""
    repo = tmp_path / "ws" / "repo"
    repo.mkdir(parents=True)
    (repo / "payments.py").write_text(payments_module())
    ledger = payments_module().replace("REFUND_RULES", "LEDGER_RULES")
    (repo / "ledger.py").write_text(ledger.replace("SETTING", "LEDGER"))
    refund = "def refund(window):\n    '''refund settlement window'''\n    return window\n"
    (repo / "refunds.py").write_text(refund * 30)
    async with memory_rig(tmp_path, index=True) as (_, s):
        task = {"repoId": "repo", "task": "refund settlement window", "session": "S", "top": 2}
        first = await call(s, "repocontext_context", {**task, "responseBudgetTokens": 4000})
        again = await call(s, "repocontext_context", {**task, "responseBudgetTokens": 4000})
        assert not again.get("note"), again  # no acknowledgement was held back
        answered = {e["path"] for e in again.get("entries", [])}
        answered |= {r["path"] for r in again.get("reused", [])}
        for entry in first["entries"]:
            assert entry["path"] in answered, (entry["path"], again)


def held_lines(entries: list[dict[str, object]], path: str) -> set[int]:
    return {
        line
        for e in entries
        if e["path"] == path
        for start, end in lines_of(e)
        for line in range(start, end + 1)
    }


async def test_a_wider_span_sends_only_the_lines_the_session_does_not_hold(tmp_path: Path) -> None:
    """A span that overlaps lines the session holds sends only the lines it does not: a QA
    pass on ky saw a session sent merge.ts 109-183 sent 102-191 four calls later (75 of its 90
    lines again, 631 tokens), and 12-17 % of the code a ten-call session was sent on ky and
    starlette were lines it held."""
    repo = tmp_path / "ws" / "repo"
    repo.mkdir(parents=True)
    (repo / "payments.py").write_text(payments_module())
    async with memory_rig(tmp_path, index=True) as (_, s):
        task = {"repoId": "repo", "task": "refund settlement window", "session": "S", "top": 1}
        first = await call(s, "repocontext_context", {**task, "responseBudgetTokens": 900})
        before = held_lines(first["entries"], "payments.py")
        assert before and 1 not in before  # a window, not the file's head
        again = await call(s, "repocontext_context", {**task, "responseBudgetTokens": 6000})
        sent = held_lines(again["entries"], "payments.py")
        assert sent, again  # the wider window's new lines ...
        assert not sent & before, (sorted(before), [lines_of(e) for e in again["entries"]])
        for entry in again["entries"]:  # ... each unit's text being its lines
            texts = entry["content"].split("\n")
            assert len(texts) == sum(end - start + 1 for start, end in lines_of(entry))
        third = await call(s, "repocontext_context", {**task, "responseBudgetTokens": 6000})
        assert not [e for e in third["entries"] if e["path"] == "payments.py"], third
        assert any(r["path"] == "payments.py" for r in third["reused"])


async def test_a_file_the_session_holds_most_of_goes_after_the_next_files(tmp_path: Path) -> None:
    """QA on pallets/werkzeug: a second 4,000-token call on the same task spent 1,479 tokens
    on the lines around the routing/rules.py span the first had sent, and no file the first
    had left out. A file whose rendering the session mostly holds goes after those it holds
    none of."""
    repo = tmp_path / "ws" / "repo"
    repo.mkdir(parents=True)
    (repo / "payments.py").write_text(payments_module())
    ledger = ["def settle_refund(window):", '    """Refund settlement window rules."""']
    ledger += ["    return window", *(f"LIMIT_{i} = {i}" for i in range(30))]
    (repo / "ledger.py").write_text("\n".join(ledger) + "\n")
    async with memory_rig(tmp_path, index=True) as (_, s):
        task = {"repoId": "repo", "task": "refund settlement window", "session": "S"}
        first = await call(s, "repocontext_context", {**task, "responseBudgetTokens": 2000})
        assert [e["path"] for e in first["entries"]] == ["payments.py"], first
        again = await call(s, "repocontext_context", {**task, "responseBudgetTokens": 2000})
        assert [e["path"] for e in again["entries"]][:1] == ["ledger.py"], again
