"""The bundle session store: union merge, TTL, bounds, durability across reopen."""

from __future__ import annotations

from pathlib import Path

import pytest

from streams.stores import sessions as sessions_module
from streams.stores.sessions import SessionStore


def test_union_ttl_and_reopen(tmp_path: Path) -> None:
    path = tmp_path / "sessions.db"
    store = SessionStore(path, ttl_s=100.0)
    store.merge("r", "s", {"a"}, {"p1"}, now=1000.0)
    store.merge("r", "s", {"b"}, set(), now=1001.0)  # a concurrent call's sets are unioned
    store.merge("other", "s", {"x"}, set(), now=1001.0)
    got = store.get("r", "s", now=1050.0)
    assert got.receipts == {"a", "b"} and got.possessions == {"p1"}
    store.close()

    reopened = SessionStore(path, ttl_s=100.0)  # a server restart keeps the session
    assert reopened.get("r", "s", now=1090.0).receipts == {"a", "b"}
    assert reopened.get("r", "s", now=1200.0).receipts == set()  # idle past the TTL
    reopened.merge("r", "s", {"c"}, set(), now=1201.0)  # an expired session starts afresh
    assert reopened.get("r", "s", now=1202.0).receipts == {"c"}
    assert reopened.get("other", "s", now=1202.0).receipts == set()  # swept as expired
    reopened.merge("other", "s", {"x"}, set(), now=1203.0)
    assert reopened.delete_repo("other") == 1
    assert reopened.get("other", "s", now=1204.0).receipts == set()
    reopened.close()


def test_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sessions_module, "MAX_ITEMS_PER_SESSION", 3)
    monkeypatch.setattr(sessions_module, "MAX_SESSIONS", 2)
    monkeypatch.setattr(sessions_module, "SWEEP_EVERY_S", 0.0)
    store = SessionStore(None, ttl_s=1e9)
    store.merge("r", "s", {"a", "b"}, {"p"}, now=1.0)
    store.merge("r", "s", {"c", "d"}, set(), now=2.0)  # full: later items are not recorded
    got = store.get("r", "s", now=3.0)
    assert got.possessions == {"p"} and len(got.receipts) == 2
    store.merge("r", "t", {"x"}, set(), now=4.0)
    store.merge("r", "u", {"y"}, set(), now=5.0)
    assert store.get("r", "u", now=6.0).receipts == {"y"}  # the sweep evicts the LRU session
    assert store.get("r", "s", now=6.0).receipts == set()
    assert store.get("r", "t", now=6.0).receipts == {"x"}
    store.close()
