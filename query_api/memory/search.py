"""Memory in search and context answers.

- Keyword: live entries ranked by BM25 (streams/stores/views/memory_search) become hits whose
  entry is the shared entry view with expiry and staleness null (a bulk read, spec §1.3).
- Semantic: a memory passage hydrates from the memory view per key, so expiry is evaluated
  (and an entry that expired since it was embedded is dropped); staleness is not.
- Linked memory (beyond the reference): each file or symbol hit carries up to
  `LINKED_LIMIT` live entries of the same repository that link to that file, to a symbol it
  declares, or to that symbol, each as key/kind/topic/summary/stale. Only the hit's own
  repository is consulted, and `stale` counts only links the caller may read (the reader
  applies the caller's grants, query_api/access/read_scope.py).
"""

from __future__ import annotations

from query_api.memory.views import MemoryReader
from schemas import tools as t
from schemas.memory import MemoryEntry, parse_memory_key
from streams.stores.vectors import VectorMatch

LINKED_LIMIT = 3
SUMMARY_CHARS = 160


def summary_of(entry: MemoryEntry) -> str:
    """The title, else the body's first non-blank line, at most SUMMARY_CHARS characters."""
    text = entry.fields.get("title", "").strip()
    if not text:
        body = entry.fields.get("body", "")
        text = next((line.strip() for line in body.splitlines() if line.strip()), "")
    text = " ".join(text.split())
    return text if len(text) <= SUMMARY_CHARS else text[: SUMMARY_CHARS - 1] + "…"


def keyword_memory_hits(
    reader: MemoryReader, repo_id: str, query: str, k: int, now: float
) -> list[t.SearchHit]:
    return [
        t.SearchHit(
            score=hit.score,
            entry=reader.memory_view(hit.entry, None, evaluate=False),
            vectorId=None,
            reasons=list(hit.reasons),
        )
        for hit in reader.memory.search(repo_id, query, k, now)
    ]


def semantic_memory_hit(reader: MemoryReader, match: VectorMatch, now: float) -> t.SearchHit | None:
    """Hydrate a memory passage's entry per key; None when it is gone or expired since."""
    key = str(match.payload.get("source_key", ""))
    entry = reader.live_entry(key, now) if parse_memory_key(key) else None
    if entry is None:
        return None
    view = reader.memory_view(entry, now, evaluate=True)
    view = view.model_copy(update={"stale": None, "staleLinks": None})  # not evaluated here
    reasons = ["semantic", "chunk:memory", f"topic:{entry.topic}"]
    return t.SearchHit(score=match.score, entry=view, vectorId=match.id, reasons=reasons)


def linked_for(
    reader: MemoryReader, repo_id: str, path: str | None, fq_name: str | None, now: float
) -> list[t.LinkedMemory]:
    """Live entries linked to a file (or one of its symbols) or to a symbol, bounded."""
    targets: list[str] = []
    if fq_name:
        targets.append(f"repo/{repo_id}/symbol/{fq_name}")
    if path:
        targets += [f"repo/{repo_id}/file/{path}", f"repo/{repo_id}/content/{path}"]
    file_path = path if path and not fq_name else None
    entries = reader.linked(repo_id, targets, now, LINKED_LIMIT, file_path)
    return [
        t.LinkedMemory(
            key=e.key,
            kind=e.kind,
            topic=e.topic,
            summary=summary_of(e),
            stale=bool(reader.stale_links(e)),
        )
        for e in entries
    ]


def attach_linked(reader: MemoryReader, hits: list[t.SearchHit], now: float) -> list[t.SearchHit]:
    """Every file/symbol hit with its linked memory ([] when none); other hits unchanged."""
    out = []
    for hit in hits:
        entry = hit.entry
        if entry.kind in ("File", "Symbol") and entry.repoId:
            path = entry.path or entry.fields.get("filePath")
            linked = linked_for(reader, entry.repoId, path, entry.fullyQualifiedName, now)
            hit = hit.model_copy(update={"linkedMemory": linked})
        out.append(hit)
    return out


def shown_above(hits: list[t.SearchHit]) -> set[str]:
    """The keys of the memory hits of `hits` (attach_linked's answer) that a file or symbol
    hit ranked above them carries as linked memory: the answer already names them, and a
    hit of their own spends a slot of `k` on it again (uvicorn's k=2 search answered a file
    and, second, the note linked to that file)."""
    carried: set[str] = set()
    shown: set[str] = set()
    for hit in hits:
        if hit.entry.kind == "Memory" and hit.entry.key in carried:
            shown.add(hit.entry.key)
        carried.update(m.key for m in hit.linkedMemory or [])
    return shown
