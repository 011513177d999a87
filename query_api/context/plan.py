"""How a context bundle spends its budget: the search's first files each get a share.

Greedy packing in rank order lets the first two or three large files take the whole budget,
so an agent asking "where do I change X" never sees the fourth-ranked file. Here the first
COVER files are planned together: when they do not all fit as rendered, the content budget
left after their envelopes is shared out by water-filling (a small file takes what it needs,
the rest is split evenly among the larger ones), and each larger file is rendered again under
its share (the spans that matter, fewer lines, or at worst its path). What is left goes to
the later files in rank order, each whole when it fits, else cut to what remains.

Below the default budget fewer files are covered: as many as keep the answer's envelope (its
tokens that are not code) within ENVELOPE_SHARE of the budget, their spans growing with the
larger shares; a later file joins only while that share holds or falls (`Share`).

Costs are the tokens each entry adds to the answer on the wire (its JSON in the structured
content and its lines in the text block, query_api/answers/render.py); the bundle counts the whole
answer exactly afterwards, so an estimate that is off by a token or two can never break the
budget.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from query_api.answers.render import compact_json, pruned
from query_api.answers.text import entry_lines
from schemas import bundle as b

COVER = 5  # the files every bundle tries to carry, when its budget allows
ENTRY_JOIN = 2  # a comma in the JSON, a newline in the text
SHRINK = 0.85  # the shares shrink by this much while the planned files overrun
SHRINK_STEPS = 8
REGROW_STEPS = 3  # rounds that hand the room cut files left unused back to them
REGROW_MIN = 0.03  # unused room worth a round, as a share of the room
EFFICIENCY = 6  # a file after the first COVER carries 6x its envelope in code, or is left out
# the planned files' envelopes together with the answer's own stay within this share of the
# budget: a small budget covers fewer files with more of their code rather than five slivers
ENVELOPE_SHARE = 0.14
TOP_WHOLE_SHARE = 0.5  # the first file is sent whole when it takes at most this share


@dataclass
class Item:
    """A candidate file and its entry as the level renders it with no share imposed."""

    key: object  # whatever the caller needs to render it again under a share
    entry: b.BundleEntry


RenderUnder = Callable[[Item, int], b.BundleEntry | None]


class Coster:
    """Token costs for one answer. Each entry is costed once: packing and filling ask the
    same entry's cost several times (`under`, `slight`, the fill's checks), and counting a
    whole file's tokens exactly is the bundle's largest cost."""

    def __init__(self, count: Callable[[str], int]) -> None:
        self.count = count
        # id -> (the entry, kept so its id is not reused while cached; its cost)
        self._entries: dict[int, tuple[b.BundleEntry, int]] = {}
        self._contents: dict[int, tuple[b.BundleEntry, int]] = {}

    def entry(self, e: b.BundleEntry) -> int:
        """Tokens the entry adds to the answer: its JSON plus its text lines, which travel
        as a JSON string too (escaped)."""
        known = self._entries.get(id(e))
        if known is not None and known[0] is e:
            return known[1]
        text = json.dumps("\n".join(entry_lines(e)), ensure_ascii=False)
        cost = self.count(compact_json(pruned(e))) + self.count(text) + ENTRY_JOIN
        self._entries[id(e)] = (e, cost)
        return cost

    def content(self, e: b.BundleEntry) -> int:
        """Tokens the entry's content takes on the wire: twice, JSON-escaped."""
        known = self._contents.get(id(e))
        if known is not None and known[0] is e:
            return known[1]
        cost = 2 * self.count(json.dumps(e.content, ensure_ascii=False))
        self._contents[id(e)] = (e, cost)
        return cost


def water_fill(demands: Sequence[int], available: int) -> list[int]:
    """Shares of `available`: each demand met in full when it is at most an even split of
    what remains, the remainder split evenly among the larger ones."""
    shares = [0] * len(demands)
    left = max(0, available)
    order = sorted(range(len(demands)), key=lambda i: demands[i])
    for n, i in enumerate(order):
        share = left // (len(order) - n)
        shares[i] = min(demands[i], share)
        left -= shares[i]
    return shares


def is_cut(entry: b.BundleEntry) -> bool:
    """The entry sends less than its file's stored body (spans, or only the path)."""
    full = entry.fullReadTokenCount
    return full is not None and entry.tokenCount < full


