"""The part of a search that ranks and details its hits, apart from the freshness around it.

`repocontext_search` is this part plus the caller's freshness (RepoContextService.search).
It reads only the views, so a process that opened them read-only can run it for the process
that owns the data directory (query_api/server/search_readers.py): one function for both keeps
their answers the same.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from processors.qualified_names import prototype_members
from processors.tokenizer import STOP_WORDS, tokenize
from query_api.core.hit_pointing import point_hits
from query_api.core.index_build import cut_files
from query_api.retrieval.changelog_note import no_changelog_note
from query_api.retrieval.defining_files import declared_spelling
from query_api.retrieval.definition_sites import (
    defined_name,
    no_definition_note,
)
from query_api.retrieval.form_words import keyword_text
from query_api.retrieval.hit_details import HitLocator, enrich
from query_api.retrieval.implemented_spelling import implemented_spelling
from query_api.retrieval.near_names import near_name_note
from query_api.retrieval.no_match import (
    SEMANTIC_FLOOR,
    best_semantic_score,
    no_match_note,
    wordless_note,
)
from query_api.retrieval.program_errors import opens_with_program, program_marked
from query_api.retrieval.typo_names import respelled_query, typo_note, typo_spelling
from query_api.retrieval.unheld_words import respelled_note
from query_api.retrieval.untested_note import no_test_note
from query_api.retrieval.unwritten_message import unwritten_message_note
from query_api.retrieval.use_sites import no_subtype_note, no_use_note
from query_api.retrieval.users_first import used_name
from schemas import tools as t
from schemas.retrieval import RetrievalPath, SearchMode
from streams.stores.views.file_cache import one_answer
from streams.stores.views.named_files import asked_file
from streams.stores.views.project_words import project_words
from streams.stores.views.read import searched_in_part_paths

if TYPE_CHECKING:
    from query_api.retrieval.ladder import Retriever


NAMED_IN_PART = 3  # the files read only in part a no-match note names; more are counted
WORD = re.compile(r"\w")  # a letter, digit or underscore, in any script
_AROUND_WORD = "\"'`()[]{},.;:!?"  # what a word is written between in a sentence


@dataclass(frozen=True)
class Ranked:
    """A search's hits before freshness: how they were found and the note, if any."""

    mode: SearchMode
    path: RetrievalPath
    hits: list[t.SearchHit]
    note: str | None
    # no hit of the ranking's head holds a word of the query but its stop words, while a
    # deeper one does
    by_stop_words: bool = False


# How many of the ranking's first hits must hold only the query's stop words for the query
# to be asked again without them (QA on rs/zerolog: `where are benchmarks`)
HEAD_HITS = 10


class Ranking(Protocol):
    """Ranks one repository's search somewhere else (the search reader processes)."""

    async def rank(self, args: t.SearchArgs, details: bool) -> Ranked: ...


async def rank_search(
    retriever: Retriever, locator: HitLocator, repo_id: str, args: t.SearchArgs, details: bool
) -> Ranked:
    """The retrieval ladder's hits with their lines and snippet (with `details`); an answer
    in which no hit holds the query's words nor is semantically close says so instead."""
    with one_answer():  # a generated module's declarations read once, not once per step
        ranked = await _rank(retriever, locator, repo_id, args, details)
        content = without_stop_words(args.query)
        if (ranked.hits and not ranked.by_stop_words) or content is None or _of_a_name(args):
            return ranked
        if await _led_by_asked_file(retriever, repo_id, args.query, ranked.hits):
            return ranked
        # QA on Textualize/rich: `promote the demo` answered nothing, the pool filled by
        # files holding only `the` above the docs holding `demo` (`promote demo` found them);
        # QA on rs/zerolog: `where are benchmarks` showed ten files holding `where` and `are`
        # above README.md, the one holding `benchmarks`, left deeper in the pool
        again = await _rank(
            retriever, locator, repo_id, args.model_copy(update={"query": content}), details
        )
        return again if again.hits else ranked


def _of_a_name(args: t.SearchArgs) -> bool:
    """Whether the query asks where a name is defined or what uses it: its form's words
    (`where is`, `defined`, `what calls`) are not searched (keyword_text), so asking again
    without its stop words searches nothing more, only breaks the form. QA on
    serde-rs/json: `where is ZzNothingType defined` found nothing and said so, and was asked
    again as `ZzNothingType defined`, which answered ten files holding `defined`, unnoted."""
    return defined_name(args.query) is not None or used_name(args.query) is not None


