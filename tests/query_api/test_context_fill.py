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
