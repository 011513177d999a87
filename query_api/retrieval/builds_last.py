"""A committed build declares and calls every name of the sources it is built from: it is not
where a definition lives nor a user to change.

axios commits dist/axios.js, dist/esm/axios.js, dist/browser/axios.cjs and dist/node/axios.cjs
beside lib/: `where is mergeConfig defined` lifted the three bundles declaring it to the head
beside lib/core/mergeConfig.js (places 3-5, ahead of lib/core/Axios.js, its caller), and
`what calls buildFullPath` placed four bundles among lib's three callers, above the function's
own test. A definition query lifts a generated file only when no other file declares the name
(a protobuf message), and a users query lists the generated users after the others, unless the
query asks for generated files (`where is X defined in the generated code`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Set

from processors.tokenizer import tokenize
from query_api.retrieval.users_first import PLACED_REASONS
from schemas import tools as t
from streams.stores.views.search import GENERATED_WORDS, line_counts


def asks_generated(query: str) -> bool:
    """Whether the query names generated files (`the generated client`, `regenerate`)."""
    return not GENERATED_WORDS.isdisjoint(tokenize(query))


def generated_of(conn: sqlite3.Connection, repo_id: str, paths: Set[str]) -> set[str]:
    """The generated files among `paths` (one read)."""
    return line_counts(conn, repo_id, sorted(paths))[1] if paths else set()


def sources_over_builds(paths: set[str], generated: Set[str], query: str) -> set[str]:
    """`paths` less the generated ones when another file is among them and the query does
    not ask for generated files."""
    sources = paths - generated
    return paths if not sources or asks_generated(query) else sources


def users_before_builds(
    hits: list[t.SearchHit], generated: Set[str], query: str
) -> list[t.SearchHit]:
    """`hits` with the generated files of its head of placed users (a `uses:` or
    `implements:` first reason) moved after that head's other files, each keeping its
    order and score rank (a moved hit takes the score of the head's last hit)."""
    if not generated or asks_generated(query):
        return hits
    head = 0
    while head < len(hits) and _placed(hits[head]):
        head += 1
    built = [hit for hit in hits[:head] if hit.entry.path in generated]
    if not built or len(built) == head:
        return hits
    kept = [hit for hit in hits[:head] if hit.entry.path not in generated]
    floor = kept[-1].score
    moved = [hit.model_copy(update={"score": min(hit.score, floor)}) for hit in built]
    return [*kept, *moved, *hits[head:]]


def _placed(hit: t.SearchHit) -> bool:
    return bool(hit.reasons) and hit.reasons[0].startswith(PLACED_REASONS)
