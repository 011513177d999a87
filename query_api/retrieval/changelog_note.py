"""What an answer to a changelog question says when the repository keeps none.

`where is the CHANGELOG` on a repository without one answered the files mentioning the word
with the note `none of these hits declares CHANGELOG` (the definition note, reading the word
as a name), and `where is the changelog` with no note at all: both read as if a changelog
were among the hits. QA on middyjs/middy, which keeps its release notes on GitHub. A changelog
question in a repository indexing no changelog at any depth (changelog_files.holds_changelog:
CHANGES, CHANGELOG, HISTORY, NEWS, release notes) says so instead.
"""

from __future__ import annotations

from schemas import tools as t
from streams.stores import ViewStore
from streams.stores.views.changelog_files import asks_for_changelog, holds_changelog

NOTE = (
    "no changelog is indexed here (no CHANGES, CHANGELOG, HISTORY or NEWS file, nor release "
    "notes): these hits only mention it"
)


def no_changelog_note(
    views: ViewStore, repo_id: str, query: str, hits: list[t.SearchHit]
) -> str | None:
    """NOTE for a changelog question (or request) in a repository indexing none; else None
    (and for an answer with no hits, which the no-match note speaks for)."""
    if not hits or not asks_for_changelog(query):
        return None
    return None if views.read(lambda conn: holds_changelog(conn, repo_id)) else NOTE
