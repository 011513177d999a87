"""What changed on disk since a repository was indexed (the `changed` tool, spec §1.4).

Walks the indexed root (or a directory inside it) with the filters the repository was
registered with and compares against the digests the views hold. The stat fast path applies
against the indexed size/mtime: a file whose size and mtime match the indexed ones, with an
mtime clearly older than the indexing read, is not re-hashed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from schemas.events import WalkFilters
from streams.sources.ignore import PathFilter
from streams.sources.reconcile import RACY_WINDOW_NS
from streams.sources.walker import FileSnapshot, is_walkable_dir, read_file, walk


@dataclass(frozen=True, slots=True)
class IndexedFile:
    digest: str
    size: int
    mtime_ns: int
    observed_at: float  # unix seconds when the indexed version was read


@dataclass(slots=True)
class Changes:
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)


def diff_against_index(
    root: Path, filters: WalkFilters, indexed: Mapping[str, IndexedFile], scope: str = ""
) -> Changes:
    """Added/updated/removed repo-relative paths under `scope` ("" = the whole root), sorted.
    `indexed` must hold the indexed files under `scope`. Raises SourceError on a bad root."""
    changes = Changes()
    seen: set[str] = set()
    rules = PathFilter(root, filters)
    walkable = not scope or is_walkable_dir(root, scope, rules)
    entries = walk(root, filters, path_filter=rules, start=scope) if walkable else iter(())
    for entry in entries:
        known = indexed.get(entry.path)
        if known is None:
            result = read_file(root, entry.path, exclude_binary=filters.exclude_binary)
            if isinstance(result, FileSnapshot):
                changes.added.append(entry.path)
            continue
        seen.add(entry.path)
        anchor_ns = int(known.observed_at * 1e9)
        if (
            known.size == entry.size
            and known.mtime_ns == entry.mtime_ns
            and entry.mtime_ns < anchor_ns - RACY_WINDOW_NS
        ):
            continue  # stat fast path: not re-hashed
        result = read_file(root, entry.path, exclude_binary=filters.exclude_binary)
        if not isinstance(result, FileSnapshot):
            changes.removed.append(entry.path)  # became binary or unreadable: not indexable
        elif result.digest != known.digest:
            changes.updated.append(entry.path)
    changes.removed.extend(p for p in indexed if p not in seen)
    changes.added.sort()
    changes.updated.sort()
    changes.removed.sort()
    return changes
