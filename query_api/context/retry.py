"""The least budget at which a bundle that packed nothing would pack an entry (spec §3.7's
`retryBudgetTokens`, "the cheapest single entry cost + reserve").

The cost model's bound (the cheapest entry as its level renders it with no share imposed,
plus the answer's own fields) always fits, but it overshoots wherever the plan would cut
that file to a share: a file sent as its spans, or a span cut shorter, packs at far less
(a QA pass was offered 877 tokens where 350 packed, and an agent that retries pays the
difference in its context). So the bound is searched down by bisection between the empty
answer's cost, below which nothing packs, and the bound itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

# probes of one answer that packed nothing: each packs the candidates again at a budget,
# and 12 halvings take a 200,000-token range to within a hundred tokens
RETRY_PROBES = 12
# the bound is first tried this much lower: where it is already the least (a path, or an
# entry no share cuts) one probe says so, instead of a bisection's dozen
TIGHT = 16


async def least_budget(packs: Callable[[int], Awaitable[bool]], low: int, high: int) -> int:
    """The least budget in (`low`, `high`] at which `packs` holds, `high` being one at which it
    is taken to hold (the safe bound): bisection, so the answer is the least one found when
    packing grows with the budget, and never above `high` when it does not."""
    if high - low > TIGHT:
        if not await packs(high - TIGHT):
            return high
        high -= TIGHT
    for _ in range(RETRY_PROBES):
        if high - low <= 1:
            break
        middle = (low + high) // 2
        if await packs(middle):
            high = middle
        else:
            low = middle
    return high
