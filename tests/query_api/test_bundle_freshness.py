"""The freshness a context bundle carries (query_api/context/receipts.py): brief when the
views are caught up, whole whenever it has something to say, and grown to its largest for
the budget a retry is promised."""

from __future__ import annotations

from query_api.answers.freshness import brief_freshness
from query_api.context.receipts import worst_freshness
from schemas import tools as t


def test_caught_up_views_say_so_by_events_behind_alone() -> None:
    fresh = t.Freshness(appliedOffsets=1368, logEndOffsets=1368, eventsBehind=0, secondsBehind=0.0)
    brief = brief_freshness(fresh)
    assert brief.eventsBehind == 0
    assert brief.appliedOffsets is None and brief.logEndOffsets is None
    assert brief.secondsBehind is None


def test_lagging_views_keep_every_figure() -> None:
    fresh = t.Freshness(appliedOffsets=489, logEndOffsets=1415, eventsBehind=926, secondsBehind=2.5)
    brief = brief_freshness(fresh)
    assert (brief.appliedOffsets, brief.logEndOffsets, brief.eventsBehind) == (489, 1415, 926)
    assert brief.secondsBehind == 2.5


def test_an_unreachable_log_keeps_the_last_measured_offsets() -> None:
    """0 events behind is then only the last measurement: the offsets say which one."""
    fresh = t.Freshness(
        appliedOffsets=7, logEndOffsets=7, eventsBehind=0, logReachable=False,
        logUnreachableSince="2026-12-04T22:47:47Z",
    )  # fmt: skip
    brief = brief_freshness(fresh)
    assert (brief.appliedOffsets, brief.logEndOffsets) == (7, 7)
    assert brief.logUnreachableSince == fresh.logUnreachableSince


def test_what_a_brief_freshness_can_grow_to_is_the_whole_one() -> None:
    """A retry budget is computed with the freshness at its largest: a brief one grows back
    to every figure, since the next call may find the views behind."""
    brief = brief_freshness(t.Freshness(appliedOffsets=3, logEndOffsets=3, eventsBehind=0))
    worst = worst_freshness(brief)
    assert worst.appliedOffsets == worst.logEndOffsets == worst.eventsBehind == 10**12
    assert worst.secondsBehind is not None and worst.secondsBehind > 0