async def _led_by_asked_file(
    retriever: Retriever, repo_id: str, query: str, hits: list[t.SearchHit]
) -> bool:
    """Whether the answer leads with a file the query's form asks for (named_files.asked_file:
    the root README of `what does this project do`), which needs no word of the query: asked
    again as `project`, QA on axios/axios (keyword search) answered three test tsconfig.json
    files' `/* Projects */` comments in place of README.md."""
    if not hits:
        return False
    asked = await asyncio.to_thread(
        retriever.views.read, lambda conn: asked_file(conn, repo_id, query)
    )
    return hits[0].entry.path in asked


def _code_name(name: str) -> bool:
    """Whether a name is written as code (`zz_nothing_fn`, `ZzNothingType`, `a.b`), not as a
    word a question may mean as a concept (`where is parser defined`)."""
    return len(tokenize(name)) > 1 or name[:1].isupper() or bool(re.search(r"[._:#!]", name))


def without_stop_words(query: str) -> str | None:
    """`query` less its words that are stop words alone (`the`, not `the_width` or `a.b`),
    when it has such words and others; else None."""
    words = query.split()
    kept = [w for w in words if w.strip(_AROUND_WORD).casefold() not in STOP_WORDS]
    if len(kept) == len(words) or not any(WORD.search(w) for w in kept):
        return None
    return " ".join(kept)


async def _rank(
    retriever: Retriever, locator: HitLocator, repo_id: str, args: t.SearchArgs, details: bool
) -> Ranked:
    # `Context.prototype.assert` is the member `Context.assert`, as the views name it
    written = prototype_members(args.query)
    # `where is multidict defined` asks for werkzeug's MultiDict: read as the declared name
    spelled = await asyncio.to_thread(
        retriever.views.read,
        lambda conn: implemented_spelling(  # `what implements Drop`: no `fn drop`
            conn, repo_id, written, declared_spelling(conn, repo_id, written)
        ),
    )
    typo = None
    if spelled == written:  # `where is ProgresBar defined`: the one declared name alike
        typo = await asyncio.to_thread(
            retriever.views.read, lambda conn: typo_spelling(conn, repo_id, written)
        )
        spelled = respelled_query(written, *typo) if typo else spelled
    if opens_with_program(spelled):  # `eza: Option --level is useless ...`: its own error
        words = await asyncio.to_thread(
            retriever.views.read, lambda conn: project_words(conn, repo_id)
        )
        spelled = program_marked(spelled, lambda: words)
    if spelled != args.query:
        args = args.model_copy(update={"query": spelled})
    answer = await retriever.search(repo_id, args.query, args.k)
    if not WORD.search(args.query):  # "   ", "*": vectors would rank files all the same
        return Ranked(answer.mode, _claimed(answer.path, []), [], wordless_note(args.query))
    # what keyword search reads of it: `where is X defined`, `what calls X` less their form's
    # words, which no more match X than they rank it (QA on hyperium/hyper: a file holding
    # `defined` made `where is zz_quokka_fn defined` a match of three files, with no note)
    read, respelt = keyword_text(args.query), None
    if answer.respelled is not None:  # `deprecate` found as `deprecated`: unheld_words
        respelt, read = respelled_note(read, answer.respelled), answer.respelled
    enriched = await asyncio.to_thread(enrich, locator, repo_id, read, answer.hits, details=details)
    hits, note, used, past = enriched.hits, None, True, None
    if details:  # `what calls X`: each hit at its uses; `src/app.ts:18-49`: at those lines
        pointed = await point_hits(locator, repo_id, args.query, hits)
        hits, used, past = pointed.hits, pointed.used, pointed.past
    shown = {hit.entry.key for hit in answer.hits}
    # the pool's hits this answer does not show: not its tail by position, since the
    # neighbour fill puts files from outside the pool into places 6-10 and pushes pool
    # hits out (a QA pass: the one file holding `jaguarLargeHead`, pool place 9, left out
    # of a k=10 answer that then said no file contains it; k=5 and k=20 listed it)
    deeper = [hit for hit in answer.pool if hit.entry.key not in shown]
    lexical = enriched.lexical or await asyncio.to_thread(
        _deeper_lexical, locator, repo_id, read, deeper
    )
    # keyword search found no word of it at all; or nothing, for a query of stop words alone
    # (judged lexical so long as some file holds them: an empty answer still says why)
    # what no file holds: the name a definition or users query asks about, not its form
    subject = defined_name(args.query) or used_name(args.query) or args.query
    if not hits:
        note = no_match_note(subject, repo_id, None)
    elif not lexical and subject is not args.query and _code_name(subject):
        # a name no file holds is defined and used nowhere: files close in meaning are
        # neither (QA on serde-rs/json: `what calls zz_nothing_fn` listed ten such files)
        hits, note = [], no_match_note(subject, repo_id, None)
    elif not lexical:
        best = await best_semantic_score(retriever, repo_id, args.query)
        if best is None or best < SEMANTIC_FLOOR:
            hits, note = [], no_match_note(subject, repo_id, best)
        else:  # kept for their meaning: no hit holds it, which the agent must not miss
            note = semantic_only_note(subject, repo_id, best)
    if note is not None:
        note += await asyncio.to_thread(_searched_in_part, locator, repo_id)
    else:  # `what calls X` answered by X's declarations alone: they are no callers; `where
        # is X defined` answered by files that only mention it: none is its declaration
        # `where is NOQA_INLINE_REGEX used`: NOQA_INLINE_REGEXP is the name declared
        near = await asyncio.to_thread(near_name_note, locator.views, repo_id, args.query)
        near = near or await asyncio.to_thread(  # `where is the CHANGELOG` where none is
            no_changelog_note, locator.views, repo_id, args.query, hits
        )
        undeclared = near or await asyncio.to_thread(
            no_definition_note, locator, repo_id, args.query, hits
        )
        subtypes = no_subtype_note(args.query, hits)  # `who extends X`, answered by users
        unused = None if near else no_use_note(args.query, hits, used)
        retyped = typo_note(*typo) if typo else None
        # `where is X tested` where no test names or calls X: its hits are guesses
        untested = await asyncio.to_thread(no_test_note, locator.views, repo_id, args.query, hits)
        # a pasted message no file writes (React's, the runtime's): its hits only share words
        unwritten = await asyncio.to_thread(
            unwritten_message_note, locator.views, repo_id, args.query, hits
        )
        notes = (retyped, respelt, past, unused, subtypes, undeclared, untested, unwritten)
        note = "; ".join(filter(None, notes)) or None
    # judged on the head of the ranking every `k` is cut from, not on the hits this `k`
    # shows: a k=1 answer is the k=50 answer's first hit (the retry must not depend on k).
    # Keyword answers only: a hybrid head holds files by meaning, which need no word of the
    # query, and asking again moves the query's vector (two tuning requests ranked worse)
    by_stop_words = (
        bool(hits)
        and answer.mode == SearchMode.KEYWORD
        and lexical
        and not await asyncio.to_thread(_head_lexical, locator, repo_id, read, answer.pool)
    )
    return Ranked(answer.mode, _claimed(answer.path, hits), hits, note, by_stop_words)


