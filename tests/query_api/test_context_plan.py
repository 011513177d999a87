"""How a bundle's plan spends its budget (query_api/context/plan.py): how many files it
covers for the envelope the answer can afford, which later files it admits, and that room
offered back to cut files never leaves one with less than it had."""

from __future__ import annotations

from query_api.context.plan import (
    COVER,
    ENVELOPE_SHARE,
    Coster,
    Item,
    Share,
    cover_count,
    plan,
)
from schemas import bundle as b


def count(text: str) -> int:
    return len(text) // 4


def entry(path: str, tokens: int, full: int | None = None) -> b.BundleEntry:
    content = "x = 1234567\n" * (tokens // 3)
    return b.BundleEntry(
        path=path,
        score=1.0,
        reasons=["keyword-fused", "content-match"],
        tokenCount=count(content),
        fullReadTokenCount=full if full is not None else count(content),
        content=content,
        units=[b.Unit(receipt="0123456789abcdef", kind="span", tokenCount=count(content))],
    )


def envelope(e: b.BundleEntry, coster: Coster) -> int:
    return coster.entry(e) - coster.content(e)


def test_a_small_budget_covers_fewer_files_with_more_of_their_code() -> None:
    coster = Coster(count)
    items = [Item(f"f{i}.py", entry(f"f{i}.py", 600, full=5000)) for i in range(8)]
    each = envelope(items[0].entry, coster)
    base = 200
    assert cover_count(items, coster, 200_000, base) == COVER
    small = cover_count(items, coster, 3000, base)
    assert small == int((ENVELOPE_SHARE * 3000 - base) // each) < COVER
    assert cover_count(items, coster, 500, base) == 1  # never none: an answer packs a file


def test_a_later_file_is_admitted_only_while_the_envelope_share_holds() -> None:
    coster = Coster(count)
    share = Share(envelope=140, total=1000)  # 14 %: at the bound
    thin = entry("thin.py", 3)  # a few tokens of code under a whole entry's fields
    thick = entry("thick.py", 900)
    assert not share.admits(thin, coster)
    assert share.admits(thick, coster)  # more code than envelope: the share falls
    share.add(thick, coster)
    assert share.envelope / share.total < 0.14


def test_room_offered_back_never_leaves_a_file_with_less() -> None:
    """Spans are chosen afresh for each share, and a wider share once made a file's spans
    overrun it and come back as nothing: the top file of a bundle was sent as its path."""
    coster = Coster(count)
    items = [Item(f"f{i}.py", entry(f"f{i}.py", 900, full=6000)) for i in range(5)]

    def render_under(item: Item, cap: int) -> b.BundleEntry | None:
        if item.key == "f0.py" and cap > 500:
            return None  # the overrun: nothing fits this wider share
        return entry(str(item.key), min(cap * 2 // 3, 900), full=6000)  # spans come whole

    planned = plan(items, render_under, coster, 5000, 200)
    first = planned.entries[0]
    assert first.path == "f0.py" and first.tokenCount > 100, first.tokenCount
    assert [e.path for e in planned.entries] == [f"f{i}.py" for i in range(5)]


def test_the_default_budget_always_covers_the_first_five_files() -> None:
    """The bundle's promise at the default budget is the search's first five files, however
    long their names and signatures make their envelopes."""
    coster = Coster(count)
    items = [Item(f"f{i}.py", entry(f"f{i}.py", 600, full=5000)) for i in range(8)]
    assert cover_count(items, coster, b.DEFAULT_BUDGET, base=b.DEFAULT_BUDGET) == COVER
    assert cover_count(items, coster, b.DEFAULT_BUDGET - 1, base=b.DEFAULT_BUDGET) == 1


def test_the_first_file_goes_whole_when_it_takes_at_most_half_the_room() -> None:
    """QA on spf13/pflag, `fix: allow hex input in UintSlice` at 8,192 tokens: the first
    file, uint_slice.go (~1,300 tokens), was cut to lines 113-168 by the even shares while
    the next four came whole; its `Set` and the parsing the fix changed were left out."""
    coster = Coster(count)
    first = entry("uint_slice.go", 1300)  # whole as rendered
    items = [Item("uint_slice.go", first)] + [
        Item(f"f{i}.go", entry(f"f{i}.go", 1300)) for i in range(1, 5)
    ]

    def render_under(item: Item, cap: int) -> b.BundleEntry | None:
        return entry(str(item.key), min(cap * 2 // 3, 1300), full=1300)

    planned = plan(items, render_under, coster, 8192, 300)
    assert planned.entries[0].path == "uint_slice.go"
    assert planned.entries[0].tokenCount == first.tokenCount  # whole, not cut
    assert [e.path for e in planned.entries] == [
        "uint_slice.go",
        *(f"f{i}.go" for i in range(1, 5)),
    ]
    # one that would take more than half of the room is shared out as before
    big = [Item(str(it.key), entry(str(it.key), 2600)) for it in items]
    cut = plan(big, render_under, coster, 8192, 300)
    assert cut.entries[0].tokenCount < big[0].entry.tokenCount