@dataclass
class Share:
    """The answer's envelope (its tokens that are not code) and its size, as entries join."""

    envelope: int
    total: int

    @classmethod
    def of(cls, entries: Sequence[b.BundleEntry], coster: Coster, base: int) -> Share:
        share = cls(base, base)
        for e in entries:
            share.add(e, coster)
        return share

    def admits(self, e: b.BundleEntry, coster: Coster) -> bool:
        """`e` keeps the envelope within ENVELOPE_SHARE of the answer, or lowers its share."""
        envelope = self.envelope + coster.entry(e) - coster.content(e)
        total = self.total + coster.entry(e)
        return envelope <= ENVELOPE_SHARE * total or envelope * self.total <= self.envelope * total

    def lowers(self, e: b.BundleEntry, coster: Coster) -> bool:
        """`e` lowers the envelope's share of the answer (its own share is below it)."""
        envelope = self.envelope + coster.entry(e) - coster.content(e)
        return envelope * self.total < self.envelope * (self.total + coster.entry(e))

    def add(self, e: b.BundleEntry, coster: Coster) -> None:
        self.envelope += coster.entry(e) - coster.content(e)
        self.total += coster.entry(e)

    def swap(self, old: b.BundleEntry, new: b.BundleEntry, coster: Coster) -> None:
        self.add(new, coster)
        self.envelope -= coster.entry(old) - coster.content(old)
        self.total -= coster.entry(old)


@dataclass
class Plan:
    entries: list[b.BundleEntry]
    truncated: bool  # a file was left out or cut below its own rendering
    cheapest: int | None  # the cost of the cheapest single entry (for retryBudgetTokens)


def plan(
    items: list[Item],
    render_under: RenderUnder | None,
    coster: Coster,
    budget: int,
    base: int,
) -> Plan:
    """Entries for `items` (rank order) under `budget`, `base` being the answer without any.
    Without `render_under` (outline and paths levels) it is plain greedy packing."""
    costs = [coster.entry(it.entry) for it in items]
    cheapest = min(costs, default=None)
    covered = None
    if render_under is not None:
        first = items[: cover_count(items, coster, budget, base)]
        covered = _cover(first, render_under, coster, budget - base)
    entries: list[b.BundleEntry] = []
    truncated = False
    spent = 0
    rest = list(zip(items, costs, strict=True))
    if covered is not None:
        entries = [e for e in covered if e is not None]
        spent = sum(coster.entry(e) for e in entries)
        truncated = any(e is not it.entry for e, it in zip(covered, items, strict=False))
        rest = rest[len(covered) :]
    share = Share.of(entries, coster, base)
    for item, cost in rest:
        if render_under is not None and slight(item.entry, coster):
            truncated = True  # a later file's few lines would cost more envelope than they carry
            continue
        chosen = item.entry
        if spent + cost > budget - base:
            truncated = True
            if render_under is None:
                continue  # skipped; a later, smaller one may still fit
            cut = under(item, render_under, coster, budget - base - spent)
            if cut is None or slight(cut, coster):
                continue
            chosen = cut
        if render_under is not None and not share.admits(chosen, coster):
            truncated = True
            continue
        entries.append(chosen)
        spent += coster.entry(chosen)
        share.add(chosen, coster)
    return Plan(entries, truncated, cheapest)


def cover_count(items: Sequence[Item], coster: Coster, budget: int, base: int) -> int:
    """How many of the first COVER files the plan covers: all of them from the default
    budget up (the bundle's promise: the search's first five files), below it as many as
    keep their envelopes (as rendered with no share imposed, which a share only trims) and
    the answer's own (`base`) within ENVELOPE_SHARE of the budget, and at least one."""
    if budget >= b.DEFAULT_BUDGET:
        return COVER
    allowed = ENVELOPE_SHARE * budget - base
    count = 0
    for item in items[:COVER]:
        allowed -= coster.entry(item.entry) - coster.content(item.entry)
        if allowed < 0:
            break
        count += 1
    return max(1, count)


def slight(e: b.BundleEntry, coster: Coster) -> bool:
    """A later file whose content would not outweigh its envelope EFFICIENCY times over."""
    content = coster.content(e)
    return content < EFFICIENCY * (coster.entry(e) - content)


