"""Records that processors derive from files (replace-per-file, keyed `repoId/path`)."""

from __future__ import annotations

from typing import Literal

from schemas.events import Event


class StructureRecord(Event):
    """Value of `structure.v1`: what a file is, without its body."""

    type: Literal["structure"] = "structure"
    repo_id: str
    path: str
    digest: str
    language: str
    size: int
    line_count: int
    mtime_ns: int
    binary: bool = False
    generated: bool = False
    vendored: bool = False
    truncated: bool = False
    decode_errors: bool = False
    source_revision: str | None = None
    ingested_at: float  # the source's observation time, so replay reproduces it exactly


class ContentRecord(Event):
    """Value of `content.v1`: the bounded body and its identifier-aware token streams (BM25)."""

    type: Literal["content"] = "content"
    repo_id: str
    path: str
    digest: str
    language: str
    body: str
    truncated: bool = False
    path_terms: str  # space-joined tokens of the path
    body_terms: str  # space-joined tokens of the body
    token_count: int | None = None  # exact BPE count of the body (added by the symbols issue)
