"""A pasted Python traceback ranks the repository files its frames name first, the frame it
failed in (the innermost) first.

A traceback names the code an agent must read: each frame's file and line, the last frame
where it failed. Keyword search reads its words instead, and its last line names the
exception's class: QA on pallets/werkzeug, a traceback through serving.py, routing/map.py
and sansio/utils.py (which raises the SecurityError) ranked exceptions.py, the error's
class, first and wsgi.py, named by no frame, above sansio/utils.py (5th). The frames' files
now lead, innermost first, then the ranking as it was.
"""

from __future__ import annotations

from query_api.retrieval.named_lines import Place, frames, place_among
from schemas import tools as t


def frames_first(hits: list[t.SearchHit], query: str) -> list[t.SearchHit]:
    """`hits` with the file hits a traceback frame of `query` names first, innermost frame
    first, each at the first hit's score; `hits` itself when the query holds no frame."""
    written: list[Place] = frames(query)
    if not written:
        return hits
    placed: list[t.SearchHit] = []
    files = [h for h in hits if h.entry.kind == "File" and h.entry.path]
    paths = [h.entry.path or "" for h in files]
    for frame in written:
        hit = next(
            (
                h
                for h in files
                if h not in placed and place_among([frame], h.entry.path or "", paths)
            ),
            None,
        )
        if hit is not None:
            placed.append(hit)
    if not placed:
        return hits
    top = max(hit.score for hit in hits)
    first = [hit.model_copy(update={"score": max(hit.score, top)}) for hit in placed]
    return [*first, *(hit for hit in hits if hit not in placed)]


def holds_frames(query: str) -> bool:
    """Whether `query` holds a traceback or stack trace frame: the test a trace fails in is
    where it failed, not a test found by its words, so its subject is not lifted above it
    (QA on apache/commons-text: `at ...WordUtilsTest.testWrap_...(WordUtilsTest.java:580)`
    ranked WordUtils.java above the test, the one file the trace names)."""
    return bool(frames(query))
