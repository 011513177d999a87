"""repocontext_context: the token-budgeted bundle (spec §3.7) and the usage it records.

One search (the core service's ranked hits: `top`, or a 50-hit backfill pool when reuse is
engaged) -> unique file paths in rank order -> each rendered at a level (paths, outline,
slices; auto tries slices, outline, paths and keeps the first that packs one entry, unless a
coarser one sends a better-ranked file: `_pack_levels`) -> packed
under the budget so that the first files each get a share (query_api/context/plan.py): a file
too large for its share sends the spans that matter, bounded by it. Room a large budget leaves
goes to those files whole and then to the ranking's next files (query_api/context/fill.py).
In a `session`, what the session was sent before is left out and acknowledged in `reused`.

`responseTokens` is what the answer costs on the wire: the JSON-RPC response with its
structured content and its text block (query_api/answers/render.py), counted exactly with the
configured encoding after packing; an entry that would push it over the budget is dropped.
An answer that packs nothing charges nothing (`responseTokens` 0, never above the budget) and
names in `retryBudgetTokens` the least budget that packs an entry (retry.py), fitting even
after the answer's `freshness` grows to the largest it plausibly becomes (`worst_freshness`).
Acknowledgements of code the session holds are counted (their code is not) and kept to a share
of the budget (query_api/context/acks.py). Each file is rendered by query_api/context/entries.py.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from processors.qualified_names import qualified_names
from processors.tokens import TokenEncoding, token_counter
from query_api.answers.freshness import brief_freshness
from query_api.answers.render import render, wire_tokens
from query_api.context.acks import ACK_SHARE, ack_cost, acks_within, unlisted_note, with_note
from query_api.context.candidates import Candidate, worth_packing
from query_api.context.count_memo import CountMemo
from query_api.context.echo import PLANNED_CHARS, task_echo
from query_api.context.entries import EntryRenderer
from query_api.context.fill import MAX_FILES, MIN_ROOM, fill
from query_api.context.one_line import one_line_note
from query_api.context.passed_over import passed_over, passed_over_note
from query_api.context.plan import ENVELOPE_SHARE, Coster, Item, Share, is_cut, plan
from query_api.context.receipts import (
    UsageWindow,
    content_digest,
    malformed_seen_note,
    parse_known,
    possession_token,
    unhonoured_note,
    worst_freshness,
)
from query_api.context.retry import least_budget
from query_api.context.span_reuse import (
    HeldSpans,
    sent_spans,
    unit_lines,
)
from query_api.context.spans import Focus, Span, spelled_names, task_stems
from query_api.context.unheld import unheld
from query_api.core.service import RepoContextService
from query_api.memory.search import linked_for
from query_api.memory.views import MemoryReader
from query_api.retrieval.definition_sites import defined_name
from query_api.retrieval.named_lines import written_places
from query_api.retrieval.users_first import is_called, last_part, used_name
from schemas import bundle as b
from schemas import tools as t
from streams.stores.sessions import SessionStore
from streams.stores.views.store import ViewStore

BACKFILL_POOL = 50
LEVELS: tuple[b.Detail, ...] = ("slices", "outline", "paths")
FILL_MARGIN = 16  # answer tokens kept back from filling, plus one per 500 of budget
NOTE_ROOM = 40  # answer tokens kept for the note that counts unlisted acknowledgements
RESPONSE_ROUNDS = 4  # responseTokens is in the answer it counts: a few rounds settle it
MOSTLY_HELD = 0.5  # of a file's rendering a session holds: the file goes after those it lacks
# the spans the caller's session was sent (span_reuse.py), read once per answer
_ANSWER_SPANS: contextvars.ContextVar[HeldSpans | None] = contextvars.ContextVar(
    "answer_spans", default=None
)


@dataclass
class Packed:
    """One level's packed answer and what growing it needs."""

    result: b.ContextResult
    cheapest: int | None  # the cost of the cheapest single entry (for retryBudgetTokens)
    used: int  # the candidates it looked at (its `top`, and those reused before them)
    planned: list[str]  # the files it planned, whether packed or not
    room: int  # answer tokens left under the budget
    unlisted: int = 0  # acknowledgements left out of `reused` (acks.py)
    ack_room: int = 0  # answer tokens later acknowledgements may still take
    note: str | None = None  # the answer's note without the count of unlisted ones
    held: frozenset[str] = frozenset()  # the files it acknowledges the session holds


