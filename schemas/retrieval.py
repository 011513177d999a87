"""The closed vocabularies of retrieval answers (spec §3.2): `mode` and `retrievalPath`."""

from __future__ import annotations

from enum import StrEnum


class SearchMode(StrEnum):
    SEMANTIC = "semantic"
    KEYWORD = "keyword"
    EMPTY = "empty"


class RetrievalPath(StrEnum):
    SEMANTIC_EXACT = "semantic.exact"
    SEMANTIC_APPROXIMATE = "semantic.approximate"
    KEYWORD_NO_EMBEDDER = "keyword.no_embedder"
    KEYWORD_VECTOR_PLANE_UNAVAILABLE = "keyword.vector_plane_unavailable"
    KEYWORD_INDEX_DEGRADED = "keyword.index_degraded"
    KEYWORD_EXACT_FALLBACK_SUPPRESSED = "keyword.exact_fallback_suppressed"


class RetrievalPhase(StrEnum):
    SERVING = "serving"
    KEYWORD_ONLY = "keyword_only"
    NOTHING_REGISTERED = "nothing_registered"
    BUILDING = "building"
    SATURATED_UNAVAILABLE = "saturated_unavailable"


# Keyword reasons in the fixed order the reference emits them (spec §1.4).
KEYWORD_REASON_ORDER = (
    "path-name-match",
    "symbol:",
    "tag:",
    "topic-match",
    "content-match",
    "key-match",
)
MAX_REASONS = 6
