"""The `import` command's merge rule (memory export/import) as a pure function: the newer
updatedAt wins wholesale, a tie keeps the local entry and writes nothing, expired entries are
skipped, and claim registers never travel."""

from __future__ import annotations

from typing import Any

from schemas import topics
from schemas.memory import MemoryEntry
from tests.processors.test_memory_processor import T0, Driver, cmd


def exported(updated: float, **kw: Any) -> MemoryEntry:
    base = {
        "repo_id": "r",
        "topic": "backlog",
        "id": "item",
        "kind": "Decision",
        "fields": {"title": f"v{updated}"},
        "tags": ["a"],
        "links": {"about": ["repo/r/file/x.py"]},
        "link_digests": {"repo/r/file/x.py": "d1"},
        "created_at": T0,
        "updated_at": updated,
    }
    return MemoryEntry.model_validate({**base, **kw})


def memory_writes(d: Driver) -> int:
    return sum(1 for topic, _, _ in d.outputs if topic == topics.MEMORY.name)


def test_import_creates_then_a_tie_changes_nothing() -> None:
    d = Driver()
    first = d.run(cmd("import", 1, entry=exported(T0 + 5)))
    assert first.ok and first.data == {"imported": True, "created": True}
    assert d.entry.fields == {"title": f"v{T0 + 5}"} and d.entry.link_digests
    assert d.entry.updated_at == T0 + 5 and d.entry.fence == 0
    again = d.run(cmd("import", 2, entry=exported(T0 + 5)))
    assert again.data == {"imported": False, "reason": "unchanged"}
    assert memory_writes(d) == 1, "re-importing must not write memory.v1"


def test_newer_local_wins_and_a_newer_import_keeps_the_claim() -> None:
    d = Driver()
    d.run(cmd("remember", 10, fields={"title": "local"}))  # updated_at T0 + 10
    older = d.run(cmd("import", 11, entry=exported(T0 + 3)))
    assert older.data == {"imported": False, "reason": "local_newer"}
    assert d.entry.fields["title"] == "local"

    granted = d.run(cmd("claim", 12, owner="agent-a"))
    assert granted.data["granted"] is True
    fence = d.entry.fence
    newer = d.run(cmd("import", 13, entry=exported(T0 + 50, fence=999, owner="elsewhere")))
    assert newer.data == {"imported": True, "created": False}
    assert d.entry.fields == {"title": f"v{T0 + 50}"} and d.entry.kind == "Decision"
    assert (d.entry.fence, d.entry.lock_owner) == (fence, "agent-a")  # registers stay local


def test_expired_entries_and_foreign_keys_are_not_imported() -> None:
    d = Driver()
    skipped = d.run(cmd("import", 20, entry=exported(T0, expires_at=T0 + 1)))
    assert skipped.ok and skipped.data == {"imported": False, "reason": "expired"}
    wrong = d.run(cmd("import", 21, entry=exported(T0, id="other")))
    assert not wrong.ok and wrong.error == "invalid"
    assert memory_writes(d) == 0

    live = d.run(cmd("import", 22, entry=exported(T0 + 1, expires_at=T0 + 3600)))
    assert live.data["imported"] is True and d.entry.expires_at == T0 + 3600
