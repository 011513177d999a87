"""Keep an in-process Qdrant shard's operation numbers ahead of what its segments applied.

The shard numbers each write from its write-ahead log and skips a write whose number a segment
already records as applied (that is how a replayed log stays idempotent). The HNSW build
(vectors.py `build_index`) optimizes a copy of the shard in a child process and swaps it in:
the built segment keeps the highest number the old segments saw, while the log the swapped
shard opens with numbers its writes from the start again. Every delete and update of a point
in the built segment was then skipped until the numbers caught up: a QA pass deleted 2,000
files after a build and their vectors stayed, through restarts, while search fell back to
keyword answers ("index drift").

`catch_up` spends, before any flush, one write that changes nothing for every operation number
the segments record (a no-op delete of an id no passage has: microseconds each). After a
swap that always runs; on opening a stored shard only when a built segment records more than
the appendable ones (a store swapped before this fix), so a healthy store pays nothing.
"""

from __future__ import annotations

import json
import logging
import uuid
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

# a point id no passage gets (passages are uuid5 of their source): the no-ops delete it
PROBE_ID = str(uuid.UUID(int=0))


def segment_versions(shard_dir: Path) -> list[tuple[bool, int]]:
    """(appendable, version) of each segment: the highest operation number it applied."""
    out: list[tuple[bool, int]] = []
    segments = shard_dir / "segments"
    if not segments.is_dir():
        return out
    for seg in segments.iterdir():
        try:
            meta = json.loads((seg / "segment.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        vectors = meta.get("config", {}).get("vector_data", {}).values()
        plain = all(v.get("index", {}).get("type") == "plain" for v in vectors)
        out.append((plain, int(meta.get("version") or 0)))
    return out


def catch_up(shard: Any, q: Any, shard_dir: Path, *, always: bool) -> int:
    """Advance `shard`'s operation numbers past every segment's version (`always`, or when a
    built segment is ahead of the appendable ones); returns how many no-op writes it took."""
    versions = segment_versions(shard_dir)
    built = max((v for plain, v in versions if not plain), default=0)
    appended = max((v for plain, v in versions if plain), default=0)
    if not always and built <= appended:
        return 0
    for _ in range(built + 1):
        shard.update(q.UpdateOperation.delete_points([PROBE_ID]))
    log.info("vector store: operation numbers advanced by %d past the built segments", built + 1)
    return built + 1
