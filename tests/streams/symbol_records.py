"""The records the processors derive from one file version, for view tests that feed real
processor output into real views."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from processors.base import ProcessContext
from processors.content import ContentProcessor
from processors.structural import StructuralProcessor
from processors.symbols.processor import SymbolsProcessor
from schemas.events import FileUpsert, file_key
from streams.stores import Record
from streams.stores.views.handlers import default_registry
from streams.stores.views.store import ViewStore


def records(path: str, body: str | None, repo_id: str = "r") -> list[Record]:
    """Everything the structural, content and symbols processors emit for one upsert of
    `path` (None = its deletion)."""
    event = None
    if body is not None:
        event = FileUpsert(
            repo_id=repo_id,
            path=path,
            digest=f"xx128:{hash(body) & 0xFFFF:x}",
            size=len(body),
            mtime_ns=1,
            body=body,
            observed_at=1.0,
        )
    key = file_key(repo_id, path)
    out: list[Record] = []
    for proc in (StructuralProcessor(), ContentProcessor(), SymbolsProcessor()):
        out += [(e.topic, e.key, e.value) for e in proc.process("f", key, event, ProcessContext())]
    return out


def views_holding(tmp_path: Path, files: Mapping[str, str]) -> ViewStore:
    """A views store (under `tmp_path`, to be closed by the caller: `with views_holding(...)`)
    holding `files` (path -> body) as the processors derive them, in repository `r`."""
    store = ViewStore(tmp_path / "views.db", default_registry())
    store.apply([rec for path, body in files.items() for rec in records(path, body)], {})
    return store
