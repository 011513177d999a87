"""Search hits of whole files, as the retrieval ladder builds them from the views' rows:
their entry (the file's key and indexed fields), a keyword hit's, and a hit renamed with the
declarations its file was named for."""

from __future__ import annotations

from typing import Any

from query_api.memory.views import truncation_fields
from query_api.retrieval.hit_details import PATH_REASON
from query_api.retrieval.users_first import PLACED_REASONS
from schemas import tools as t
from schemas.retrieval import MAX_REASONS
from schemas.timestamps import iso_utc
from streams.stores.views.search import KeywordHit


def file_fields(row: Any) -> dict[str, str]:
    return {
        "digest": row.digest,
        "language": row.language,
        "sizeBytes": str(row.size),
        "lastIngested": iso_utc(row.ingested_at) or "",
        **truncation_fields(row),
    }


def file_entry(repo_id: str, path: str, row: Any) -> t.EntryView:
    return t.EntryView(
        key=f"repo/{repo_id}/file/{path}",
        exists=True,
        kind="File",
        repoId=repo_id,
        path=path,
        fields=file_fields(row) if row is not None else {},
    )


def renamed(hit: t.SearchHit, reasons: dict[str, tuple[str, ...]]) -> t.SearchHit:
    """`hit` with the reasons its file was named with, when `reasons` names it, after the
    reason it was placed for (`uses:<name>`, `implements:<name>`), which naming does not
    give."""
    found = reasons.get(hit.entry.path or "") if hit.entry.kind == "File" else None
    if found is None:
        return hit
    placed = [r for r in hit.reasons if r.startswith(PLACED_REASONS)]
    named = [r for r in found if r not in placed]
    return hit.model_copy(update={"reasons": [*placed, *named][:MAX_REASONS]})


def path_named(hit: t.SearchHit | None, named: set[str]) -> t.SearchHit | None:
    """`hit` with the reason `path-name-match` first when its file is one of `named` (a
    file brought in for the query naming it: `where is the JSON syntax spec`)."""
    if hit is None or hit.entry.path not in named or PATH_REASON in hit.reasons:
        return hit
    return hit.model_copy(update={"reasons": [PATH_REASON, *hit.reasons]})


def keyword_hit(hit: KeywordHit) -> t.SearchHit:
    return t.SearchHit(
        score=hit.score,
        entry=file_entry(hit.repo_id, hit.path, hit.file),
        vectorId=None,
        reasons=list(hit.reasons),
    )