def under(item: Item, render_under: RenderUnder, coster: Coster, room: int) -> b.BundleEntry | None:
    """The item rendered to fit `room` tokens of answer, or None."""
    overhead = coster.entry(item.entry) - coster.content(item.entry)
    ratio = coster.content(item.entry) / max(1, item.entry.tokenCount)
    cap = int((room - overhead) / max(ratio, 1.0))
    for _ in range(SHRINK_STEPS):
        if cap <= 0:
            return None
        cut = render_under(item, cap)
        if cut is not None and coster.entry(cut) <= room:
            return cut
        cap = int(cap * SHRINK)
    return None


def _cover(
    items: list[Item], render_under: RenderUnder, coster: Coster, room: int
) -> list[b.BundleEntry | None] | None:
    """The first files, each under its water-filled share (None where a file's share holds
    nothing it has not sent already); None when even that overruns."""
    if not items:
        return []  # none to cover: the answer's own fields took its room (a task of blanks)
    naturals = [it.entry for it in items]
    contents = [coster.content(e) for e in naturals]
    if sum(coster.entry(e) for e in naturals) <= room:
        # all fit as rendered: what is left grows their spans (a reduced cover's few files)
        return _regrow(
            items, list(naturals), list(map(float, contents)), contents, render_under, coster, room
        )
    overheads = [coster.entry(e) - c for e, c in zip(naturals, contents, strict=True)]
    available = room - sum(overheads)
    if not is_cut(naturals[0]) and contents[0] <= TOP_WHOLE_SHARE * available:
        # the search's first file whole, the rest shared among the others
        shares = [float(contents[0]), *water_fill(contents[1:], available - contents[0])]
    else:
        shares = list(map(float, water_fill(contents, available)))
    scale = 1.0
    for _ in range(SHRINK_STEPS):
        scaled = [share * scale for share in shares]
        out = _render_shares(items, scaled, contents, render_under)
        if _spent(out, coster) <= room:
            return _regrow(items, out, scaled, contents, render_under, coster, room)
        scale *= SHRINK
    return None


def _render_shares(
    items: list[Item], shares: Sequence[float], contents: Sequence[int], render_under: RenderUnder
) -> list[b.BundleEntry | None]:
    """Each file whole where its share holds it, else rendered under its share."""
    out: list[b.BundleEntry | None] = []
    for it, share, content in zip(items, shares, contents, strict=True):
        if share >= content and (share == content or not is_cut(it.entry)):
            out.append(it.entry)
            continue
        ratio = content / max(1, it.entry.tokenCount)
        out.append(render_under(it, int(share / max(ratio, 1.0))))
    return out


def _spent(out: Sequence[b.BundleEntry | None], coster: Coster) -> int:
    return sum(coster.entry(e) for e in out if e is not None)


def _regrow(
    items: list[Item],
    out: list[b.BundleEntry | None],
    shares: list[float],
    contents: Sequence[int],
    render_under: RenderUnder,
    coster: Coster,
    room: int,
) -> list[b.BundleEntry | None]:
    """`out` with the room its cut files left unused (spans come whole, so a file rendered
    under its share usually takes less) shared among them again: more of the code that
    matters, and an envelope that weighs less against it."""
    part = 1.0
    for _ in range(REGROW_STEPS):
        left = room - _spent(out, coster)
        cut = [i for i, e in enumerate(out) if e is None or is_cut(e)]
        if not cut or left < REGROW_MIN * room:
            break
        wider = list(shares)
        for i in cut:
            wider[i] += part * left / len(cut)
        grown = [
            _larger(new, old, coster)
            for new, old in zip(
                _render_shares(items, wider, contents, render_under), out, strict=True
            )
        ]
        if _spent(grown, coster) > room:
            part /= 2  # a span too many came whole: offer less next round
            continue
        out, shares = grown, wider
    return out


def _larger(
    new: b.BundleEntry | None, old: b.BundleEntry | None, coster: Coster
) -> b.BundleEntry | None:
    """A file's rendering under a wider share, unless it carries less code than before: spans
    are chosen afresh for each share, and a wider one must never leave a file with less."""
    if old is None or (new is not None and coster.content(new) >= coster.content(old)):
        return new
    return old
