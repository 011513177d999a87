"""What a large budget buys once the plan is packed: whole files, then the ranking's next files.

The plan (plan.py) sends a large file as the spans that matter, which keeps the first five
files in view at the default budget. At a budget of tens of thousands of tokens that leaves
most of it unused: a 200,000-token bundle of ripgrep's flags question packed 9 files, ~7,000
tokens of code, because `top` stopped at 10 files and every large file stopped at its spans.
The room the plan leaves is spent here: first on the planned files' whole stored bodies, in
rank order, each when it fits; then on the ranking's next files, each whole when it fits,
else cut to what is left, up to MAX_FILES files in all (the search pool the bundle draws
from); and what is still left (no further file fitted) on the cut files' spans, widened on
both sides: gin's recovery.go went out as 71 lines of a 2,000-token answer that left 530
tokens unused. Nothing the plan packed is dropped or reordered, so the first files of an
answer are the same at every budget that holds them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from query_api.context.plan import Coster, Item, RenderUnder, Share, is_cut, slight, under
from schemas import bundle as b

MAX_FILES = 50  # files in one bundle at most: the search pool it draws from
MIN_ROOM = 64  # answer tokens below which no further file is tried
# later files tried in a row without one fitting, before the fill stops: each try renders a
# whole file and cuts it down, and once the room is small the next 40 files fare the same
MAX_MISSES = 3
WIDEN_STEPS = 6  # renders that look for the widest spans the room holds (a binary search)

WholeOf = Callable[[object], b.BundleEntry | None]
# (key, entry, lines): the entry with its spans widened to hold that many lines, or None
Widen = Callable[[object, b.BundleEntry, int], b.BundleEntry | None]


def fill(
    packed: Sequence[tuple[object, b.BundleEntry]],
    later: Iterable[Item],
    whole_of: WholeOf,
    render_under: RenderUnder,
    coster: Coster,
    room: int,
    share: Share,
    widen: Widen | None = None,
) -> list[b.BundleEntry]:
    """`packed` (key, entry) in rank order with its cut files grown whole where `room`
    (answer tokens) holds them, then `later` files (rendered whole where they can be) added
    in rank order while room is left and the answer's envelope `share` allows, then the cut
    files' spans widened into the room still left (`widen`)."""
    out = [entry for _, entry in packed]
    keys = [key for key, _ in packed]
    for i, (key, entry) in enumerate(packed):
        if room < MIN_ROOM:
            break
        if not is_cut(entry):
            continue
        grown = whole_of(key)
        if grown is None:
            continue
        extra = coster.entry(grown) - coster.entry(entry)
        if extra <= room:
            out[i] = grown
            room -= extra
            share.swap(entry, grown, coster)
    added, room = _later_files(later, render_under, coster, room, share, MAX_FILES - len(out))
    out += [entry for _, _, entry in added]
    keys += [key for _, key, _ in added]
    return out if widen is None else _widened(keys, out, widen, coster, room)


Ranked = tuple[int, object, b.BundleEntry]  # (rank among the later files, key, entry)


def _later_files(
    later: Iterable[Item],
    render_under: RenderUnder,
    coster: Coster,
    room: int,
    share: Share,
    most: int,
) -> tuple[list[Ranked], int]:
    """The later files that join (in rank order) and the room they leave: each rendered
    whole where it fits, else cut to the room, joining while its code outweighs its envelope
    EFFICIENCY times over (plan.slight) and the share allows; then, in the room none of those
    took, the thin ones that lower the answer's envelope share. An answer already past the
    share (a small file sent whole at 2,000 tokens) is better with their code than with the
    room unused (QA on indicatif: `what calls MultiProgress::println` sent examples/multi.rs
    alone and left 650 of 2,000 tokens), and they come second so that they never take the
    room of a file that carries more (zustand's `ssrSafe` request)."""
    added: list[Ranked] = []
    thin: list[Ranked] = []
    misses = 0
    for rank, item in enumerate(later):
        if len(added) >= most or room < MIN_ROOM or misses >= MAX_MISSES:
            break
        cost = coster.entry(item.entry)
        chosen = item.entry if cost <= room else under(item, render_under, coster, room)
        if chosen is not None and not slight(chosen, coster) and share.admits(chosen, coster):
            added.append((rank, item.key, chosen))
            room -= coster.entry(chosen)
            share.add(chosen, coster)
            misses = 0
        else:
            misses += 1
            if chosen is not None:
                thin.append((rank, item.key, chosen))
    for rank, key, entry in thin:
        if len(added) >= most or room < MIN_ROOM:
            break
        if coster.entry(entry) <= room and share.lowers(entry, coster):
            added.append((rank, key, entry))
            room -= coster.entry(entry)
            share.add(entry, coster)
    return sorted(added, key=lambda ranked: ranked[0]), room


def _widened(
    keys: Sequence[object], out: list[b.BundleEntry], widen: Widen, coster: Coster, room: int
) -> list[b.BundleEntry]:
    """`out` with its cut files' spans widened in rank order, the room split evenly among
    those not yet widened (one that takes less leaves more to the next)."""
    cut = [i for i, e in enumerate(out) if is_cut(e) and e._spans]
    for n, i in enumerate(cut):
        if room < MIN_ROOM:
            break
        got = _widest(keys[i], out[i], widen, coster, room // (len(cut) - n))
        if got is not None:
            room -= coster.entry(got) - coster.entry(out[i])
            out[i] = got
    return out


def _widest(
    key: object, entry: b.BundleEntry, widen: Widen, coster: Coster, room: int
) -> b.BundleEntry | None:
    """The entry with its spans widened to the most lines `room` more answer tokens hold
    (a binary search over the lines), or None when not one more line fits."""
    held = sum(z - a + 1 for a, z, _ in entry._spans)
    per_line = max(1.0, coster.content(entry) / max(1, held))
    low, high = held, held + int(room / per_line) + 1  # a line costs at least per_line
    best = None
    for _ in range(WIDEN_STEPS):
        if high - low <= 1:
            break
        mid = (low + high) // 2
        got = widen(key, entry, mid)
        if got is not None and coster.entry(got) - coster.entry(entry) <= room:
            best, low = got, mid
        else:
            high = mid
    return best
