"""Memory passages (spec §2.5): kind, topic/id, title, tags and body, windowed like files;
none for a forgotten or expired entry, so the vector step retires its vectors."""

from __future__ import annotations

from processors.vectors import MAX_WINDOWS, WINDOW, memory_passages, windows
from schemas.memory import MemoryEntry

KEY = "repo/r/mem/decisions/db"


def entry(**kw: object) -> MemoryEntry:
    base: dict[str, object] = {
        "repo_id": "r",
        "topic": "decisions",
        "id": "db",
        "kind": "Decision",
        "fields": {"title": "Use SQLite", "body": "Embedded default."},
        "tags": ["storage", "adr"],
        "created_at": 1.0,
        "updated_at": 1.0,
    }
    return MemoryEntry.model_validate(base | kw)


def test_text_and_identity() -> None:
    [p] = memory_passages(entry(), KEY, now=10.0)
    assert p.kind == "memory" and p.source_key == KEY and p.path == KEY and p.idx == 0
    assert p.repo_id == "r" and p.fq is None
    assert p.text == "decision decisions/db\nUse SQLite\ntags: adr, storage\nEmbedded default."


def test_long_bodies_are_windowed_like_files() -> None:
    body = "word " * (WINDOW * 3)
    passages = memory_passages(entry(fields={"body": body}), KEY, now=10.0)
    text = "decision decisions/db\ntags: adr, storage\n" + body
    assert [(p.idx, p.text) for p in passages] == windows(text)
    assert 1 < len(passages) <= MAX_WINDOWS


def test_gone_or_expired_entries_have_none() -> None:
    assert memory_passages(None, KEY, now=10.0) == []
    assert memory_passages(entry(expires_at=10.0), KEY, now=10.0) == []
    assert len(memory_passages(entry(expires_at=11.0), KEY, now=10.0)) == 1
