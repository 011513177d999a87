"""A pasted error message no file of the repository writes (React's `Warning: A component is
changing an uncontrolled input to be controlled.`, V8's `TypeError: Cannot read properties of
undefined (reading '_f')`) is raised by a dependency or the runtime: the hits share its words
(or are a trace's frames), and none is where it is written. QA on react-hook-form/
react-hook-form answered both with ten files' doc comments and no word saying so.

The message's phrases are what search asks for, and a message built in parts escapes them, so
two more things say a file may write it. Its exception's class declared here (`cattrs.errors.
ClassValidationError: While structuring Outer`, raised as `'While structuring ' + name`, the
class's name formatted in): the project raises it. Or two neighbouring segments near each
other with the first's opening words and the second's last word left out, as values formatted
there (`Not enough values in [1, 2] to structure as tuple[...]`, written `problem = "Not
enough" ...` then `f"{problem} values in {obj!r} to structure as {tup!r}"`). QA on
python-attrs/cattrs said both were written by no file. Or a segment's opening and closing
words near each other, values formatted unquoted between them (_gapped_queries).
"""

from __future__ import annotations

import re
import sqlite3
from functools import partial
from itertools import pairwise

from processors.path_roles import Role, role_of
from query_api.retrieval.frames_first import holds_frames
from query_api.retrieval.group_gutters import without_gutters
from query_api.retrieval.pasted_message import (
    MAX_SUBJECT,
    NEAR_RUN,
    NEAR_TOKENS,
    message_queries,
    message_segments,
)
from schemas import tools as t
from streams.stores import ViewStore
from streams.stores.views.read import paths_matching
from streams.stores.views.symbols import symbols_named

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
    for match in [*queries, *_trimmed_queries(query), *_gapped_queries(query)]:
        if views.read(partial(paths_matching, repo_id=repo_id, match=match, limit=1)):
            return None
    if views.read(lambda conn: _raised_here(conn, repo_id, query)):
        return None
    return NOTE + (FRAMES if holds_frames(query) else WORDS)


# an exception's class opening a line as its marker, qualified or not
# (`cattrs.errors.ClassValidationError:`, `ValueError:`)
_CLASS = re.compile(r"^\s*(?:[A-Za-z_]\w*\.)*([A-Z]\w*(?:Error|Exception|Warning)\w*)\s*:", re.M)
MAX_TRIMMED = 12  # FTS5 reads for the trimmed segments of one message
MAX_DECLARED = 5  # declarations read per exception class named
_TYPE_KINDS = frozenset({"Type", "Class"})  # the kinds a class's declaration is stored as


def _raised_here(conn: sqlite3.Connection, repo_id: str, query: str) -> bool:
    """Whether a source file here declares an exception class the pasted lines open with."""
    names = list(dict.fromkeys(_CLASS.findall(without_gutters(query))))
    declared = symbols_named(conn, repo_id, names, limit=MAX_DECLARED) if names else []
    return any(row.kind in _TYPE_KINDS and role_of(row.path) == Role.SOURCE for row in declared)


def _trimmed_queries(query: str) -> list[str]:
    """NEAR queries of each two neighbouring unquoted segments of the pasted message, the
    first less up to MAX_SUBJECT opening words and the second less its last word (values
    formatted in there), each part two words or more and NEAR_RUN in all."""
    segments = [words for words, quoted in message_segments(query) if not quoted]
    out: list[str] = []
    for first, second in pairwise(segments):
        heads = [first[n:] for n in range(min(MAX_SUBJECT, len(first) - 2) + 1)]
        for head in heads:
            for end in (second, second[:-1]):
                if len(end) >= 2 and len(head) + len(end) >= NEAR_RUN:
                    phrases = " ".join(_phrase(words) for words in (head, end))
                    out.append(f"body_terms : NEAR({phrases}, {NEAR_TOKENS})")
    return list(dict.fromkeys(out))[:MAX_TRIMMED]


GAP_ENDS = 3  # words of a segment's opening and closing phrases around its values
GAP_TOKENS = 2  # tokens the source may write per pasted word between them (`${child.id}`)


def _gapped_queries(query: str) -> list[str]:
    """NEAR queries of each unquoted segment's opening and closing GAP_ENDS words (the
    closing ones less its last word too), as far apart as the words between them allow: a
    segment holding values formatted in unquoted (`Cannot stop child actor child of parent
    because it is not a child`, written `Cannot stop child actor ${child.id} of ${this.id}
    because it is not a child`) is no phrase of the source. QA on statelyai/xstate noted that
    message as raised by a dependency, createActor.ts writing it and ranking first."""
    out: list[str] = []
    for words, quoted in message_segments(query):
        if quoted or len(words) < 2 * GAP_ENDS + 1:
            continue
        head = words[:GAP_ENDS]
        for tail in (words[-GAP_ENDS:], words[-GAP_ENDS - 1 : -1]):
            gap = len(words) - 2 * GAP_ENDS
            phrases = " ".join(_phrase(part) for part in (head, tail))
            out.append(f"body_terms : NEAR({phrases}, {gap * GAP_TOKENS + NEAR_TOKENS})")
    return list(dict.fromkeys(out))[:MAX_TRIMMED]


def _phrase(words: tuple[str, ...]) -> str:
    return '"' + " ".join(words).replace('"', '""') + '"'
