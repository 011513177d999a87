"""repocontext_context: the token-budgeted bundle (spec §3.7) and the usage it records.

One search (the core service's ranked hits: `top`, or a 50-hit backfill pool when reuse is
engaged) -> unique file paths in rank order -> each rendered at a level (paths, outline,
slices; auto tries slices, outline, paths and keeps the first that packs one entry) -> greedy
packing under a cost model that bounds the whole response, echoed text included:
per entry BPE(content) + 24 + BPE(path) + sum BPE(reasons) + BPE(contentHash) + per unit
(10 + BPE(receipt) + BPE(kind) + BPE(symbol)), times the dual-emission factor 3.5 (ceil),
plus a reserve of (80 + BPE of the echoed task/repoId/session + a bound on the `freshness`
object's BPE, see `freshness_bound`) x 3.5 charged up front. An answer that packs nothing
charges nothing (`responseTokens` 0, never above the budget) and names in `retryBudgetTokens`
the budget that fits its cheapest entry.
"""

from __future__ import annotations

import hashlib
import math
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from processors.tokens import TokenEncoding, count_tokens, token_counter
from query_api.bundle_spans import select_spans, task_stems
from query_api.errors import NotFoundError
from query_api.memory_search import linked_for
from query_api.memory_views import MemoryReader
from schemas import bundle as b
from schemas import tools as t
from streams.stores.sessions import SessionStore
from streams.stores.views import ViewStore
from streams.stores.views_symbols import SymbolViews

if TYPE_CHECKING:
    from query_api.service import RepoContextService

DUAL_EMISSION = 3.5
RESERVE = 80
ENTRY_SCAFFOLD = 24
UNIT_SCAFFOLD = 10
LINKED_FIELD = 6  # `"linkedMemory":[]` of every entry
LINKED_SCAFFOLD = 16  # the keys and punctuation of one linked memory item
BACKFILL_POOL = 50
LEVELS: tuple[b.Detail, ...] = ("slices", "outline", "paths")
FRESHNESS_SLACK = 8  # one hex commit tokenises differently from another
_SAMPLE_COMMIT = "3f9a2c1e0b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39"
_SAMPLE_TIME = "2026-11-30T22:01:02.123456Z"
WHOLE_BODY_TOKENS = 1500  # larger files are sliced into spans instead of sent whole


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def receipt_of(repo_id: str, path: str, content_hash: str, kind: str, unit_key: str) -> str:
    joined = "\x00".join((repo_id, path, content_hash, kind, unit_key))
    return sha256_hex(joined)


def freshness_bound(fresh: t.Freshness, count: Callable[[str], int] = count_tokens) -> int:
    """Tokens the bundle charges for its `freshness`: those of a copy grown to the largest it
    can plausibly become before the caller's next call (numbers of 13 digits, every field
    its kind of source can fill, filled), so `retryBudgetTokens` still fits then."""
    git = fresh.indexedCommit is not None or fresh.sourceCommit is not None
    big = 10**12
    worst = fresh.model_copy(
        update={
            "appliedOffsets": max(fresh.appliedOffsets, big),
            "logEndOffsets": max(fresh.logEndOffsets, big),
            "eventsBehind": max(fresh.eventsBehind, big),
            "secondsBehind": 123456789.123456,
            "pendingFiles": None if git else max(fresh.pendingFiles or 0, 10**9),
            "indexedCommit": fresh.indexedCommit or (_SAMPLE_COMMIT if git else None),
            "sourceCommit": fresh.sourceCommit or (_SAMPLE_COMMIT if git else None),
            "sourceCheckedAt": fresh.sourceCheckedAt or (_SAMPLE_TIME if git else None),
        }
    )
    return count(worst.model_dump_json()) + FRESHNESS_SLACK


def parse_known(claims: list[str]) -> set[tuple[str, str]]:
    """`path@hash` claims split on the last '@'; malformed ones are dropped (fail closed)."""
    parsed = set()
    for claim in claims:
        path, sep, digest = claim.rpartition("@")
        if sep and path and len(digest) == 64 and all(c in "0123456789abcdef" for c in digest):
            parsed.add((path, digest))
    return parsed


