"""What a large budget buys once the plan is packed: whole files, then the ranking's next files.

The plan (plan.py) sends a large file as the spans that matter, which keeps the first five
files in view at the default budget. At a budget of tens of thousands of tokens that leaves
most of it unused: a 200,000-token bundle of ripgrep's flags question packed 9 files, ~7,000
tokens of code, because `top` stopped at 10 files and every large file stopped at its spans.
The room the plan leaves is spent here: first on the planned files' whole stored bodies, in
rank order, each when it fits; then on the ranking's next files, each whole when it fits,
else cut to what is left, up to MAX_FILES files in all (the search pool the bundle draws
from). Nothing the plan packed is dropped or reordered, so the first files of an answer are
the same at every budget that holds them.
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

WholeOf = Callable[[object], b.BundleEntry | None]


def fill(
    packed: Sequence[tuple[object, b.BundleEntry]],
    later: Iterable[Item],
    whole_of: WholeOf,
    render_under: RenderUnder,
    coster: Coster,
    room: int,
    share: Share,
) -> list[b.BundleEntry]:
    """`packed` (key, entry) in rank order with its cut files grown whole where `room`
    (answer tokens) holds them, then `later` files (rendered whole where they can be) added
    in rank order while room is left and the answer's envelope `share` allows."""
    out = [entry for _, entry in packed]
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
    misses = 0
    for item in later:
        if len(out) >= MAX_FILES or room < MIN_ROOM or misses >= MAX_MISSES:
            break
        cost = coster.entry(item.entry)
        if cost <= room:
            chosen: b.BundleEntry | None = item.entry
        else:
            chosen = under(item, render_under, coster, room)
        if chosen is not None and not slight(chosen, coster) and share.admits(chosen, coster):
            out.append(chosen)
            room -= coster.entry(chosen)
            share.add(chosen, coster)
            misses = 0
        else:
            misses += 1
    return out
