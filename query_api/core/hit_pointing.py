"""The steps that point a detailed search's hits at the lines the query's form asks for,
each kept from failing the answer.

After ranking, each step moves the hits' lines (`what calls X`: at the uses; `where is X
defined`: at the declaration; a pasted message: at the line writing it). They read file
bodies and declarations of every shape a repository holds, and one of them raising on a
shape it did not foresee failed the whole search and every bundle built on it (an
IndexError on a declaration past a file's stored text did, for jackson-core's `Minor Javadoc
fix`). A step that raises is logged and its hits keep the lines they had: the ranking and
the other steps' lines still answer.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from query_api.retrieval.changelog_head import at_changelog_head
from query_api.retrieval.definition_sites import at_definitions
from query_api.retrieval.doc_comments import at_doc_comments
from query_api.retrieval.flag_lines import at_flag_declarations
from query_api.retrieval.hit_details import HitLocator
from query_api.retrieval.implementer_lines import at_implementing_types
from query_api.retrieval.message_lines import at_message_lines
from query_api.retrieval.named_lines import at_named_lines
from query_api.retrieval.package_clause_tests import at_first_tests
from query_api.retrieval.past_stored_heads import at_past_stored_heads
from query_api.retrieval.past_stored_places import at_stored_places
from query_api.retrieval.spelled_declarations import at_spelled_declarations
from query_api.retrieval.use_sites import uses_located
from query_api.retrieval.version_lines import at_version_lines
from schemas import tools as t
from streams.stores.read_budget import ReadInterrupted

log = logging.getLogger(__name__)

Hits = list[t.SearchHit]
Step = Callable[[HitLocator, str, str, Hits], Hits]
Result = TypeVar("Result")

# after the uses and the definitions, and after the named lines: in this order
_LATER_STEPS: tuple[Step, ...] = (
    at_stored_places,  # a place past a large file's stored text: the declaration holding it
    at_changelog_head,  # `where is the changelog`: its head, not the oldest entry naming it
    at_version_lines,  # `Release 5.0.4`: the version's declaration, `__version__ = ...`
    at_message_lines,  # a pasted error message: the line writing it
    at_spelled_declarations,  # `@IsDateString`: IsDateString, not its sibling isDateString
    at_flag_declarations,  # `where is the --accept flag`: the field or literal declaring it
    at_doc_comments,  # `fix typo in X comment`: the range opens at the doc comment
    at_implementing_types,  # `what implements X` (Go): the type declaring its methods
    at_first_tests,  # `tests for dynblock`: a Go test file's first test, not its package line
    at_past_stored_heads,  # lines past a large file's stored text: its declarations' heads
)


@dataclass(frozen=True)
class Pointed:
    hits: Hits
    used: bool  # a hit was pointed at a use of the name a users query asks for
    past: str | None  # what at_named_lines says of lines past a file's stored text


async def point_hits(locator: HitLocator, repo_id: str, query: str, hits: Hits) -> Pointed:
    """`hits` pointed by each step in turn (use_sites, definition_sites, named_lines, then
    _LATER_STEPS); a step that raises leaves them as they were."""
    hits, used = await _guarded(uses_located, (hits, False), locator, repo_id, query, hits)
    # `where is X defined`: each file declaring X at it; `t.py::TestX::test_y`: at the test
    hits = await _guarded(at_definitions, hits, locator, repo_id, query, hits)
    kept: tuple[Hits, str | None] = (hits, None)
    hits, past = await _guarded(at_named_lines, kept, locator, repo_id, query, hits)
    for step in _LATER_STEPS:
        hits = await _guarded(step, hits, locator, repo_id, query, hits)
    return Pointed(hits, used, past)


async def _guarded(
    step: Callable[[HitLocator, str, str, Hits], Result],
    unchanged: Result,
    locator: HitLocator,
    repo_id: str,
    query: str,
    hits: Hits,
) -> Result:
    try:
        return await asyncio.to_thread(step, locator, repo_id, query, hits)
    except (asyncio.CancelledError, ReadInterrupted):
        raise  # the call ended or ran out of time: no answer is wanted
    except Exception:
        log.exception("search: %s failed; its hits keep the lines they had", step.__name__)
        return unchanged
