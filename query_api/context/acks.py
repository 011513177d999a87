"""How many reuse acknowledgements a bundle lists, and what each one costs.

In a session, a unit the caller was sent before is left out of the answer and acknowledged in
`reused` (spec §3.7: its code costs no budget). The acknowledgement itself travels, though: its
JSON in the structured content and a line in the text block, about 50 tokens. A session that
was sent a large bundle and asks again at a small budget drew one acknowledgement for every
file of the search's 50-hit pool it held: a QA pass saw 31 of them, 1,971 tokens, in an answer
at a budget of 200 that said `responseTokens: 0` and packed nothing at 2,100.

So the acknowledgements are counted like everything else on the wire, and take at most
ACK_SHARE of the budget the answer's own fields leave: the first ones in rank order (the files
most about the task); the answer's note says how many more it held back. The code they stand
for is still never charged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from query_api.answers.render import compact_json, pruned
from query_api.answers.text import reused_line
from schemas import bundle as b

ACK_SHARE = 0.25  # of the budget left after the answer's own fields
ACK_FRAME = 3  # the comma between two acknowledgements and the text block's newline


def ack_cost(ack: b.Reused, count: Callable[[str], int]) -> int:
    """Wire tokens one acknowledgement adds: its JSON, its text line and their separators."""
    return count(compact_json(pruned(ack))) + count(reused_line(ack)) + ACK_FRAME


def acks_within(
    acks: Sequence[b.Reused], allowance: int, count: Callable[[str], int]
) -> tuple[list[b.Reused], int]:
    """The first `acks` (rank order) whose cost fits `allowance` tokens, and how many were
    left out. A prefix, not the cheapest ones: the first files are the ones the task is
    about."""
    kept: list[b.Reused] = []
    spent = 0
    for ack in acks:
        cost = ack_cost(ack, count)
        if spent + cost > allowance:
            break
        kept.append(ack)
        spent += cost
    return kept, len(acks) - len(kept)


def unlisted_note(unlisted: int) -> str | None:
    """What the answer says about the acknowledgements it held back."""
    if unlisted <= 0:
        return None
    return (
        f"{unlisted} more acknowledgement{'s' if unlisted != 1 else ''} of code this session "
        f"holds left out of reused (they may take a quarter of the budget)"
    )


def with_note(note: str | None, extra: str | None) -> str | None:
    """Two notes as one (either may be absent)."""
    return "; ".join(n for n in (note, extra) if n) or None
