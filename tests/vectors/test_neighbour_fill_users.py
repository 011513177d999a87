"""A users query's answer keeps all its users at its head: the neighbour fill re-ranks only
what follows them. QA on mswjs/msw: `what calls isObject` and `who imports
src/core/utils/internal/isObject.ts` put isObject.ts, the declaring file, 6th, above two of
its seven users and its test: the first five users all import it, so the fill lifted it into
place 6 (docs/answers.md: the declaring file comes after the users)."""

from __future__ import annotations

from query_api.retrieval.file_hits import file_entry as _file_entry
from query_api.retrieval.neighbour_fill import fill_tail
from query_api.retrieval.users_first import REASON
from schemas import tools as t


def _hit(path: str, score: float, reasons: list[str]) -> t.SearchHit:
    return t.SearchHit(score=score, entry=_file_entry("repo", path, None), reasons=reasons)


def test_the_users_of_a_name_stay_ahead_of_its_neighbours() -> None:
    users = [f"src/user{i}.ts" for i in range(7)]
    hits = [_hit(path, 1.0, [REASON + "isObject", "content-match"]) for path in users]
    hits.append(_hit("src/isObject.ts", 1.0, ["symbol:isObject"]))
    hits.append(_hit("src/other.ts", 0.5, ["semantic"]))
    graph = {path: frozenset({"src/isObject.ts"}) for path in users[:5]}
    graph["src/isObject.ts"] = frozenset(users[:5])

    def hydrate(path: str) -> t.SearchHit | None:
        return _hit(path, 0.0, [])

    out = [h.entry.path for h in fill_tail(hits, graph, 10, hydrate)]
    assert out[:8] == [*users, "src/isObject.ts"], out
    assert out == [*users, "src/isObject.ts", "src/other.ts"], out  # each once
    # an answer without users keeps five and re-ranks the rest
    plain = [_hit(path, 1.0, ["content-match"]) for path in users] + hits[7:]
    out = [h.entry.path for h in fill_tail(plain, graph, 10, hydrate)]
    assert out.index("src/isObject.ts") == 5, out
