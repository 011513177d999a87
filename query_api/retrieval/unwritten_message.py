"""A pasted error message no file of the repository writes (React's `Warning: A component is
changing an uncontrolled input to be controlled.`, V8's `TypeError: Cannot read properties of
undefined (reading '_f')`) is raised by a dependency or the runtime: the hits share its words
(or are a trace's frames), and none is where it is written. QA on react-hook-form/
react-hook-form answered both with ten files' doc comments and no word saying so.
"""

from __future__ import annotations

from functools import partial

from query_api.retrieval.frames_first import holds_frames
from query_api.retrieval.pasted_message import message_queries
from schemas import tools as t
from streams.stores import ViewStore
from streams.stores.views.read import paths_matching

NOTE = "no file here writes this message (a dependency or the runtime raises it)"
WORDS = ": the hits share its words"
FRAMES = ": the hits are its trace's frames, then files sharing its words"


def unwritten_message_note(
    views: ViewStore, repo_id: str, query: str, hits: list[t.SearchHit]
) -> str | None:
    """NOTE, with what the hits are, when `query` pastes an error message
    (pasted_message.message_queries) that none of its phrases finds in any file; else None
    (and for an answer with no hits, which the no-match note speaks for)."""
    queries = message_queries(query)
    if not hits or not queries:
        return None
    for match in queries:
        if views.read(partial(paths_matching, repo_id=repo_id, match=match, limit=1)):
            return None
    return NOTE + (FRAMES if holds_frames(query) else WORDS)
