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
    truncated: bool = False  # the body the tools return stops at MAX_BODY_CHARS
    decode_errors: bool = False
    source_revision: str | None = None
    ingested_at: float  # the source's observation time, so replay reproduces it exactly
    # Characters keyword search indexed, when it stopped before the end of the file (the
    # source's indexed limit); None: search covers the whole file.
    indexed_chars: int | None = None


class ContentRecord(Event):
    """Value of `content.v1`: the bounded body and its identifier-aware token streams (BM25)."""

    type: Literal["content"] = "content"
    repo_id: str
    path: str
    digest: str
    language: str
    body: str  # the first MAX_BODY_CHARS characters (what the tools return)
    truncated: bool = False  # the file goes on past `body`
    path_terms: str  # space-joined tokens of the path
    # Space-joined tokens of all the text the source published (past `body`); None when that
    # text is `body` itself, whose tokens every reader derives (processors.tokenizer): most
    # files, and the terms were a log's largest part after the bodies.
    body_terms: str | None = None
    token_count: int | None = None  # exact BPE count of the body (added by the symbols issue)
    # `language` tokenized, as the views index it next to the path and body terms. Empty in
    # records made before processor version 1, which re-derivation replaces at start
    # (streams/runtime/rederive.py).
    language_terms: str = ""
    processor_version: int = 0  # which content processor made the record (processors/content.py)
