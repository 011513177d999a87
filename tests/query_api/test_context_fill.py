"""The fill of a bundle's leftover room (query_api/context/fill.py): later files in rank
order while they fit, and a bounded number of tries once they stop fitting, since each try
renders a whole file and cuts it down (a default-budget bundle tried ~35 files that way)."""

from __future__ import annotations

from query_api.context.fill import MAX_MISSES, fill
from query_api.context.plan import Coster, Item, Share
from schemas import bundle as b


def entry(path: str, lines: int) -> b.BundleEntry:
    content = "\n".join(f"value_{path}_{n} = compute({n})" for n in range(lines))
    return b.BundleEntry(
        path=path,
        score=1.0,
        reasons=[],
        tokenCount=len(content) // 4,
        fullReadTokenCount=len(content) // 4,
        content=content,
        contentHash="h",
        units=[],
    )


def count(text: str) -> int:
    return len(text) // 4


def run_fill(later: list[b.BundleEntry], room: int) -> tuple[list[str], int]:
    """The paths filled, and how many later files were tried under a cap."""
    tried: set[object] = set()

    def render_under(item: Item, cap: int) -> b.BundleEntry | None:
        tried.add(item.key)
        return None  # no cut of these files is worth sending

    items = [Item(e.path, e) for e in later]
    out = fill([], items, lambda key: None, render_under, Coster(count), room, Share(0, 0))
    return [e.path for e in out], len(tried)


def test_later_files_fill_in_rank_order_while_they_fit() -> None:
    later = [entry("a.py", 40), entry("b.py", 40), entry("c.py", 40)]
    paths, _ = run_fill(later, 10_000)
    assert paths == ["a.py", "b.py", "c.py"]


def test_the_fill_stops_after_a_few_files_in_a_row_do_not_fit() -> None:
    big = [entry(f"big{n}.py", 400) for n in range(10)]
    small = entry("small.py", 40)
    paths, tried = run_fill([*big, small], 1_000)
    assert paths == []  # the small file comes after MAX_MISSES misses in a row
    assert tried == MAX_MISSES
    paths, _ = run_fill([*big[: MAX_MISSES - 1], small], 1_000)
    assert paths == ["small.py"]  # a fit resets the count


def span_entry(path: str, first: int, last: int) -> b.BundleEntry:
    """A cut entry sending lines first..last of a 1,000-line file."""
    content = "\n".join(f"value_{path}_{n} = compute({n})" for n in range(first, last + 1))
    made = b.BundleEntry(
        path=path,
        score=1.0,
        reasons=[],
        tokenCount=count(content),
        fullReadTokenCount=10_000,
        content=content,
        units=[],
    )
    made._spans = ((first, last, None),)
    return made


def widen(key: object, e: b.BundleEntry, wanted: int) -> b.BundleEntry | None:
    """The entry's one span grown evenly on both sides to `wanted` lines."""
    [(a, z, _)] = e._spans
    grow = max(0, wanted - (z - a + 1))
    if not grow:
        return None
    return span_entry(e.path, max(1, a - grow // 2), z + grow - grow // 2)


def fill_room(
    packed: list[b.BundleEntry], later: list[b.BundleEntry], room: int, widening: bool = True
) -> list[b.BundleEntry]:
    """fill() with nothing grown whole nor cut, and the spans widened as `widen` does."""
    return fill(
        [(e.path, e) for e in packed],
        [Item(e.path, e) for e in later],
        lambda key: None,
        lambda it, cap: None,
        Coster(count),
        room,
        Share(0, 0),
        widen if widening else None,
    )


def test_room_no_further_file_takes_widens_the_spans_sent() -> None:
    """gin's recovery.go went out as 71 lines of a 2,000-token answer that left 530 tokens
    unused: no later file fitted, and the spans sent stayed as the plan cut them."""
    coster = Coster(count)
    first = span_entry("recovery.go", 134, 204)
    room = 600
    [grown] = fill_room([first], [], room)
    assert grown._spans[0][0] < 134 and grown._spans[0][1] > 204  # every line it held, and more
    extra = coster.entry(grown) - coster.entry(first)
    assert 0.9 * room < extra <= room  # most of the room, never more
    # a later file that fits comes first: only the room it leaves widens the spans
    out = fill_room([first], [entry("later.py", 20)], room)
    assert [e.path for e in out] == ["recovery.go", "later.py"]
    assert sum(coster.entry(e) for e in out) - coster.entry(first) <= room
    # two cut files share the room
    second = span_entry("other.go", 500, 540)
    out = fill_room([first, second], [], room)
    assert all(len(e._spans) == 1 for e in out)
    assert out[0]._spans != first._spans and out[1]._spans != second._spans
    # without a way to widen, the spans stay as they were
    assert fill_room([first], [], room, widening=False) == [first]


def test_a_thin_file_joins_an_answer_whose_envelope_share_it_lowers() -> None:
    """QA on console-rs/indicatif: at 2,000 tokens `what calls MultiProgress::println` sent
    one small file whole and left 650 tokens unused, the next files' cuts being too thin
    (their code under EFFICIENCY times their envelope). Such a file joins an answer whose
    envelope share it lowers, and only such an answer."""
    thin = entry("thin.py", 12)  # 17 % of its own tokens are envelope: slight
    coster = Coster(count)

    def filled(share: Share) -> list[str]:
        items = [Item(thin.path, thin)]
        out = fill([], items, lambda key: None, lambda i, c: None, coster, 1_000, share)
        return [e.path for e in out]

    assert filled(Share(0, 0)) == []  # an answer with no envelope yet: it would raise it
    assert filled(Share(90, 1_000)) == []  # 9 % before: it raises the share
    assert filled(Share(240, 1_350)) == ["thin.py"]  # 17.8 % before: it lowers it


def test_a_thin_file_takes_only_the_room_fuller_files_leave() -> None:
    """A thin file ranked first never takes the room of a later file that carries more: at
    2,000 tokens zustand's `unstable ssrSafe middleware` sent a small whole file in the room
    that had held persist.ts's span, and its envelope share rose."""
    thin, full = entry("thin.py", 12), entry("full.py", 40)
    coster = Coster(count)

    def filled(room: int) -> list[str]:
        items = [Item(thin.path, thin), Item(full.path, full)]
        out = fill([], items, lambda key: None, lambda i, c: None, coster, room, Share(400, 1_350))
        return [e.path for e in out]

    one = coster.entry(full) + coster.entry(thin) // 2  # room for one of them
    assert filled(one) == ["full.py"]
    both = coster.entry(full) + coster.entry(thin)
    assert filled(both) == ["thin.py", "full.py"]  # each lowers the share: in rank order