def entry_cost(entry: b.BundleEntry, count: Callable[[str], int] = count_tokens) -> int:
    raw = (
        entry.tokenCount
        + ENTRY_SCAFFOLD
        + count(entry.path)
        + sum(count(r) for r in entry.reasons)
        + count(entry.contentHash)
        + sum(
            UNIT_SCAFFOLD + count(u.receipt) + count(u.kind) + count(u.symbol or "")
            for u in entry.units
        )
        + LINKED_FIELD
        + sum(
            LINKED_SCAFFOLD + count(m.key) + count(m.kind) + count(m.topic) + count(m.summary)
            for m in entry.linkedMemory
        )
    )
    return math.ceil(raw * DUAL_EMISSION)


class UsageWindow:
    """60 one-minute buckets of (calls, response tokens, reads replaced): the 1-hour window."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._buckets: deque[tuple[int, list[int]]] = deque()

    def record(self, response: int, replaced: int, now: float | None = None) -> None:
        minute = int((now if now is not None else time.time()) // 60)
        with self._lock:
            if not self._buckets or self._buckets[-1][0] != minute:
                self._buckets.append((minute, [0, 0, 0]))
            bucket = self._buckets[-1][1]
            bucket[0] += 1
            bucket[1] += response
            bucket[2] += replaced

    def totals(self, now: float | None = None) -> tuple[int, int, int]:
        minute = int((now if now is not None else time.time()) // 60)
        with self._lock:
            while self._buckets and self._buckets[0][0] <= minute - 60:
                self._buckets.popleft()
            sums = [0, 0, 0]
            for _, bucket in self._buckets:
                for i in range(3):
                    sums[i] += bucket[i]
        return sums[0], sums[1], sums[2]


@dataclass
class Candidate:
    path: str
    score: float
    reasons: list[str]
    linked: list[t.LinkedMemory] = field(default_factory=list)  # memory about this file


class BundleService:
    def __init__(
        self,
        core: RepoContextService,
        views: ViewStore,
        token_encoding: TokenEncoding = "o200k_base",
        session_path: Path | None = None,
    ) -> None:
        self.core = core
        self.count = token_counter(token_encoding)
        self.views = views
        self.symbols = SymbolViews(views)
        self.memory = MemoryReader(views)
        self.sessions = SessionStore(session_path)  # durable in the data dir (sessions.db)
        self.usage = UsageWindow()
        from opentelemetry import metrics as otel

        meter = otel.get_meter("repocontext")
        self._calls = meter.create_counter("repocontext.context.calls")
        self._response = meter.create_counter("repocontext.response_tokens")
        self._replaced = meter.create_counter("repocontext.reads_replaced_tokens")

    async def stats(self, args: t.NoArgs) -> b.StatsResult:
        calls, response, replaced = self.usage.totals()
        return b.StatsResult(
            calls=calls,
            responseTokens=response,
            readsReplacedTokens=replaced,
            netSavedTokens=replaced - response,
        )

    def _spans(
        self, repo_id: str, path: str, body: str, task_terms: frozenset[str]
    ) -> list[tuple[int, int, str | None]]:
        """The line spans of a large file worth sending for the task (bundle_spans)."""
        symbols = self.symbols.symbols_of_file(repo_id, path)
        return select_spans(symbols, body.count("\n") + 1, task_terms)

    def _render(
        self,
        repo_id: str,
        cand: Candidate,
        level: b.Detail,
        task_terms: frozenset[str] = frozenset(),
    ) -> tuple[b.BundleEntry, bool, list[str]]:
        """The entry at `level`; the flag says whether it is a whole-body delivery."""
        row = self.views.get_content(repo_id, cand.path)
        body = row.body if row is not None else ""
        full = (
            (row.token_count if row.token_count is not None else self.count(body)) if row else None
        )
        content_hash = sha256_hex(body) if row is not None else sha256_hex(cand.path)
        units: list[tuple[b.UnitKind, str | None]] = []  # (kind, symbol) per line of content
        lines: list[str] = []
        ranges: list[tuple[int, int]] = []
        whole = False
        start = end = None
        if level == "slices" and row is not None and body and (full or 0) <= WHOLE_BODY_TOKENS:
            lines = [body]
            units = [("span", None)]
            whole = not row.truncated
            start, end = 1, body.count("\n") + (0 if body.endswith("\n") else 1)
            ranges = [(start, end)]
        elif level == "slices" and row is not None and body:
            # Better than the reference: a large file sends the spans that matter (the symbols
            # the task names, with context lines), bounded, and says which lines they are.
            spans = self._spans(repo_id, cand.path, body, task_terms)
            lines = ["\n".join(body.split("\n")[a - 1 : z]) for a, z, _ in spans]
            units = [("span", sym) for _, _, sym in spans]
            ranges = [(a, z) for a, z, _ in spans]
            start, end = spans[0][0], spans[-1][1]
        elif level == "outline":
            rows = sorted(
                self.symbols.symbols_of_file(repo_id, cand.path),
                key=lambda s: (s.start_line, s.fq_name),
            )
            for sym in rows:
                lines.append(" ".join((sym.signature or sym.fq_name).split()))
                units.append(("outline", sym.fq_name))
        if not lines:
            lines, units = [cand.path], [("pointer", None)]
        content = "\n".join(lines)
        made_units = [
            b.Unit(
                receipt=receipt_of(
                    repo_id, cand.path, content_hash, kind, _unit_key(kind, sym, ranges, i)
                ),
                kind=kind,
                symbol=sym,
                tokenCount=self.count(text),
                startLine=ranges[i][0] if ranges else None,
                endLine=ranges[i][1] if ranges else None,
            )
            for i, ((kind, sym), text) in enumerate(zip(units, lines, strict=True))
        ]
        entry = b.BundleEntry(
            path=cand.path,
            score=cand.score,
            reasons=cand.reasons,
            tokenCount=self.count(content),
            fullReadTokenCount=full,
            content=content,
            contentHash=content_hash,
            units=made_units,
            startLine=start,
            endLine=end,
            linkedMemory=cand.linked,
        )
        return entry, whole, lines

    async def context(self, args: b.ContextArgs) -> b.ContextResult:
        now = time.time()
        if self.views.get_repo(args.repoId) is None:
            raise NotFoundError(
                f"unknown repository {args.repoId!r}; repocontext_list_repos shows registered ones"
            )
        top = max(1, min(50, args.top))
        budget = max(1, min(200_000, args.responseBudgetTokens))
        wanted = args.detail.strip().lower()
        levels = tuple(lv for lv in LEVELS if lv == wanted) or LEVELS
        seen = set(args.seen or ())
        session = self.sessions.get(args.repoId, args.session, now) if args.session else None
        known = {
            (p, h)
            for p, h in parse_known(args.known or [])
            if session is not None and f"{p}\x00{h}" in session.possessions
        }
        reuse = bool(seen or known or session)
        answer = await self.core.search(
            t.SearchArgs(
                repoId=args.repoId, query=args.task[:4096], k=BACKFILL_POOL if reuse else top
            )
        )
        cands: list[Candidate] = []
        for hit in answer.hits:
            path = hit.entry.path or hit.entry.fields.get("filePath")
            if hit.entry.kind not in ("File", "Content", "Symbol") or not path:
                continue
            if all(c.path != path for c in cands):
                linked = linked_for(self.memory, args.repoId, path, None, now)
                cands.append(Candidate(path, hit.score, list(hit.reasons), linked))
        fresh = (await self.core.freshness(args.repoId)).model_copy(update={"sourceError": None})
        echo = (
            self.count(args.task)
            + self.count(args.repoId)
            + self.count(args.session or "")
            + freshness_bound(fresh, self.count)
        )
        reserve = math.ceil((RESERVE + echo) * DUAL_EMISSION)
        chosen: (
            tuple[list[b.BundleEntry], list[b.Reused], bool, int | None, int, b.Detail] | None
        ) = None
        for level in levels:
            packed = self._pack(
                args.repoId,
                cands,
                level,
                top,
                budget,
                reserve,
                seen,
                known,
                task_stems(args.task),
            )
            chosen = (*packed, level)
            if packed[0]:
                break
        assert chosen is not None
        entries, reused, truncated, cheapest, spent, level = chosen
        owned: set[str] = set()
        replaced = 0
        for entry in entries:
            if entry.startLine is not None and entry.units and entry.units[0].kind == "span":
                row = self.views.get_content(args.repoId, entry.path)
                if row is not None and not row.truncated and entry.content == row.body:
                    owned.add(f"{entry.path}\x00{entry.contentHash}")
                    replaced += entry.fullReadTokenCount or 0
        if args.session:
            receipts = {u.receipt for e in entries for u in e.units}
            self.sessions.merge(args.repoId, args.session, receipts, owned, now)
        # The reserve is charged with the first entry: an answer that packs nothing charges
        # nothing (spec §3.7: responseTokens <= budget always, even for a budget of 1, below
        # any reserve), and says in retryBudgetTokens what would fit one entry.
        response = reserve + spent if entries else 0
        retry = None
        if not entries and cands and cheapest is not None:
            retry = min(200_000, cheapest + reserve)
        self.usage.record(response, replaced, now)
        self._calls.add(1)
        self._response.add(response, {"command": "context"})
        self._replaced.add(replaced, {"command": "context"})
        return b.ContextResult(
            repoId=args.repoId,
            task=args.task,
            mode=answer.mode,
            retrievalPath=answer.retrievalPath,
            detail=level,
            budgetTokens=budget,
            totalTokens=sum(e.tokenCount for e in entries),
            responseTokens=response,
            truncated=truncated,
            retryBudgetTokens=retry,
            entries=entries,
            session=args.session,
            reused=reused,
            freshness=fresh,
        )

    def _pack(
        self,
        repo_id: str,
        cands: list[Candidate],
        level: b.Detail,
        top: int,
        budget: int,
        reserve: int,
        seen: set[str],
        known: set[tuple[str, str]],
        task_terms: frozenset[str],
    ) -> tuple[list[b.BundleEntry], list[b.Reused], bool, int | None, int]:
        entries: list[b.BundleEntry] = []
        reused: list[b.Reused] = []
        truncated = False
        cheapest: int | None = None
        spent = 0
        slots = 0
        for cand in cands:
            if slots >= top:
                break
            entry, _, texts = self._render(repo_id, cand, level, task_terms)
            if (cand.path, entry.contentHash) in known:
                reused.append(b.Reused(path=cand.path, kind="file", contentHash=entry.contentHash))
                continue  # a fully reused file frees its slot
            kept = [
                (u, line)
                for u, line in zip(entry.units, texts, strict=True)
                if u.receipt not in seen
            ]
            for u in entry.units:
                if u.receipt in seen:
                    reused.append(
                        b.Reused(
                            path=cand.path,
                            kind=u.kind,
                            receipt=u.receipt,
                            contentHash=entry.contentHash,
                            symbol=u.symbol,
                        )
                    )
            if not kept:
                continue
            if len(kept) != len(entry.units):
                content = "\n".join(line for _, line in kept)
                entry = entry.model_copy(
                    update={
                        "units": [u for u, _ in kept],
                        "content": content,
                        "tokenCount": self.count(content),
                    }
                )
            slots += 1
            cost = entry_cost(entry, self.count)
            cheapest = cost if cheapest is None else min(cheapest, cost)
            if reserve + spent + cost > budget:
                truncated = True
                continue
            spent += cost
            entries.append(entry)
        return entries, reused, truncated, cheapest, spent


def _unit_key(kind: str, symbol: str | None, ranges: list[tuple[int, int]], i: int) -> str:
    """Outline units are keyed by symbol; a span of a sliced file by its lines (a whole-body
    span and a pointer by nothing, as in the reference)."""
    if kind == "outline":
        return symbol or ""
    if kind == "span" and symbol is not None and ranges:
        return f"{ranges[i][0]}-{ranges[i][1]}"
    return ""
