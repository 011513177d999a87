"""A test file never outranks the file it tests, unless the query asks for tests.

The role prior (streams/stores/views/search.py, ladder.py) pushes tests down, but a query whose
words only the tests hold still ranks them: "improve french translation" finds the French
locale's test by its `describe("French")`, while the locale file itself holds French messages
and not the word. The change goes into the subject. So each test file in an answer has its
subject (the file it tests by the naming convention, the rule related's `tests` reads too:
query_api/symbols/tested_by.subject_of_test) placed just above it, with its score and the
reason `tested-by:<the test's path>`.
"""

from __future__ import annotations

from collections.abc import Callable

from processors.path_roles import Role, role_of
from schemas import tools as t
from schemas.retrieval import MAX_REASONS

FindSubject = Callable[[str], str | None]  # a test's path -> its subject's, if indexed
Hydrate = Callable[[str], t.SearchHit | None]  # a path -> a hit for it (None: gone)
REASON = "tested-by:"  # + the path of the test the subject was placed above


def subjects_first(
    hits: list[t.SearchHit],
    k: int,
    find: FindSubject,
    hydrate: Hydrate,
    pool: list[t.SearchHit] | None = None,
) -> list[t.SearchHit]:
    """`hits` (best first, at most `k` kept) with each test file's subject just above it:
    moved up from lower in the answer, taken from `pool` (the ranking before `hits` was cut
    to `k`, where the subject has its own reasons), or brought in when neither has it."""
    out = list(hits)
    placed: set[str] = set()
    i = 0
    while i < min(len(out), k):
        hit = out[i]
        path = hit.entry.path
        i += 1
        if hit.entry.kind != "File" or not path or role_of(path) != Role.TEST:
            placed.add(path or "")
            continue
        subject = find(path)
        if subject is None or subject in placed:
            continue
        if place_above(out, i - 1, subject, REASON + path, pool, hydrate, reason_first=False):
            placed.add(subject)
            i += 1  # past the test again
    return out[:k]


def place_above(
    out: list[t.SearchHit],
    at: int,
    path: str,
    why: str,
    pool: list[t.SearchHit] | None,
    hydrate: Hydrate,
    *,
    reason_first: bool,
) -> bool:
    """Put `path`'s hit at `at` in `out` (the hit there moves down one), with that hit's score
    and the reason `why` (first or last of its reasons): moved up from lower in `out`, taken
    from `pool`, or brought in by `hydrate`. False when none of them has it."""
    lower = next((j for j in range(at + 1, len(out)) if out[j].entry.path == path), None)
    found = out.pop(lower) if lower is not None else pooled(pool, path, hydrate)
    if found is None:
        return False
    reasons = list(found.reasons)
    if why not in reasons:
        kept = reasons[: MAX_REASONS - 1]
        reasons = [why, *kept] if reason_first else [*kept, why]
    out.insert(at, found.model_copy(update={"score": out[at].score, "reasons": reasons}))
    return True


def pooled(pool: list[t.SearchHit] | None, path: str, hydrate: Hydrate) -> t.SearchHit | None:
    found = next((h for h in pool or () if h.entry.path == path), None)
    return found if found is not None else hydrate(path)
