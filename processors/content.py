"""The content processor: `files.v1` -> `content.v1`, the body BM25 and bundles read.

The path and language terms are computed here, once per file version. The stored body is the
first MAX_BODY_CHARS characters (what the tools return), but the body terms cover everything
the source published (up to its indexed limit), so a word past that point is still found.
Those terms travel only when that text goes past the body: otherwise they are exactly the
body's tokens, which the view store derives with the same tokenizer (it tokenised the body
anyway, to keep only terms that differ), and carrying them doubled a file's record. Both are
bounded again even though the source already bounds them: the log may hold events from other
producers.
"""

from __future__ import annotations

from pydantic import BaseModel

from processors.base import Emit, ProcessContext
from processors.language import language_for_path
from processors.structural import checked_file_event, indexed_text, tombstone_key
from processors.tokenizer import tokenize
from schemas import topics
from schemas.events import MAX_BODY_CHARS, FileUpsert
from schemas.records import ContentRecord

# The processor's version, in every record it makes. Raise it when a change alters what it
# derives: the records of an older version are made again at start (streams/runtime/rederive.py).
# 1: records carry `language_terms`.
PROCESSOR_VERSION = 1


def terms_past(body: str, text: str) -> str | None:
    """The record's `body_terms`: None when the indexed text is the body (readers tokenize
    it), else the tokens of the whole indexed text."""
    return None if text == body else " ".join(tokenize(text))


def content_of(event: FileUpsert) -> ContentRecord:
    body = event.body[:MAX_BODY_CHARS]
    language = event.language or language_for_path(event.path)
    return ContentRecord(
        repo_id=event.repo_id,
        path=event.path,
        digest=event.digest,
        language=language,
        body=body,
        truncated=event.truncated or len(event.body) > MAX_BODY_CHARS,
        path_terms=" ".join(tokenize(event.path)),
        body_terms=terms_past(body, indexed_text(event)),
        language_terms=" ".join(tokenize(language)),  # the words a query naming it yields
        processor_version=PROCESSOR_VERSION,
    )


class ContentProcessor:
    """FileUpsert -> ContentRecord (same key). Binary files and tombstones -> tombstone.

    A binary file has no content record, but it still emits a tombstone: a file that turned
    binary must lose the content (and search rows) of its earlier text version.
    """

    name = "content"
    version = PROCESSOR_VERSION

    def process(
        self, topic: str, key: str | None, event: BaseModel | None, ctx: ProcessContext
    ) -> list[Emit]:
        if event is None:
            return [Emit(topics.CONTENT.name, tombstone_key(key), None)]
        out_key, upsert = checked_file_event(key, event)
        if upsert.binary:
            return [Emit(topics.CONTENT.name, out_key, None)]
        return [Emit(topics.CONTENT.name, out_key, content_of(upsert))]
