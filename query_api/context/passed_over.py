"""The files an outline bundle passed over: ranked above a file it sends, left out whole.

An outline is not cut (slices send a large file's spans, or its path), so at `detail:
outline` a file whose outline passes the budget is dropped and later, smaller files take its
place. On pallets/jinja, "preserve __slots__ on Undefined classes" at 6,000 tokens sent
utils.py and exceptions.py and said nothing of runtime.py, the first file of the search and
the one the change was in: an agent reads a bundle as the files that matter, best first.
The note names them, so the agent asks again at a level or budget that holds them.
"""

from __future__ import annotations

from collections.abc import Sequence

MAX_NAMED = 3  # files the note names; the rest are counted


def passed_over(planned: Sequence[str], sent: Sequence[str]) -> list[str]:
    """The files of `planned` (rank order) above the last one `sent` that were not sent."""
    at = {path: i for i, path in enumerate(planned)}
    last = max((at[path] for path in sent if path in at), default=-1)
    held = set(sent)
    return [path for path in planned[:last] if path not in held]


def passed_over_note(paths: Sequence[str]) -> str | None:
    """What the answer says of the files passed over, or None when there are none."""
    if not paths:
        return None
    retry = "detail slices or paths, or a larger responseBudgetTokens"
    if len(paths) == 1:
        return (
            f"{paths[0]} ranks above the files sent, but its outline does not fit the "
            f"budget: {retry}, sends it"
        )
    named = ", ".join(paths[:MAX_NAMED])
    more = f" and {len(paths) - MAX_NAMED} more" if len(paths) > MAX_NAMED else ""
    return (
        f"{named}{more} rank above the files sent, but their outlines do not fit the "
        f"budget: {retry}, sends them"
    )