class BundleService:
    def __init__(
        self,
        core: RepoContextService,
        views: ViewStore,
        token_encoding: TokenEncoding = "o200k_base",
        session_path: Path | None = None,
    ) -> None:
        self.core = core
        self.count = CountMemo(token_counter(token_encoding))
        self.views = views
        self.renderer = EntryRenderer(views, self.count)
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

    def _item(
        self,
        repo_id: str,
        cand: Candidate,
        level: b.Detail,
        focus: Focus,
        cap: int | None,
        seen: set[str],
        held: set[tuple[str, str]],
        whole: bool = False,
        chosen: list[Span] | None = None,
    ) -> tuple[b.BundleEntry | None, list[b.Reused]]:
        """The entry without the units the caller has seen (None when it has seen them all,
        or holds this version of the whole file), and the acknowledgements of those it has:
        one per unit, but one for the file (no receipt) when it has seen every one of
        several: an outline's dozens of acks would take the budget the next files need."""
        entry, texts, digest = self.renderer.render(repo_id, cand, level, focus, cap, whole, chosen)
        rendered = entry.tokenCount
        if (cand.path, digest) in held:  # a fully reused file frees its slot
            return None, [b.Reused(path=cand.path, kind="file", contentHash=digest)]
        owned = possession_token(cand.path, digest) in seen
        if owned and not all(u.receipt in seen for u in entry.units):
            # the session holds this version whole; this rendering cuts it differently
            return None, [b.Reused(path=cand.path, kind="file", contentHash=digest)]
        spans = _ANSWER_SPANS.get()
        ranges = unit_lines(entry)
        held_lines = [
            spans is not None and spans.covers(cand.path, digest, lines) for lines in ranges
        ]
        had = [
            u.receipt in seen or within for u, within in zip(entry.units, held_lines, strict=True)
        ]
        if spans is not None and entry.contentHash is None:
            # a span overlapping what the session holds sends only the lines it lacks (the
            # whole body, which a `known` claim can name later, goes whole)
            entry, texts, had, kept_back = unheld(
                self.count, repo_id, entry, digest, texts, had, spans
            )
        else:
            kept_back = []
        # the lines of a span cut to those the session lacks that it holds (a window grown
        # by a few lines sends just those): acknowledged by their lines, no unit sent them
        held_part = [
            b.Reused(path=cand.path, kind="span", contentHash=digest, startLine=a, endLine=z)
            for a, z in kept_back
        ]
        reused = [
            b.Reused(
                path=cand.path,
                kind=u.kind,
                receipt=u.receipt,
                contentHash=digest,
                symbol=u.symbol,
            )
            for u, was in zip(entry.units, had, strict=True)
            if was
        ] + held_part
        if not reused:
            return entry, []
        kept = [(u, line) for u, line, was in zip(entry.units, texts, had, strict=True) if not was]
        if not kept:
            if len(reused) > 1:  # every unit of it: one acknowledgement says so
                ack = b.Reused(path=cand.path, kind=reused[0].kind, contentHash=digest)
                return None, [ack]
            return None, reused
        content = "\n".join(line for _, line in kept)
        update = {
            "units": [u for u, _ in kept],
            "content": content,
            "tokenCount": self.count(content),
        }
        lacked = entry.model_copy(update=update)
        lacked._held = 1.0 - lacked.tokenCount / max(1, rendered)
        return lacked, reused

    async def context(self, args: b.ContextArgs) -> b.ContextResult:
        spans = _ANSWER_SPANS.set(None)  # _context sets this answer's
        try:
            with self.renderer.answer():  # worker threads of this answer share its memo
                return await self._context(args)
        finally:
            _ANSWER_SPANS.reset(spans)

    async def _context(self, args: b.ContextArgs) -> b.ContextResult:
        now = time.time()
        # registered is enough: a repository just added answers "still being built", as search
        self.core.require_repo(args.repoId)
        top = max(1, min(50, args.top))
        budget = max(1, min(200_000, args.responseBudgetTokens))
        wanted = args.detail.strip().lower()
        levels = tuple(lv for lv in LEVELS if lv == wanted) or LEVELS
        seen, held = self._reuse(args, now)
        _ANSWER_SPANS.set(HeldSpans(seen) if args.session else None)
        reuse = bool(seen or held or args.session)
        answer = await self.core.search(
            t.SearchArgs(
                repoId=args.repoId, query=args.task[:4096], k=BACKFILL_POOL if reuse else top
            ),
        )
        cands = await asyncio.to_thread(self._candidates, args.repoId, answer, now)
        fresh = brief_freshness(await self.core.freshness(args.repoId))
        shell = b.ContextResult(
            repoId=args.repoId,
            task=args.task[:PLANNED_CHARS],  # echoed shorter once packed (echo.py)
            mode=answer.mode,
            retrievalPath=answer.retrievalPath,
            detail=levels[0],
            budgetTokens=budget,
            totalTokens=0,
            responseTokens=budget,
            truncated=False,
            retryBudgetTokens=None,
            entries=[],
            session=args.session,
            reused=[],
            freshness=fresh,
            note=with_note(
                with_note(_unknown_detail(args.detail), unhonoured_note(args.known, held)),
                malformed_seen_note(args.seen),
            ),
        )
        focus = self._focus(shell, args.task)
        packed = await self._pack_levels(shell, cands, levels, top, seen, held, focus)
        result = packed.result
        least = None
        if not result.entries and packed.cheapest is not None and cands:
            least = await self._least_budget(packed, cands, levels, top, seen, held, args.task)
        if result.detail == "slices" and result.entries:
            deeper = len(answer.hits) >= top and not reuse  # the search may hold more files
            result, cands = await self._filled(args, deeper, packed, cands, seen, held, focus)
            if budget < b.DEFAULT_BUDGET and focus.spans is None and self._heavy(result):
                # one declaration a file: a small answer's second receipt and span header
                # are what pushes its envelope past the share (plan.ENVELOPE_SHARE)
                lean = replace(focus, spans=1)
                again = await asyncio.to_thread(
                    self._pack, shell, cands, "slices", top, seen, held, lean
                )
                if again.result.entries:
                    other, _ = await self._filled(args, deeper, again, cands, seen, held, lean)
                    if self._envelope_share(other) < self._envelope_share(result):
                        packed, result = again, other
        if result.detail == "slices":
            result = self._one_line_noted(result)
        if result.detail == "outline":
            result = self._passed_over_noted(result, packed.planned)
        if not result.entries and not result.reused and answer.note and not result.note:
            # nothing to pack because nothing matched: the search's word for it, not silence
            result = result.model_copy(update={"note": answer.note})
        result = result.model_copy(update={"task": task_echo(args.task)})
        return self._settle(args, result, cands, packed.cheapest, now, least)

    def _one_line_noted(self, result: b.ContextResult) -> b.ContextResult:
        """`result` with a note naming each file it sends as its path because the file is one
        line too long to cut into spans (query_api/context/one_line.py), where the note fits
        the budget: it never pushes an entry out (a retry budget promises that one fits)."""

        def body_of(path: str) -> str | None:
            row = self.views.get_content(result.repoId, path)
            return row.body if row is not None else None

        extra = one_line_note(result.entries, body_of, self.count)
        if extra is None:
            return result
        noted = result.model_copy(update={"note": with_note(result.note, extra)})
        fitted, _ = self._fitted(noted, result.entries, result.truncated)
        return fitted if len(fitted.entries) == len(result.entries) else result

    def _passed_over_noted(self, result: b.ContextResult, planned: list[str]) -> b.ContextResult:
        """`result` with a note naming the files ranked above one it sends whose outlines did
        not fit (query_api/context/passed_over.py), where the note fits the budget."""
        extra = passed_over_note(passed_over(planned, [e.path for e in result.entries]))
        if extra is None:
            return result
        noted = result.model_copy(update={"note": with_note(result.note, extra)})
        fitted, _ = self._fitted(noted, result.entries, result.truncated)
        return fitted if len(fitted.entries) == len(result.entries) else result

    def _focus(self, shell: b.ContextResult, task: str) -> Focus:
        """The declarations a file's spans are chosen by: the task's word stems, its
        qualified names, places and the name whose users it asks for, and one
        declaration a file where the answer's own fields take half the envelope's share
        before any file (a second declaration's receipt and header would pass it: 2,000
        tokens, not 4,000)."""
        used = used_name(task)
        focus = Focus(
            task_stems(task),
            qualified=tuple(qualified_names(task)),
            places=tuple(written_places(task)),
            used=last_part(used) if used else None,
            used_calls=self._called(shell.repoId, used) if used else False,
            defined=defined_name(task),
            spelled=spelled_names(task),
        )
        budget = shell.budgetTokens
        if budget < b.DEFAULT_BUDGET and self._wire(shell) > ENVELOPE_SHARE / 2 * budget:
            focus = replace(focus, spans=1)
        return focus

    def _called(self, repo_id: str, name: str) -> bool:
        """Whether `name` declares only functions and methods (users_first.is_called)."""
        return is_called(name, self.renderer.symbols.symbols_named(repo_id, [last_part(name)]))

    async def _least_budget(
        self,
        packed: Packed,
        cands: list[Candidate],
        levels: tuple[b.Detail, ...],
        top: int,
        seen: set[str],
        held: set[tuple[str, str]],
        task: str,
    ) -> int:
        """The least budget at which the same levels pack an entry for these candidates,
        with the answer's fields as they are now (query_api/context/retry.py)."""
        empty = packed.result

        async def packs(budget: int) -> bool:
            probe = empty.model_copy(
                update={"budgetTokens": budget, "responseTokens": budget, "reused": []}
            )
            got = await self._pack_levels(
                probe, cands, levels, top, seen, held, self._focus(probe, task)
            )
            return bool(got.result.entries)

        assert packed.cheapest is not None
        floor = self._wire(empty.model_copy(update={"reused": []}))
        return await least_budget(packs, floor, self._wire(empty) + packed.cheapest)

    async def _pack_levels(
        self,
        shell: b.ContextResult,
        cands: list[Candidate],
        levels: tuple[b.Detail, ...],
        top: int,
        seen: set[str],
        held: set[tuple[str, str]],
        focus: Focus,
    ) -> Packed:
        """The answer at the finest of `levels` that packs the best-ranked file it can.
        A level that packs something but leaves out the first file it planned gives way to
        a coarser one that sends a better-ranked file: at a budget too small for the top
        file's outline, the outline level sent only files that declare nothing (docs travel
        as their paths), and the bundle for "cors" held docs/middleware.md, not the
        middleware whose path the paths level sends (encode/starlette at 300 tokens)."""
        rank = {cand.path: i for i, cand in reversed(list(enumerate(cands)))}
        best: Packed | None = None
        packed = Packed(shell, None, 0, [], 0)
        for level in levels:
            packed = await asyncio.to_thread(
                self._pack, shell, cands, level, top, seen, held, focus
            )
            if not packed.result.entries:
                if packed.cheapest is None and (packed.result.reused or packed.unlisted):
                    break  # everything found was reused: a coarser level adds nothing
                continue
            if best is None or _lead(packed, rank) < _lead(best, rank):
                best = packed
            if not packed.planned or _lead(best, rank) <= rank[packed.planned[0]]:
                break  # it sends the first file it could: a coarser level sends no better
        return best or packed

    async def _filled(
        self,
        args: b.ContextArgs,
        deeper: bool,
        packed: Packed,
        cands: list[Candidate],
        seen: set[str],
        held: set[tuple[str, str]],
        focus: Focus,
    ) -> tuple[b.ContextResult, list[Candidate]]:
        """The packed `slices` answer with the room it leaves spent (`_fill`), and the
        candidates that took, grown by the deeper search (where `deeper` allows one) when the
        first ones ran out."""
        if packed.room < MIN_ROOM:
            return packed.result, cands
        if "top" in args.model_fields_set:  # an explicit `top` caps the files
            cands = cands[: packed.used]
        elif deeper and len(cands) <= packed.used:
            cands += await self._next_candidates(args, cands, time.time())
        filled = await asyncio.to_thread(self._fill, packed, cands, seen, held, focus)
        return filled, cands

    def _envelope_share(self, result: b.ContextResult) -> float:
        """The share of the answer's wire tokens that is not code (its content travels twice:
        in the structured content and in the text block)."""
        wire, entries = self._wire(result), result.entries
        code = sum(2 * self.count(json.dumps(e.content, ensure_ascii=False)) for e in entries)
        return (wire - code) / max(1, wire)

    def _heavy(self, result: b.ContextResult) -> bool:
        """The answer's envelope passes ENVELOPE_SHARE and a file in it sends several spans."""
        several = any(sum(u.kind == "span" for u in e.units) > 1 for e in result.entries)
        return several and self._envelope_share(result) > ENVELOPE_SHARE

    async def _next_candidates(
        self, args: b.ContextArgs, cands: list[Candidate], now: float
    ) -> list[Candidate]:
        """The ranking's files after `cands`, from the search asked MAX_FILES deep: only a
        budget the first `top` files leave room in pays for the deeper search."""
        answer = await self.core.search(
            t.SearchArgs(repoId=args.repoId, query=args.task[:4096], k=MAX_FILES),
            details=False,
        )
        more = await asyncio.to_thread(self._candidates, args.repoId, answer, now)
        have = {c.path for c in cands}
        return [c for c in more if c.path not in have]

    def _reuse(self, args: b.ContextArgs, now: float) -> tuple[set[str], set[tuple[str, str]]]:
        """(unit receipts, (path, contentHash) whole files) the caller holds: its `seen`
        and, in a session, every unit that session was sent before, so a call repeated in it
        sends only what is new and acknowledges the rest in `reused`; its `known` claims
        where the session was sent that whole version (spec §3.7: without a session nothing
        validates them, and outlines or spans never make a possession). A file the session
        holds whole is not sent again as spans either: their receipts differ from the whole
        body's, their code does not."""
        # receipts only: a session's possessions and span records (which hold a NUL) written
        # into `seen` acknowledged a whole file that no `known` claim could (no session)
        seen = {receipt for receipt in args.seen or () if "\x00" not in receipt}
        if not args.session:
            return seen, set()
        session = self.sessions.get(args.repoId, args.session, now)
        held = {
            (path, digest)
            for path, digest in parse_known(args.known or [])
            if possession_token(path, digest) in session.possessions
        }
        # its possessions (`path NUL hash`, never a receipt's 16 hex digits) ride with the
        # receipts: `_item` asks whether the session holds a file it would render anew
        return seen | session.receipts | session.possessions, held

    def _candidates(self, repo_id: str, answer: t.SearchResult, now: float) -> list[Candidate]:
        cands: list[Candidate] = []
        top_score = answer.hits[0].score if answer.hits else 0.0
        for hit in answer.hits:
            path = hit.entry.path or hit.entry.fields.get("filePath")
            if hit.entry.kind not in ("File", "Content", "Symbol") or not path:
                continue
            if not worth_packing(hit, top_score):
                continue
            if all(c.path != path for c in cands):
                linked = linked_for(self.memory, repo_id, path, None, now)
                lines = (hit.startLine, hit.endLine) if hit.startLine and hit.endLine else None
                cands.append(
                    Candidate(path, hit.score, list(hit.reasons), linked, hit.vectorId, lines)
                )
        return cands

    def _sent_spans(self, repo_id: str, entries: list[b.BundleEntry]) -> set[str]:
        """What a session records of the spans it was sent (span_reuse.py), by the hash of
        the stored body they were cut from."""
        out: set[str] = set()
        for entry in entries:
            if not any(u.kind == "span" for u in entry.units):
                continue
            row = self.views.get_content(repo_id, entry.path)
            if row is not None:
                out |= sent_spans(entry, content_digest(row.body))
        return out

    def _wire(self, result: b.ContextResult) -> int:
        return wire_tokens(*render(result), count=self.count)

    def _pack(
        self,
        shell: b.ContextResult,
        cands: list[Candidate],
        level: b.Detail,
        top: int,
        seen: set[str],
        held: set[tuple[str, str]],
        focus: Focus,
    ) -> Packed:
        """The answer at `level` with as many files as the budget holds, counted exactly,
        and the cost of its cheapest single entry."""
        repo_id = shell.repoId
        items: list[Item] = []
        acks_of: dict[str, list[b.Reused]] = {}  # by path, in rank order
        used = 0
        for cand in cands:
            if len(items) >= top:
                break
            used += 1
            entry, acks = self._item(repo_id, cand, level, focus, None, seen, held)
            acks_of[cand.path] = acks
            if entry is not None:
                items.append(Item(cand, entry))
        # a file the session holds most of this rendering of goes after the others: its share
        # had gone on the lines around what it holds (werkzeug's rules.py, 1,479 tokens of a
        # second 4,000-token call on the same task) while the ranking's next files went unsent
        items.sort(key=lambda item: item.entry._held >= MOSTLY_HELD)
        cut_acks: dict[str, list[b.Reused]] = {}  # a file whose share held only what it has

        def under(item: Item, cap: int) -> b.BundleEntry | None:
            cand = item.key
            assert isinstance(cand, Candidate)
            entry, acks = self._item(repo_id, cand, level, focus, cap, seen, held)
            if entry is None:
                cut_acks[cand.path] = acks
            return entry

        allowance = int(ACK_SHARE * max(0, shell.budgetTokens - self._wire(shell)))
        listed, unlisted = acks_within(_flat(acks_of), allowance, self.count)
        note = with_note(shell.note, unlisted_note(unlisted))
        empty = shell.model_copy(
            update={"detail": level, "reused": listed, "truncated": True, "note": note}
        )
        base = self._wire(empty)
        coster = Coster(self.count)
        chosen = plan(items, under if level == "slices" else None, coster, shell.budgetTokens, base)
        truncated = chosen.truncated or len(chosen.entries) < len(items)
        packed = {e.path for e in chosen.entries}
        left = {p: a for p, a in cut_acks.items() if p not in packed and not acks_of[p]}
        if left:
            # a file whose share this time was within what the session holds is left out
            # of the plan: say so in `reused`, or the caller hears nothing of it
            acks_of.update(left)
            listed, unlisted = acks_within(_flat(acks_of), allowance, self.count)
            note = with_note(shell.note, unlisted_note(unlisted))
            empty = empty.model_copy(update={"reused": listed, "note": note})
        result, wire = self._fitted(empty, chosen.entries, truncated)
        planned = [it.entry.path for it in items]
        ack_room = allowance - sum(ack_cost(ack, self.count) for ack in listed)
        room = shell.budgetTokens - wire
        held_files = frozenset(path for path, acks in acks_of.items() if acks)
        return Packed(
            result, chosen.cheapest, used, planned, room, unlisted, ack_room, shell.note, held_files
        )

    def _fitted(
        self, empty: b.ContextResult, entries: list[b.BundleEntry], truncated: bool
    ) -> tuple[b.ContextResult, int]:
        """`empty` with `entries`, the last ones dropped while its wire cost (also returned)
        is over the budget: the estimates that chose them may be off by a few tokens."""
        while True:
            result = empty.model_copy(
                update={
                    "entries": entries,
                    "truncated": truncated,
                    "totalTokens": sum(e.tokenCount for e in entries),
                }
            )
            wire = self._wire(result)
            if not entries or wire <= empty.budgetTokens:
                return result, wire
            entries, truncated = entries[:-1], True

    def _fill(
        self,
        packed: Packed,
        cands: list[Candidate],
        seen: set[str],
        held: set[tuple[str, str]],
        focus: Focus,
    ) -> b.ContextResult:
        """The packed `slices` answer with the room it leaves spent (query_api/context/fill.py):
        its cut files whole where they fit, then the candidates after those it looked at."""
        repo_id = packed.result.repoId
        by_path = {c.path: c for c in cands}
        acks: list[b.Reused] = []

        def render(key: object, cap: int | None = None) -> b.BundleEntry | None:
            assert isinstance(key, Candidate)
            return self._item(repo_id, key, "slices", focus, cap, seen, held, whole=True)[0]

        def widen(key: object, entry: b.BundleEntry, wanted: int) -> b.BundleEntry | None:
            assert isinstance(key, Candidate)
            spans = self.renderer.widened(repo_id, key.path, entry._spans, wanted, focus.stems)
            if spans == list(entry._spans):
                return None
            return self._item(repo_id, key, "slices", focus, None, seen, held, chosen=spans)[0]

        def later() -> Iterator[Item]:
            for cand in cands[packed.used :]:
                entry, reused = self._item(
                    repo_id, cand, "slices", focus, None, seen, held, whole=True
                )
                acks.extend(reused)
                if entry is not None:
                    yield Item(cand, entry)

        budget = packed.result.budgetTokens
        room = packed.room - FILL_MARGIN - budget // 500  # the estimates' error, bounded
        packed_now = [(by_path[e.path], e) for e in packed.result.entries]
        coster = Coster(self.count)
        wire = budget - packed.room
        code = sum(coster.content(e) for e in packed.result.entries)
        entries = fill(
            packed_now,
            later(),
            render,
            lambda it, cap: render(it.key, cap),
            coster,
            room,
            Share(wire - code, wire),
            widen,
        )
        missing = set(packed.planned) - {e.path for e in entries}
        truncated = bool(missing) or any(is_cut(e) for e in entries)
        grown, wire = self._fitted(packed.result, entries, truncated)
        if not acks:
            return grown
        # the later files' acknowledgements, in what the share and the room leave them
        # (a note about the ones left out may appear: NOTE_ROOM is kept for it)
        spare = min(packed.ack_room, budget - wire - NOTE_ROOM)
        more, left = acks_within(acks, spare, self.count)
        note = with_note(packed.note, unlisted_note(packed.unlisted + left))
        empty = grown.model_copy(update={"reused": [*grown.reused, *more], "note": note})
        return self._fitted(empty, grown.entries, grown.truncated)[0]

    def _priced(self, result: b.ContextResult) -> b.ContextResult:
        """`result` with `responseTokens` its wire cost (a few rounds: the count includes its
        own digits)."""
        response = result.responseTokens
        for _ in range(RESPONSE_ROUNDS):
            counted = self._wire(result.model_copy(update={"responseTokens": response}))
            if counted == response:
                break
            response = counted
        return result.model_copy(update={"responseTokens": min(response, result.budgetTokens)})

    def _settle(
        self,
        args: b.ContextArgs,
        result: b.ContextResult,
        cands: list[Candidate],
        cheapest: int | None,
        now: float,
        least: int | None = None,
    ) -> b.ContextResult:
        """Record sessions and usage, and set `responseTokens` to the answer's wire cost (0
        when it holds neither an entry nor an acknowledgement) and, when nothing was packed,
        `retryBudgetTokens` to a budget that fits one entry."""
        owned: set[str] = set()
        replaced = 0
        for entry in result.entries:
            if entry.contentHash is not None:  # named only where the entry is the whole body
                row = self.views.get_content(args.repoId, entry.path)
                if row is not None and not row.truncated and entry.content == row.body:
                    owned.add(possession_token(entry.path, entry.contentHash))
                    replaced += entry.fullReadTokenCount or 0
            elif any(u.kind == "span" for u in entry.units):
                # spans replace the reads of the code they carry, no more: stats counted
                # only whole files, and twelve bundles of spans replaced nothing (QA, zap)
                replaced += entry.tokenCount
        if args.session:
            receipts = {u.receipt for e in result.entries for u in e.units}
            receipts |= self._sent_spans(args.repoId, result.entries)
            self.sessions.merge(args.repoId, args.session, receipts, owned, now)
        if result.entries or result.reused:
            result = self._priced(result)
        if not result.entries:
            retry = None
            if cands and cheapest is not None:
                fresh = result.freshness
                worst = result.model_copy(
                    update={"freshness": worst_freshness(fresh) if fresh else None}
                )
                grown = self._wire(worst)
                retry = grown + cheapest
                if least is not None:  # searched down (retry.py), grown as the bound is
                    retry = min(retry, least + grown - self._wire(result))
                retry = min(200_000, retry)
            update: dict[str, object] = {"retryBudgetTokens": retry}
            if not result.reused:
                update["responseTokens"] = 0
            result = result.model_copy(update=update)
        self.usage.record(result.responseTokens, replaced, now)
        self._calls.add(1)
        self._response.add(result.responseTokens, {"command": "context"})
        self._replaced.add(replaced, {"command": "context"})
        return result


def _lead(packed: Packed, rank: dict[str, int]) -> int:
    """The rank of the best-ranked file a packed answer sends, or acknowledges the session
    holds: a session holding the top files' code was sent every file's path and no code at
    2,000 tokens, the paths level sending the top file's path (ky, "Improve Retry-After
    handling" at 8,192 and again at 2,000)."""
    sent = [e.path for e in packed.result.entries] + [*packed.held]
    return min((rank.get(path, len(rank)) for path in sent), default=len(rank))


def _flat(acks_of: dict[str, list[b.Reused]]) -> list[b.Reused]:
    return [ack for acks in acks_of.values() for ack in acks]


def _unknown_detail(detail: str) -> str | None:
    """What the answer says when `detail` names no level (packed as auto)."""
    if detail.strip().lower() in ("auto", *LEVELS):
        return None
    return f"detail {detail!r} is none of paths, outline, slices, auto: packed as auto"
