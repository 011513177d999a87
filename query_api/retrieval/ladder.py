"""The retrieval ladder (spec §3.1-§3.5, DESIGN §7): approximate -> exact -> BM25.

`Retriever.search` answers `repocontext_search`: it embeds the query ("query" text type),
asks the vector store for min(max(8k, k), 1000) passages (HNSW when the index serves, an exact
scan while it bootstraps or when `semantic_retrieval=exact`), collapses them to distinct
sources keeping the best passage, hydrates every hit from the views (the index returns
identities only; a source whose file is gone is drift), and falls back to BM25 on every fault,
naming the reason in `retrievalPath`. With `hybrid` on, a semantic answer is fused with the
BM25 list (retrieval/fusion.py; reason `keyword-fused` on hits both lists found). Every answer's
tail is then filled with the files its best hits import or are used by (retrieval/
neighbour_fill.py; reason `related:<path>`).
Live memory entries rank next to files in both lists (query_api/memory/search.py), and every
file/symbol hit carries the memory linked to it (`linkedMemory`).
Readiness observes the path of every answer (query_api/retrieval/readiness.py).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

from processors.path_roles import Role, roles_about
from processors.qualified_names import qualified_names
from processors.query_mentions import phrase_query
from processors.tokenizer import tokenize
from query_api.memory.search import (
    attach_linked,
    keyword_memory_hits,
    semantic_memory_hit,
    shown_above,
)
from query_api.memory.views import MemoryReader
from query_api.metrics import _meter_provider
from query_api.retrieval.bench_first import asks_benchmarks, bench_reads, benches_first
from query_api.retrieval.builds_last import (
    generated_of,
    sources_over_builds,
    users_before_builds,
)
from query_api.retrieval.declared_first import declared_first
from query_api.retrieval.defining_files import defining_contracts, defining_files
from query_api.retrieval.definition_sites import defined_name
from query_api.retrieval.dependency_updates import declaring_file, may_declare, updated_package
from query_api.retrieval.docs_first import (
    asked_pages_first,
    config_files_named,
    holds_subject,
    sectioned_config,
)
from query_api.retrieval.failed_tests import failed_tests
from query_api.retrieval.failed_titles import failed_titles, files_calling
from query_api.retrieval.file_graph import FileGraphs
from query_api.retrieval.file_hits import file_entry, keyword_hit, path_named, renamed
from query_api.retrieval.form_words import keyword_text
from query_api.retrieval.frames_first import frames_first, holds_frames
from query_api.retrieval.fusion import fuse
from query_api.retrieval.go_implementers import implemented_interface
from query_api.retrieval.held_in_fusion import held_at_keyword_rank
from query_api.retrieval.hit_details import QueryTerms
from query_api.retrieval.importers import importers_of_files
from query_api.retrieval.inline_tests_first import (
    inline_tests_first,
    subject_of_tests,
    unit_tests_hold,
)
from query_api.retrieval.name_users import MAX_MEMBER_FILES, NameUsers
from query_api.retrieval.namespace_members import namespace_declarations, namespace_defining
from query_api.retrieval.nearest_declaring import nearest_declaring
from query_api.retrieval.neighbour_fill import fill_tail
from query_api.retrieval.package_docs import package_doc_files
from query_api.retrieval.pasted_message import (
    MESSAGE_MATCHES,
    files_writing_message,
    message_queries,
)
from query_api.retrieval.readiness import Readiness
from query_api.retrieval.readme_first import readme_asked
from query_api.retrieval.repo_tests import kinds_asked, listed_tests, repository_tests_first
from query_api.retrieval.spelled_users import spelled_name
from query_api.retrieval.structural_implementers import structural_implementers
from query_api.retrieval.subjects import subjects_first
from query_api.retrieval.tests_first import tested_name, tests_first
from query_api.retrieval.top_level_first import top_level_declaring
from query_api.retrieval.typed_users import implementing, raising
from query_api.retrieval.unheld_words import as_held, respelled
from query_api.retrieval.users_first import (
    IMPLEMENTS_REASON,
    MAX_DECLARATIONS,
    asks_implementers,
    asks_importers,
    asks_raisers,
    declarations_named,
    imported_file,
    last_part,
    used_name,
    users_first,
)
from query_api.symbols.dependents import is_test_path
from query_api.symbols.js_test_helpers import calls_tests, unmarked_js
from query_api.symbols.tested_by import subject_of_test
from schemas import tools as t
from schemas.retrieval import RetrievalPath, SearchMode
from streams.embedders.base import Embedder, EmbedResult
from streams.embedders.batching import QueryBatcher
from streams.stores.read_budget import ReadInterrupted
from streams.stores.vector_opening import VectorStoreOpening
from streams.stores.vectors import VectorMatch, VectorStore, VectorStoreUnavailable
from streams.stores.views.changelog_files import changelog_files
from streams.stores.views.flag_files import flag_files
from streams.stores.views.named_files import asked_file, module_named_files, path_named_files
from streams.stores.views.read import paths_matching
from streams.stores.views.release_files import release_files
from streams.stores.views.search import (
    QUALIFIED_NAME_TIER,
    KeywordHit,
    declared_symbols,
    keyword_hits,
    looks_up_tests,
    name_symbols_of,
    role_prior,
    roles_in,
)
from streams.stores.views.store import ViewStore
from streams.stores.views.symbols import imports_of_file

log = logging.getLogger(__name__)

POOL_CAP = 1000
# The longest a search waits for its query's vector before it answers by keyword (the local
# encoder takes ~30 ms, 0.5-2 s with a model load on a busy machine; the tool's deadline is 30 s
# and a bundle searches up to twice)
QUERY_EMBED_TIMEOUT_S = 10.0
_ANY_REPO = ""  # the embedding breaker's one key: the embedder serves every repository
# How deep every answer is ranked, whatever its `k`: the candidate pools and the tail that
# the head's neighbours fill are sized for this depth, so a smaller `k` gets the first `k` of
# the same ranking (a context bundle's files are the search's first files) instead of a
# ranking fused over shallower lists.
TAIL_POOL = 50
# A test/doc/example file's cosine is scaled by this unless the query asks for that role
# (cosines sit in a narrow band, so a mild factor moves such files well down).
SEMANTIC_ROLE_FACTOR = 0.7
# A file's semantic score is its best passage's cosine plus this times the log of how many of
# its passages the pool holds: a file the query's meaning runs through in several places is
# more likely the one to change than a file with one lucky passage (log: support counts, but
# a long file's many passages do not swamp the best one).
PASSAGE_SUPPORT = 0.01
NAMED_POOL = 150  # declarations read per name a query's qualified names end with
ANN_ARMS = ("bootstrapping", "exhaustive", "approximate")


@dataclass
class Breaker:
    """Per-repository breaker on the exact fallback: a stall/timeout opens it for
    `open_seconds`; then one half-open probe is let through."""

    open_seconds: float = 30.0
    opened_at: dict[str, float] = field(default_factory=dict)

    def allows(self, repo_id: str) -> bool:
        opened = self.opened_at.get(repo_id)
        if opened is None:
            return True
        if time.monotonic() - opened >= self.open_seconds:
            self.opened_at[repo_id] = time.monotonic()  # half-open: one probe per period
            return True
        return False

    def trip(self, repo_id: str) -> None:
        self.opened_at[repo_id] = time.monotonic()

    def reset(self, repo_id: str) -> None:
        self.opened_at.pop(repo_id, None)


@dataclass
class Answer:
    mode: SearchMode
    path: RetrievalPath
    hits: list[t.SearchHit]
    # entry key -> its ranked file, for the keyword hits whose other declarations are named
    # only if the answer keeps them (views/search.py name_symbols_of)
    unnamed: dict[str, KeywordHit] = field(default_factory=dict)
    # the ranked hits before the cut to k (TAIL_POOL deep at least): what a larger k would show
    pool: list[t.SearchHit] = field(default_factory=list)
    respelled: str | None = None  # the words searched, as written nowhere: unheld_words


class _Fault(Exception):
    def __init__(self, path: RetrievalPath, why: str) -> None:
        super().__init__(why)
        self.path = path


class Retriever:
    def __init__(
        self,
        views: ViewStore,
        embedder: Embedder,
        store: VectorStore | None,
        readiness: Readiness,
        *,
        semantic_retrieval: str = "approximate",
        hybrid: bool = False,
        exact_timeout_s: float = 5.0,
        embed_timeout_s: float = QUERY_EMBED_TIMEOUT_S,
        breaker_open_s: float = 30.0,
        coverage: Callable[[str], t.VectorCoverage | None] | None = None,
        graphs: FileGraphs | None = None,
    ) -> None:
        self.views = views
        self.graphs = graphs if graphs is not None else FileGraphs(views)
        self.name_users = NameUsers(views, self.graphs)
        self.memory = MemoryReader(views)
        self.embedder = embedder
        self.queries = QueryBatcher(lambda texts: self.embedder.embed(texts, "query"))
        self.store = store
        self.readiness = readiness
        self.exact_only = semantic_retrieval == "exact"
        self.hybrid = hybrid
        self.exact_timeout_s = exact_timeout_s
        self.embed_timeout_s = embed_timeout_s
        self.breaker = Breaker(breaker_open_s)
        # opened by a query embedding past `embed_timeout_s`, for every repository (one
        # embedder): an embedder slower than the bound made each later search wait it out
        self.embed_breaker = Breaker(breaker_open_s)
        self.coverage = coverage  # repoId -> vector coverage (blocking), to fuse fairly
        self._declined: dict[str, tuple[RetrievalPath, str]] = {}  # repoId -> last decline
        meter = _meter_provider().get_meter("repocontext")
        self.ann_search = meter.create_counter(
            "repocontext.retrieval.ann.search",
            description="semantic searches by ANN serving state",
        )
        for arm in ANN_ARMS:  # pre-minted at zero: absent != zero
            self.ann_search.add(0, {"state": arm})

    @property
    def bound(self) -> bool:
        return self.embedder.space is not None and self.store is not None

    # -- the ladder ------------------------------------------------------------------------

    async def search(self, repo_id: str, query: str, k: int) -> Answer:
        k = max(1, min(100, k))
        if not self.bound:
            answer = await self._keyword(repo_id, query, k, RetrievalPath.KEYWORD_NO_EMBEDDER)
        else:
            try:
                answer = await self._semantic(repo_id, query, k)
            except _Fault as fault:
                self._log_declined(repo_id, fault)
                answer = await self._keyword(repo_id, query, k, fault.path)
            except (asyncio.CancelledError, ReadInterrupted):
                raise  # no answer is wanted: not a fault of the semantic path
            except VectorStoreUnavailable as exc:  # a Qdrant server down: the plane is away
                quiet = isinstance(exc, VectorStoreOpening)  # a host's store opens after start
                level = logging.INFO if quiet else logging.WARNING
                log.log(level, "vector store unavailable; answering from BM25: %s", exc)
                answer = await self._keyword(
                    repo_id, query, k, RetrievalPath.KEYWORD_VECTOR_PLANE_UNAVAILABLE
                )
            except Exception:
                log.exception("semantic path threw; answering from BM25")
                answer = await self._keyword(
                    repo_id, query, k, RetrievalPath.KEYWORD_INDEX_DEGRADED
                )
        if answer.mode == SearchMode.SEMANTIC:
            self._declined.pop(repo_id, None)
        self.readiness.observe(answer.path)
        answer.pool = answer.hits
        answer.hits = await asyncio.to_thread(
            self._finish, repo_id, query, answer.hits, k, answer.unnamed
        )
        return answer

    def _log_declined(self, repo_id: str, fault: _Fault) -> None:
        """Why the semantic path declined, at INFO when the reason changed for the repository
        (vectors still backfilling decline every search: one line, not one per query)."""
        reason = (fault.path, str(fault))
        changed = self._declined.get(repo_id) != reason
        self._declined[repo_id] = reason
        level = logging.INFO if changed else logging.DEBUG
        log.log(level, "semantic path declined for %s (%s): %s", repo_id, fault.path.value, fault)

    def _finish(
        self,
        repo_id: str,
        query: str,
        hits: list[t.SearchHit],
        k: int,
        unnamed: dict[str, KeywordHit] | None = None,
    ) -> list[t.SearchHit]:
        """The answer's `k` hits, its tail filled with its head's neighbours when the
        repository's file graph is built, each test file's subject above it unless the query
        asks for tests (subjects.py), or each file's tests above it when the query is about
        tests (tests_first.py), each with the memory linked to it. The hits in
        `unnamed` that the answer keeps get their `symbol:` reasons first: which hits it keeps
        does not depend on reasons, and the reasons are what naming would have given them."""
        graph = self.graphs.graph(repo_id)
        # a lone name only tests declare (`TestClientRetryGet`) looks its test up: first,
        # not below its subject (keyword search ranks it so; the fusion let embedded files
        # pass it, and the subject went above it)
        looked_up = self._tests_looked_up(repo_id, query)
        # `where is the Value interface defined`: the files declaring it (defining_files.py)
        defining = namespace_defining(self.graphs.resolver, repo_id, query) or self.views.read(
            lambda conn: defining_files(conn, repo_id, query)
        )
        defining |= self._manifests_updated(repo_id, query)  # `Update serde to 1.0.2`
        defining |= self.views.read(lambda conn: package_doc_files(conn, repo_id, query))
        defining |= self.views.read(lambda conn: flag_files(conn, repo_id, query))  # `--flag`
        subjects: dict[str, str | None] = {}  # finish runs twice when naming: look up once
        held = {hit.entry.path for hit in hits if hit.entry.kind == "File"}
        declaring = self._declaring(repo_id, query)
        # `where is the JSON syntax spec`: a doc, pushed down and never embedded (asked_file)
        asked_order = self.views.read(lambda conn: asked_file(conn, repo_id, query))
        asked = declaring & set(asked_order)
        bring = sorted((looked_up | defining | asked) - held)
        brought = [path_named(self._file_hit(repo_id, p), asked) for p in bring]
        hits = [*hits, *(hit for hit in brought if hit is not None)]  # declared_first lifts them
        hits = declared_first(hits, declaring | looked_up | defining)
        contracts = defining and self.views.read(lambda c: defining_contracts(c, repo_id, query))
        hits = declared_first(hits, contracts & defining)  # above the files implementing it
        top = self.views.read(lambda c: top_level_declaring(c, repo_id, query))
        hits = declared_first(hits, top & defining)  # a module's own above members
        hits = declared_first(hits, self._writing_message(repo_id, query))  # above its type's
        hits = declared_first(hits, readme_asked(asked_order))  # an overview's README first
        hits, users_asked = self._asked_first(repo_id, query, hits)
        hits = frames_first(hits, query)  # a pasted traceback: its frames' files, innermost first
        hits = self._repository_tests_first(repo_id, query, hits)  # `where are the unit tests`
        # a test is left where it is when tests or a name's users (tests among them) are asked,
        # or a trace's frame names it
        tests_asked = Role.TEST in roles_in(query) or bool(looked_up) or users_asked
        tests_asked = tests_asked or holds_frames(query) or asks_benchmarks(query)
        about_tests = Role.TEST in roles_about(query)

        using = self._tests_using(repo_id, query) if about_tests else {}

        def tests_of(source: str) -> list[str]:
            named = self.graphs.resolver.named_tests(repo_id, source)
            return list(dict.fromkeys([*using.get(source, []), *named]))

        subject = subject_of_tests(query) if about_tests else None

        def unit_tested(path: str) -> bool:
            def body() -> str | None:
                row = self.views.get_content(repo_id, path)
                return row.body if row is not None else None

            rows = self.graphs.resolver.symbols.symbols_of_file(repo_id, path)
            return subject is not None and unit_tests_hold(rows, body, subject)

        def subject_of(test: str) -> str | None:
            if test not in subjects:
                subjects[test] = self._subject_of(repo_id, test)
            return subjects[test]

        def finish(hits: list[t.SearchHit]) -> list[t.SearchHit]:
            def hydrate(path: str) -> t.SearchHit | None:
                return self._file_hit(repo_id, path)

            kept = hits[:k] if graph is None else fill_tail(hits, graph, k, hydrate)
            if about_tests:  # a Rust file's own unit tests first, then each file's tests
                kept = inline_tests_first(kept, k, unit_tested, hits)
                return tests_first(kept, k, tests_of, hydrate, hits, query)
            return kept if tests_asked else subjects_first(kept, k, subject_of, hydrate, hits)

        if unnamed:
            kept = [unnamed[h.entry.key] for h in finish(hits) if h.entry.key in unnamed]
            if kept:
                named = {hit.path: hit.reasons for hit in name_symbols_of(self.views, kept)}
                hits = [renamed(hit, named) for hit in hits]
        now = time.time()
        answer = attach_linked(self.memory, finish(hits), now)
        # a memory hit a hit above it carries is left out, its slot to the next hit; each
        # round drops at least one of `hits`' memory hits, so the rounds end
        while shown := shown_above(answer):
            hits = [hit for hit in hits if hit.entry.key not in shown]
            answer = attach_linked(self.memory, finish(hits), now)
        return answer

    def _repository_tests_first(
        self, repo_id: str, query: str, hits: list[t.SearchHit]
    ) -> list[t.SearchHit]:
        """A question asking for the repository's tests gets them first (repo_tests.py)."""
        kinds = kinds_asked(query)
        if kinds is None:
            return hits
        tests, modules = listed_tests(self.views, self.graphs.resolver.symbols, repo_id)
        hydrate = partial(self._file_hit, repo_id)
        return repository_tests_first(hits, tests, modules, kinds, hydrate)

    def _declaring(self, repo_id: str, query: str) -> set[str]:
        """The files the query names by path (`examples/simple/main.go`: an example is never
        embedded, so the fusion let a file sharing its words pass it), the files declaring a
        declaration it names by its qualified name, of the roles the query does not push
        down (a test's mock of the class is not what it means), the modules it names so
        (`starlette.exceptions`), whatever their role, the files writing an error message
        it pastes (pasted_message.py), the changelog a query asks for (changelog_files) and
        the files a release request changes (release_files: `__version__`)."""
        by_path = set(self.views.read(lambda conn: path_named_files(conn, repo_id, query)))
        by_path |= self._writing_message(repo_id, query)
        by_path |= set(self.views.read(lambda conn: changelog_files(conn, repo_id, query)))
        by_path |= set(self.views.read(lambda conn: release_files(conn, repo_id, query)))
        if not by_path:  # `where is the tsconfig`: the root's tsconfig.json
            by_path = set(self.views.read(lambda conn: asked_file(conn, repo_id, query)))
        if not qualified_names(query):
            return by_path
        named = self.views.read(lambda conn: declared_symbols(conn, repo_id, query, NAMED_POOL))
        modules = self.views.read(lambda conn: module_named_files(conn, repo_id, query))
        asked = roles_in(query)
        qualified = {
            path
            for path, tiers in named.items()
            if QUALIFIED_NAME_TIER in tiers.values() and role_prior(path, asked) >= 1.0
        }
        # a committed build declares the name again (builds_last.py)
        built = self.views.read(lambda conn: generated_of(conn, repo_id, qualified))
        return by_path | set(modules) | sources_over_builds(qualified, built, query)

    def _writing_message(self, repo_id: str, query: str) -> set[str]:
        """The files writing the error message the query pastes (pasted_message.py), of the
        roles the query does not push down: a test asserting the message is not where it is
        written, nor one of the few files a message may match (QA on typestack/class-validator:
        `BadRequestException: password should not be empty` is written by two decorators and
        asserted by four test files, and six files were too many to name any)."""
        if not message_queries(query):
            return set()
        asked = roles_in(query)

        def matching(match: str, limit: int) -> list[str]:
            found = self.views.read(
                lambda conn: paths_matching(conn, repo_id, match, MESSAGE_MATCHES)
            )
            if len(found) == MESSAGE_MATCHES:  # more, in no order: common prose
                return found[:limit]
            # a committed build repeats each message of its sources (builds_last.py)
            built = self.views.read(lambda conn: generated_of(conn, repo_id, set(found)))
            kept = sources_over_builds(set(found), built, query)
            return [path for path in found if path in kept and role_prior(path, asked) >= 1.0][
                :limit
            ]

        return files_writing_message(query, matching)

    def _asked_first(
        self, repo_id: str, query: str, hits: list[t.SearchHit]
    ) -> tuple[list[t.SearchHit], bool]:
        """`hits` with what the query asks for by its form first: the doc files for `where
        is X documented` (docs_first.py), the files using a name for `what calls X`
        (users_first.py); and whether the users were placed."""
        # a tool's .babelrc, the CI files for `where is the CI workflow`
        rc = partial(config_files_named, self.views, repo_id, partial(self._file_hit, repo_id))
        sections = partial(sectioned_config, self.views, repo_id)  # `[mypy]`, `[coverage:run]`
        hits = asked_pages_first(query, hits, partial(self._holds_subject, repo_id), rc, sections)
        reads = bench_reads(self.views, repo_id, self._holds_subject, self._file_hit)
        hits = benches_first(query, hits, reads)  # `benchmarks for X`: Go's in its _test.go
        used = used_name(query) or spelled_name(query, partial(self._declared, repo_id))
        raisers = bool(used) and asks_raisers(query)  # `who throws IllegalArgumentException`
        users = (
            self.name_users.users_of(repo_id, used, asks_importers(query), raisers) if used else []
        )
        if used and raisers and not users:  # an undeclared exception: the files throwing it
            users = raising(self.views, repo_id, used)
        hydrate = partial(self._file_hit, repo_id)
        written = imported_file(query) if not users else None
        if written is not None:  # `what imports src/drivers/utils/index.ts`
            users = importers_of_files(self.views, self.graphs.resolver, repo_id, written)
            return users_first(hits, users, written, hydrate, file=True), bool(users)
        interface = implemented_interface(query)  # `where is DiagnosticWriter implemented`
        if interface and (go := self._go_implementers(repo_id, interface)):
            return users_first(hits, go, interface, hydrate, reason=IMPLEMENTS_REASON), True
        if used and asks_implementers(query) and (go := self._go_implementers(repo_id, used)):
            return users_first(hits, go, used, hydrate, reason=IMPLEMENTS_REASON), True
        if used and asks_implementers(query):  # `what implements X`: of its users, those that do
            declaring = self.graphs.resolver.symbols.symbols_named(repo_id, [last_part(used)])
            users = implementing(self.views, repo_id, used, users, declaring) or users
        if not (used and users):
            return hits, False
        hits = users_first(hits, users, used, hydrate)
        built = self.views.read(lambda c: generated_of(c, repo_id, set(users)))
        return users_before_builds(hits, built, query), True

    def _declared(self, repo_id: str, names: Sequence[str]) -> set[str]:
        return {row.name for row in self.graphs.resolver.symbols.symbols_named(repo_id, names)}

    def _go_implementers(self, repo_id: str, name: str) -> list[str]:
        return structural_implementers(self.graphs.resolver.symbols, repo_id, name)

    def _holds_subject(self, repo_id: str, path: str, terms: QueryTerms) -> bool:
        row = self.views.get_content(repo_id, path)
        return row is not None and holds_subject(row.body, terms)

    def _manifests_updated(self, repo_id: str, query: str) -> set[str]:
        """The manifests declaring the package a request to update a dependency names
        (dependency_updates.py), of at most MAX_MEMBER_FILES files spelling its words."""
        package = updated_package(query)
        if package is None:
            return set()
        phrase = phrase_query(tuple(tokenize(package)), "body_terms")
        paths = self.views.read(lambda c: paths_matching(c, repo_id, phrase, MAX_MEMBER_FILES))
        out = set()
        for path in filter(may_declare, paths):
            row = self.views.get_content(repo_id, path)
            if row is not None and declaring_file(path, row.body, package):
                out.add(path)
        return out

    def _tests_looked_up(self, repo_id: str, query: str) -> set[str]:
        """The test files declaring the one name the query is, or whose definition it asks
        for (`where is test_hyperlink defined`: definition_sites.defined_name), when only
        tests declare it (search.looks_up_tests); none for a query of more than one word. QA
        on sharkdp/fd: the definition query left tests.rs, the name's one declaration, out of
        the first ten (tests are never embedded; the fusion passed it). A pasted `go test`
        failure looks up the tests it says failed (failed_tests.py), and a request naming a
        qualified name only tests declare the tests declaring it (_qualified_tests)."""
        titled = failed_titles(query)  # Vitest's, Jest's: the test files calling them
        if titled and (calling := files_calling(self.views, repo_id, titled)):
            return calling
        failed = failed_tests(query)
        if failed:  # `TestSchemeMatcher`, or a JVM test by its class: `FooTest.testBar`
            names = [last_part(name) for name in failed]
            rows = self.graphs.resolver.symbols.symbols_named(repo_id, names)
            return {row.path for name in failed for row in declarations_named(name, rows)}
        name = defined_name(query) or query.strip()
        if any(c.isspace() for c in name):
            return self._qualified_tests(repo_id, query)
        named = self.views.read(lambda conn: declared_symbols(conn, repo_id, name, NAMED_POOL))
        return set(named) if looks_up_tests(name, named, roles_in(query)) else set()

    def _qualified_tests(self, repo_id: str, query: str) -> set[str]:
        """The files declaring the qualified names a request writes (`Add
        XmlStringLookupTest.testInterpolatorSecureOnBla()`), when all of them are tests:
        no source file is what it means. QA on apache/commons-text: that request ranked
        XmlStringLookupTest.java 10th (_declaring keeps source files only)."""
        if not qualified_names(query):
            return set()
        named = self.views.read(lambda conn: declared_symbols(conn, repo_id, query, NAMED_POOL))
        asked = roles_in(query)
        files = {path for path, tiers in named.items() if QUALIFIED_NAME_TIER in tiers.values()}
        return files if all(role_prior(path, asked) < 1.0 for path in files) else set()

    def _tests_using(self, repo_id: str, query: str) -> dict[str, list[str]]:
        """For a query about the tests of one name (tests_first.tested_name): each file
        declaring it -> the test files using it (name_users.py), its tests wherever they are
        named. QA on unjs/unstorage: `tests for prefixStorage` ranked src/utils.ts, which
        declares it, first and test/storage.test.ts, which calls it, below it."""
        name = tested_name(query)
        if name is None:
            return {}
        rows = self.graphs.resolver.symbols.symbols_named(repo_id, [last_part(name)])
        named = declarations_named(name, rows)[:MAX_DECLARATIONS]
        named = named or namespace_declarations(self.graphs.resolver, repo_id, name)
        declaring = {row.path for row in named}
        tests = (
            [p for p in self.name_users.users_of(repo_id, name) if is_test_path(p)]
            if declaring
            else []
        )
        return nearest_declaring(declaring, tests)

    def _subject_of(self, repo_id: str, test: str) -> str | None:
        """The indexed source file a test file tests by the naming convention, the one
        related lists it for (symbols/tested_by.py): none for a JS/TS helper beside the tests
        (js_test_helpers; QA on react-hook-form placed src/types/utils.ts above e2e/utils.ts)."""
        if unmarked_js(test):
            row = self.views.get_content(repo_id, test)
            if row is not None and not calls_tests(row.body):
                return None

        def lookup(name: str) -> list[str]:
            return self.views.read(lambda conn: path_named_files(conn, repo_id, name))

        def imports(path: str) -> list[str]:
            return self.views.read(lambda conn: imports_of_file(conn, repo_id, path))

        return subject_of_test(test, lookup, imports)

    def _file_hit(self, repo_id: str, path: str) -> t.SearchHit | None:
        row = self.views.get_file(repo_id, path)
        if row is None:
            return None
        return t.SearchHit(score=0.0, entry=file_entry(repo_id, path, row), reasons=[])

    async def _semantic(self, repo_id: str, query: str, k: int) -> Answer:
        store = self.store
        assert store is not None
        if await asyncio.to_thread(store.count, repo_id=repo_id) == 0:
            raise _Fault(RetrievalPath.KEYWORD_VECTOR_PLANE_UNAVAILABLE, "no vectors yet")
        embedded = await self._embed_query(query)
        if not embedded.ok:
            raise _Fault(RetrievalPath.KEYWORD_VECTOR_PLANE_UNAVAILABLE, embedded.error or "")
        vector = embedded.vectors[0]
        depth = max(k, TAIL_POOL)
        pool = min(8 * depth, POOL_CAP)
        state = await asyncio.to_thread(store.state)
        self.ann_search.add(1, {"state": state.arm})
        exact = self.exact_only or state.arm != "approximate"
        if exact and not self.exact_only and not self.breaker.allows(repo_id):
            raise _Fault(RetrievalPath.KEYWORD_EXACT_FALLBACK_SUPPRESSED, "breaker open")
        started = time.monotonic()
        try:
            search = asyncio.to_thread(store.search, vector, pool, repo_id=repo_id, exact=exact)
            matches = (
                await asyncio.wait_for(search, self.exact_timeout_s) if exact else await search
            )
        except TimeoutError as exc:
            self.breaker.trip(repo_id)
            raise _Fault(RetrievalPath.KEYWORD_INDEX_DEGRADED, "exact scan timed out") from exc
        if exact and time.monotonic() - started > self.exact_timeout_s:
            self.breaker.trip(repo_id)  # answered, but stalled past its budget: hold it shut
        elif exact:
            self.breaker.reset(repo_id)
        hits = await asyncio.to_thread(self._hydrate, repo_id, query, matches, depth)
        if not hits:
            sample = [m.payload.get("source_key") for m in matches[:5]]
            log.warning("index drift: %d candidates, none hydrate; e.g. %s", len(matches), sample)
            raise _Fault(RetrievalPath.KEYWORD_INDEX_DEGRADED, "no candidate hydrates")
        path = RetrievalPath.SEMANTIC_EXACT if exact else RetrievalPath.SEMANTIC_APPROXIMATE
        again = None
        if self.hybrid:
            keyword = await asyncio.to_thread(self._keyword_hits, repo_id, query, pool)
            # as keyword search does (`linter` held as `linters`): unfused, a far passage alone
            # was no match (QA on go-playground/validator: `where is the linter configured`)
            again = None if keyword else respelled(self.views, repo_id, keyword_text(query))
            if again is not None:
                keyword = await asyncio.to_thread(self._keyword_hits, repo_id, again, pool)
            partial = await self._partial(repo_id)
            held = held_at_keyword_rank(query)
            hits = fuse(hits, keyword, depth, impute=partial, unembedded=held)
        return Answer(SearchMode.SEMANTIC, path, hits, respelled=again)

    async def _embed_query(self, query: str) -> EmbedResult:
        """The query's vector within `embed_timeout_s` (concurrent searches share a call). An
        embedder that holds a call (a server that accepted the connection and never answers)
        made every search wait out the tool's deadline: past this one the answer is keyword,
        at once while that call is still held and, after a timeout, for the breaker's period
        (then one probe waits again)."""
        held = self.queries.running_for()
        slow = held is not None and held > self.embed_timeout_s
        if slow or not self.embed_breaker.allows(_ANY_REPO):
            raise _Fault(RetrievalPath.KEYWORD_VECTOR_PLANE_UNAVAILABLE, self._slow_embedder)
        try:
            embedded = await asyncio.wait_for(self.queries.embed(query), self.embed_timeout_s)
        except TimeoutError as exc:
            self.embed_breaker.trip(_ANY_REPO)  # later searches skip the wait for a while
            raise _Fault(
                RetrievalPath.KEYWORD_VECTOR_PLANE_UNAVAILABLE, self._slow_embedder
            ) from exc
        self.embed_breaker.reset(_ANY_REPO)
        return embedded

    @property
    def _slow_embedder(self) -> str:
        return f"the embedder did not answer the query within {self.embed_timeout_s:g} s"

    def _hydrate(
        self, repo_id: str, query: str, matches: list[VectorMatch], k: int
    ) -> list[t.SearchHit]:
        """One hit per file (its best passage: a window or a declaration in it, plus a little
        for each other passage of it in the pool) and per memory entry, by cosine after the
        role prior: a test or doc page that reads like the query is not where a change goes,
        unless the query asks for it."""
        asked, about = roles_in(query), roles_about(query)
        files: dict[str, tuple[float, VectorMatch]] = {}
        support: dict[str, int] = {}
        memory: dict[str, t.SearchHit] = {}
        now = time.time()
        for m in matches:  # best first: the first passage of a source is its best
            if m.payload.get("kind") == "memory":
                source = str(m.payload.get("source_key", ""))
                if source and source not in memory and len(memory) < k:
                    hit = semantic_memory_hit(self.memory, m, now)
                    if hit is not None:  # else forgotten or expired since: dropped
                        memory[source] = hit
                continue
            path = str(m.payload.get("path", ""))
            if not path:
                continue
            support[path] = support.get(path, 0) + 1
            if path not in files:
                factor = 1.0 if role_prior(path, asked, about) >= 1.0 else SEMANTIC_ROLE_FACTOR
                files[path] = (m.score * factor, m)
        files = {
            path: (best + PASSAGE_SUPPORT * math.log(support[path]), m)
            for path, (best, m) in files.items()
        }
        ranked = sorted(files.items(), key=lambda item: (-item[1][0], item[0]))
        hits: list[t.SearchHit] = []
        for path, (score, m) in ranked[: k * 2]:
            row = self.views.get_file(repo_id, path)
            if row is None:
                continue  # drift: the index names a source the views no longer have
            kind = str(m.payload.get("kind", "file"))
            fq = m.payload.get("fq")
            reasons = ["semantic", f"chunk:{kind}"]
            if kind == "symbol" and fq:
                reasons.append(f"symbol:{fq}")
            entry = file_entry(repo_id, path, row)
            hits.append(t.SearchHit(score=score, entry=entry, vectorId=m.id, reasons=reasons))
        return sorted([*hits, *memory.values()], key=lambda h: (-h.score, h.entry.key))

    async def _partial(self, repo_id: str) -> bool:
        """Whether the repository's vectors are still backfilling."""
        if self.coverage is None:
            return False
        coverage = await asyncio.to_thread(self.coverage, repo_id)
        return coverage is not None and not coverage.complete

    def _keyword_hits(
        self,
        repo_id: str,
        query: str,
        k: int,
        unnamed: dict[str, KeywordHit] | None = None,
    ) -> list[t.SearchHit]:
        """Files and live memory by BM25 score (one idf over code and memory, so the scores
        compare: streams/stores/views/bm25.py), ties by key, top k.
        A broken memory index degrades to files only (trees are scanned in isolation).
        With `unnamed`, the files' other declarations are not named yet: `unnamed` gets
        those hits, by key, for `_finish`."""
        text = keyword_text(query)  # a definition's or users' query less its form's words
        text = as_held(self.views, repo_id, text)  # `consolewriter`: ConsoleWriter
        found = keyword_hits(self.views, repo_id, text, k, name_symbols=unnamed is None)
        hits = [keyword_hit(h) for h in found]
        if unnamed is not None:
            unnamed.update(
                (hit.entry.key, ranked)
                for hit, ranked in zip(hits, found, strict=True)
                if ranked.pending is not None
            )
        try:
            hits += keyword_memory_hits(self.memory, repo_id, query, k, time.time())
        except ReadInterrupted:
            raise  # the call ended or ran out of time: nobody waits for the files either
        except Exception:
            log.exception("memory keyword search failed; answering from files")
        hits.sort(key=lambda h: (-h.score, h.entry.key))
        return hits[:k]

    async def _keyword(self, repo_id: str, query: str, k: int, path: RetrievalPath) -> Answer:
        unnamed: dict[str, KeywordHit] = {}
        depth = max(k, TAIL_POOL)
        try:
            found = await asyncio.to_thread(self._keyword_hits, repo_id, query, depth, unnamed)
            again = None if found else respelled(self.views, repo_id, keyword_text(query))
            if again is not None:  # no word held as written: as the repository writes it
                found = await asyncio.to_thread(self._keyword_hits, repo_id, again, depth, unnamed)
        except (asyncio.CancelledError, ReadInterrupted):
            raise  # the call was cancelled, ended or ran out of time: no answer is wanted
        except Exception:
            log.exception("keyword search failed; answering empty")
            return Answer(SearchMode.EMPTY, path, [])
        return Answer(SearchMode.KEYWORD, path, found, unnamed, respelled=again)

    async def warm_up(self, repo_ids: list[str]) -> bool:
        """One real semantic query per repository; True once any answers semantically."""
        for repo_id in repo_ids:
            answer = await self.search(repo_id, "main entry point", 1)
            if answer.path in (RetrievalPath.SEMANTIC_APPROXIMATE, RetrievalPath.SEMANTIC_EXACT):
                return True
        return False
