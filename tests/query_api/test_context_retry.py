"""The retry budget's search (query_api/context/retry.py): the least budget that packs, found
by bisection below the safe bound, and one probe where the bound is already the least."""

from __future__ import annotations

import pytest

from query_api.context.retry import RETRY_PROBES, TIGHT, least_budget

pytestmark = pytest.mark.anyio


async def test_bisection_finds_the_least_budget_below_the_bound() -> None:
    asked: list[int] = []

    async def packs(budget: int) -> bool:
        asked.append(budget)
        return budget >= 355

    assert await least_budget(packs, 120, 2425) == 355
    assert len(asked) <= RETRY_PROBES + 1


async def test_a_bound_that_is_already_the_least_costs_one_probe() -> None:
    asked: list[int] = []

    async def packs(budget: int) -> bool:
        asked.append(budget)
        return budget >= 300

    assert await least_budget(packs, 100, 305) == 305
    assert asked == [305 - TIGHT]


async def test_never_above_the_bound_when_packing_is_not_monotone() -> None:
    async def packs(budget: int) -> bool:
        return budget % 2 == 0  # whatever the probes see, the answer stays within the bound

    got = await least_budget(packs, 10, 1000)
    assert 10 < got <= 1000