def _claimed(path: RetrievalPath, hits: list[t.SearchHit]) -> RetrievalPath:
    """`semantic.exact` only for an answer with a hit (spec §3.2); an exact scan whose hits
    the answer drops (a wordless query, nothing close enough) under-promises as approximate."""
    if path == RetrievalPath.SEMANTIC_EXACT and not hits:
        return RetrievalPath.SEMANTIC_APPROXIMATE
    return path


def _searched_in_part(locator: HitLocator, repo_id: str) -> str:
    """What "no file contains it" leaves out: the files search reads only in part."""
    partly = cut_files(locator.views, repo_id)["filesSearchedInPart"]
    if not partly:
        return ""
    named = locator.views.read(lambda c: searched_in_part_paths(c, repo_id, NAMED_IN_PART))
    listed = ", ".join(named) + (
        f" and {partly - len(named):,} more" if partly > len(named) else ""
    )
    files = "1 file is" if partly == 1 else f"{partly:,} files are"
    return (
        f"; {files} longer than the indexed limit and searched only in part ({listed}; "
        "their count: repocontext_index_status filesSearchedInPart)"
    )


def _head_lexical(locator: HitLocator, repo_id: str, query: str, pool: list[t.SearchHit]) -> bool:
    """Whether one of the ranking's first HEAD_HITS hits holds a word of the query (read
    until the first that does): the same for every `k`, since the pool is ranked to one depth
    whatever `k` is."""
    head = pool[:HEAD_HITS]
    return bool(head) and enrich(locator, repo_id, query, head, details=False).lexical


def _deeper_lexical(
    locator: HitLocator, repo_id: str, query: str, deeper: list[t.SearchHit]
) -> bool:
    """Whether a hit past the answer's `k`, in the pool every `k` is cut from, holds a word of
    the query: "nothing matches" must not depend on how many hits were asked for (a k=10
    answer is the head of the k=50 one, never empty where that one has hits)."""
    return bool(deeper) and enrich(locator, repo_id, query, deeper, details=False).lexical


def semantic_only_note(query: str, repo_id: str, best: float) -> str:
    """Of hits kept because a passage is semantically close while none holds the query's
    words or identifiers: neighbours by meaning, not matches. QA on sharkdp/fd: after the
    agent deleted `zz_qa_marker_fn`, searching it answered two files with `content-match`
    (BM25 matched its parts) and no note, as if they still held it."""
    said = no_match_note(query, repo_id, None)  # "no file or memory entry in ... contains ..."
    return f"{said}; these hits are only semantically close to it (best cosine {best:.2f})"
