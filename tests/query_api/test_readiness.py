"""Readiness phases (spec §5.1) and the 30 s fault hold-down, on an injected clock."""

from __future__ import annotations

from query_api.retrieval.readiness import Readiness
from schemas.retrieval import RetrievalPath as P


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_unbound_is_ready() -> None:
    r = Readiness(embedder_bound=False)
    assert r.verdict(has_repos=False)[:2] == ("nothing_registered", True)
    r.observe(P.KEYWORD_NO_EMBEDDER)
    assert r.verdict(has_repos=True)[:2] == ("keyword_only", True)


def test_bound_building_serving_and_hold_down() -> None:
    clock = Clock()
    r = Readiness(embedder_bound=True, clock=clock)
    assert r.verdict(has_repos=False)[:2] == ("nothing_registered", True)
    assert r.verdict(has_repos=True)[:2] == ("building", False)
    r.observe(P.KEYWORD_VECTOR_PLANE_UNAVAILABLE)
    assert r.verdict(has_repos=True)[:2] == ("building", False)
    r.observe(P.SEMANTIC_EXACT)
    assert r.verdict(has_repos=True)[:2] == ("serving", True)

    r.observe(P.KEYWORD_INDEX_DEGRADED)  # a fault: held down for 30 s
    clock.now += 29
    r.observe(P.KEYWORD_VECTOR_PLANE_UNAVAILABLE)
    assert r.verdict(has_repos=True)[:2] == ("serving", True)
    clock.now += 2  # persisted 31 s without a semantic success: revoked
    phase, ready, status = r.verdict(has_repos=True)
    assert (phase, ready) == ("building", False) and "no semantic answer" in status

    r.observe(P.SEMANTIC_APPROXIMATE)  # one success restores it at once
    assert r.verdict(has_repos=True)[:2] == ("serving", True)


def test_saturated_unavailable_when_the_admission_gate_refuses() -> None:
    clock = Clock()
    r = Readiness(embedder_bound=True, clock=clock)
    r.observe(P.KEYWORD_EXACT_FALLBACK_SUPPRESSED)  # refused before the plane ever answered
    phase, ready, status = r.verdict(has_repos=True)
    assert (phase, ready) == ("saturated_unavailable", False) and "capacity" in status
    r.observe(P.SEMANTIC_EXACT)  # clears by itself on the next answer in time
    assert r.verdict(has_repos=True)[:2] == ("serving", True)

    r.observe(P.KEYWORD_INDEX_DEGRADED)  # the scan stalls: the breaker opens...
    clock.now += 10
    r.observe(P.KEYWORD_EXACT_FALLBACK_SUPPRESSED)  # ...and withholds the plane
    assert r.verdict(has_repos=True)[:2] == ("serving", True)  # held down for 30 s
    clock.now += 21
    assert r.verdict(has_repos=True)[:2] == ("saturated_unavailable", False)
    r.observe(P.KEYWORD_VECTOR_PLANE_UNAVAILABLE)  # a different fault is not saturation
    assert r.verdict(has_repos=True)[:2] == ("building", False)
    r.observe(P.SEMANTIC_APPROXIMATE)
    assert r.verdict(has_repos=True)[:2] == ("serving", True)
