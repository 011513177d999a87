"""BM25 keyword search over the content index (spec §3.4), ranked by SQLite FTS5's bm25().

FTS5's bm25 uses k1 = 1.2 and b = 0.75, as the reference does, and multiplies each column's
term frequency by that column's weight, which is the reference's "weight adds to term
frequency". Its IDF is replaced by the reference's ln(1 + ...) over code and memory together
(streams/stores/views/bm25.py), so file and memory scores are comparable. Known differences
from the reference's own BM25, accepted for an index that answers in milliseconds instead of
re-scoring up to 5000 records per query: document length is the unweighted token count of the
row, length normalisation is per table, and N/df/average length come from the whole index
(every repository), not from the candidate set.
Reasons come from the same statement: bm25() with every weight but one column's set to 0 is
non-zero exactly when a query token occurs in that column.

Named things first, in tiers above every BM25 score (a tier adds its number times one more
than the best BM25 score, so hits stay in score order and BM25 orders each tier):
- 4: the query is a file's path or its trailing segments (`src/flask/app.py`, `app.py`). A
  path's words (`src`, `flask`, `py`) are in most paths and bodies of a repository, so BM25
  ranks a file that repeats them above the file named; reason `path-name-match`.
- 2 / 1: the file declares a symbol the query names (processors.tokenizer.named_identifiers):
  2 when named exactly as written (`QueryClient`, also inside `class QueryClient`), 1 by
  another spelling (`order service` -> OrderService). BM25 alone ranks a short file naming
  OrderService in a signature above the long file that declares it (length normalisation); an
  agent asking for a name wants its definition. The declared symbols lead its `symbol:` reasons.
- 1 more: a source file called by a compound name the query writes (`TypedPath` ->
  typed_path.rs, `v-for` -> vFor.ts), where the thing lives though it may not declare it.
"""

from __future__ import annotations

import functools
import json
import math
import re
import sqlite3
from dataclasses import dataclass

from processors.locale_names import locale_weight, named_locales
from processors.path_roles import (
    TYPE_WORDS,
    Role,
    is_example_config,
    is_type_declarations,
    role_of,
    roles_about,
    roles_asked,
    without_config_words,
    without_question_words,
    without_test_nouns,
)
from processors.qualified_names import names_declaration, qualified_names
from processors.query_mentions import (
    joined_spellings,
    mentioned_names,
    named_file_names,
    phrase_query,
)
from processors.query_scope import (
    in_named_example,
    in_scope,
    named_examples,
    query_scopes,
    without_commit_type,
)
from processors.tokenizer import (
    CHANGE_VERBS,
    STOP_WORDS,
    named_identifiers,
    query_tokens,
    tokenize,
    without_authorship,
)
from streams.stores.views.bm25 import (
    CONTENT_FTS,
    SYMBOL_FTS,
    CorpusIdf,
    corpus_idf,
    ranked_by_token,
)
from streams.stores.views.changelog_files import changelog_files
from streams.stores.views.fields import (
    BODY_FLAG,
    BODY_WEIGHT,
    CONTENT_FIELDS,
    LANGUAGE_WEIGHT,
    NAME_FLAG,
    PATH_FLAG,
    PATH_WEIGHT,
    SIGNATURE_WEIGHT,
    SYMBOL_FIELDS,
    SYMBOL_WEIGHT,
)
from streams.stores.views.lexical import MirrorSpec, Snapshot
from streams.stores.views.locale_files import named_locale_files
from streams.stores.views.named_files import (
    capital_named_files,
    module_named_files,
    path_named_files,
    rust_module_files,
    stem_named_files,
)
from streams.stores.views.project_words import project_words
from streams.stores.views.read import (
    FILE_COLUMNS,
    FileRow,
    file_row,
    paths_matching,
)
from streams.stores.views.release_files import release_files
from streams.stores.views.store import ViewStore
from streams.stores.views.symbol_spans import (
    FileSpansCache,
    file_spans_cache,
    matching_names,
    matching_symbols_of_files,
)
from streams.stores.views.symbols import SymbolRow, symbols_named

MAX_K = 100
GO_COMMAND_PACKAGE = "main"  # the package name every Go command shares
MAX_QUERY_TOKENS = 64  # a pasted paragraph still yields a bounded MATCH expression
MAX_REASONS = 6
POOL_FACTOR = 3  # candidates read from each table per wanted hit, before the scores are added
MIN_POOL = 150  # at least this many, so role priors can lift a source file the pool would cut
PATH_TIER, QUALIFIED_NAME_TIER, WRITTEN_NAME_TIER, SPELLED_NAME_TIER = 4, 3, 2, 1
WRITTEN_FILE_TIER = 1
NAME_BOOST = 1.5
SCOPE_BOOST = 1.5  # processors.query_scope: a file inside the scope a query opens with
LOCALE_BOOST = 3.0  # processors.locale_names: the locale file of a language the query names
MENTION_BOOST = 2.0  # processors.query_mentions: a file whose body spells a name the query writes
MAX_MENTIONED_FILES = 10  # a name more files use points nowhere
_NAME_PARTS = re.compile(r"\.|::")  # where a qualified name's parts meet
# BM25's length normalisation (b = 0.75, fixed in FTS5) pushes long files down, yet the long
# files of a repository are where most changes land: a mild prior (1 + ln(1 + lines))^0.5
# gives some of it back (a 1,000-line file 1.27x a 50-line one).
SIZE_EXPONENT = 0.5
# The size prior is 1 at a 100-line file, so file scores stay comparable with memory entries'
# (one idf over both; a memory entry has no size prior).
SIZE_REFERENCE = 1.0 + math.log1p(100)
SYMBOL_TABLE_WEIGHT = 0.3
CHANGE_VERB_WEIGHT = 0.5  # processors.tokenizer.CHANGE_VERBS
INDEX_STEMS = frozenset({"index", "mod", "init"})
GENERIC_STEMS = frozenset({"index", "main", "mod", "lib", "init", "utils", "util", "types"})
# A file's BM25 score times its role's prior (processors/path_roles.py), unless asked for.
ROLE_PRIOR: dict[Role, float] = {
    Role.SOURCE: 1.0,
    Role.TEST: 0.2,
    Role.DOC: 0.15,
    Role.EXAMPLE: 0.25,
    Role.BENCH: 0.25,
    Role.CONFIG: 0.3,
    Role.VENDORED: 0.3,
}
# A generated file (a Bison parser, protoc's output: processors/structural.is_generated)
# repeats its source's words, but the change goes into the grammar or the .proto, unless
# the query asks for the generated output by name.
GENERATED_PRIOR = 0.3
# A type declarations file (processors.path_roles.is_type_declarations: .d.ts, .pyi) unless the
# request is about types: half its BM25.
TYPES_PRIOR = 0.5
GENERATED_WORDS = frozenset({"generated", "codegen", "regenerate", "regenerated"})

PATH_REASON = "path-name-match"
CONTENT_REASON = "content-match"
SYMBOL_REASON_PREFIX = "symbol:"

# One SELECT per query token (bm25.token_union), each row's bm25() rescaled to the
# corpus idf, summed per document, then joined to its file once (not once per token it
# matched: the join is half of a one-token arm's cost) and filtered to the repository.
# Column order: repo_id, language, path_terms, body_terms.
_CONTENT_ARM = f"""
SELECT content_fts.rowid AS id,
       bm25(content_fts, 0, {LANGUAGE_WEIGHT}, {PATH_WEIGHT}, {BODY_WEIGHT}) * {{scale}} AS rank,
       bm25(content_fts, 0, 0, 1, 0) AS path_rank,
       bm25(content_fts, 0, 0, 0, 1) AS body_rank
FROM content_fts WHERE content_fts MATCH {{match}}
"""
# MATERIALIZED: a one-token union is a plain subquery, and SQLite would flatten it into the
# aggregate, where bm25() cannot run ("unable to use function bm25 in the requested context").
# CROSS JOIN keeps the summed hits the outer loop (not a walk of the repository's rows).
_CONTENT_SUM = """
WITH hits AS MATERIALIZED ({arms}),
scored AS (
  SELECT id, sum(rank) AS score, min(path_rank) AS path_rank, min(body_rank) AS body_rank
  FROM hits GROUP BY id
)
SELECT c.path, s.score, s.path_rank, s.body_rank FROM scored s CROSS JOIN content c ON c.id = s.id
WHERE c.repo_id = :repo {only} ORDER BY s.score, c.path LIMIT :pool
"""
# Column order: repo_id, symbol_terms, signature_terms.
_SYMBOL_ARM = f"""
SELECT symbol_fts.rowid AS id,
       bm25(symbol_fts, 0, {SYMBOL_WEIGHT}, {SIGNATURE_WEIGHT}) * {{scale}} AS rank,
       bm25(symbol_fts, 0, 1, 0) AS name_rank
FROM symbol_fts WHERE symbol_fts MATCH {{match}}
"""
_SYMBOL_SUM = """
WITH hits AS MATERIALIZED ({arms}),
scored AS (SELECT id, sum(rank) AS score, min(name_rank) AS name_rank FROM hits GROUP BY id)
SELECT d.path, sum(s.score) AS score, min(s.name_rank) FROM scored s
CROSS JOIN symbol_docs d ON d.id = s.id
WHERE d.repo_id = :repo {only} GROUP BY d.path ORDER BY score, d.path LIMIT :pool
"""
# Appended to a total's WHERE: only the files named (a JSON array of paths); and to each arm,
# the same files' rows, so the full-text match scores only them.
_ONLY = "AND {column} IN (SELECT value FROM json_each(:only))"
_ONLY_ROWS = """AND {table}.rowid IN (
  SELECT id FROM {rows} WHERE repo_id = :repo AND path IN (SELECT value FROM json_each(:only))
)
"""
_LINES_SQL = """
SELECT path, line_count, generated FROM files
WHERE repo_id = ?1 AND path IN (SELECT value FROM json_each(?2))
"""
_FILES_SQL = f"""
SELECT {FILE_COLUMNS} FROM files
WHERE repo_id = ?1 AND path IN (SELECT value FROM json_each(?2))
"""


@dataclass(frozen=True, slots=True)
class KeywordHit:
    """One ranked file. `score` is positive, higher = better; `file` is None only while the
    file's structure record has not been applied yet (content and structure travel apart)."""

    repo_id: str
    path: str
    score: float
    reasons: tuple[str, ...]
    file: FileRow | None
    # set when the `symbol:` reasons of its other declarations are still to be read
    # (keyword_search with `name_symbols=False`; name_symbols_of fills them in)
    pending: PendingNames | None = None


@dataclass(frozen=True, slots=True)
class PendingNames:
    """What naming a hit's declarations in its reasons needs, kept while it may not be
    shown: reading them is most of a ranking's cost when the hits are C headers, and an
    answer shows 10 of the 50 hits ranked."""

    entry: tuple[float, bool, bool, bool]
    declared: dict[str, int]  # fq name -> tier, of the names the query named
    weights: dict[str, float]  # the query's words (stop words left out) -> idf


def declared_symbols(
    conn: sqlite3.Connection, repo_id: str, query: str, limit: int
) -> dict[str, dict[str, int]]:
    """path -> {fq name: tier} of the symbols the query names (3: by a qualified name it
    writes, `JsonParser.getNumberType`; 2: as written in it; 1: by another spelling), at
    most `limit` declarations read per name and in all."""
    names = named_identifiers(query)
    qualified = qualified_names(query)
    # a qualified name's last part (`Render` of `Data.Render`) is looked up for it alone: a
    # one-word name inside a longer question names nothing by itself
    lookup = [*names, *(parts[-1] for parts in qualified)]
    if not lookup:
        return {}
    written = set(re.findall(r"[\w$]+", query))
    out: dict[str, dict[str, int]] = {}
    rows = symbols_named(conn, repo_id, lookup, limit, limit)
    qualified = _naming_one_command(qualified, rows)
    for row in rows:
        if names_declaration(row.fq_name, qualified):
            tier = QUALIFIED_NAME_TIER
        elif row.name not in names:
            continue
        else:
            tier = WRITTEN_NAME_TIER if row.name in written else SPELLED_NAME_TIER
        # a Rust `mod hyperlink;` names the module whose code is hyperlink.rs: the file
        # declaring it only loads it (fd's main.rs ranked first for `hyperlink`)
        loaded = _loaded_module(conn, repo_id, row)
        for path in loaded or [row.path]:
            named = out.setdefault(path, {})
            named[row.fq_name] = max(tier, named.get(row.fq_name, 0))
    return out


def _naming_one_command(
    qualified: list[tuple[str, ...]], rows: list[SymbolRow]
) -> list[tuple[str, ...]]:
    """`qualified` less the Go `main.X` names declared in several folders: every Go command
    is `package main`, so that qualifier names none of them (QA on rs/zerolog: a panic trace
    ending in the user's own `main.main()` ranked cmd/lint/lint.go and
    cmd/prettylog/prettylog.go level with the frames the repository holds)."""
    out = []
    for parts in qualified:
        if len(parts) == 2 and parts[0] == GO_COMMAND_PACKAGE:
            folders = {
                row.path.rpartition("/")[0]
                for row in rows
                if row.path.endswith(".go") and names_declaration(row.fq_name, [parts])
            }
            if len(folders) > 1:
                continue
        out.append(parts)
    return out


def _loaded_module(conn: sqlite3.Connection, repo_id: str, row: SymbolRow) -> list[str]:
    """The file a Rust module declaration without a body (`pub mod filter;`) loads; none for
    any other declaration."""
    if row.kind != "Namespace" or not row.path.endswith(".rs"):
        return []
    if not row.signature.rstrip().endswith(";"):
        return []
    return rust_module_files(conn, repo_id, row.path, row.name)


@dataclass(frozen=True, slots=True)
class Mirrors:
    """The in-memory postings of the content and symbol tables for this read, each None when
    it cannot answer now (then that table is scored in SQL, which ranks the same)."""

    content: Snapshot | None = None
    symbols: Snapshot | None = None


def file_scores(
    conn: sqlite3.Connection,
    idf: CorpusIdf,
    repo_id: str,
    pool: int,
    only: list[str] | None = None,
    mirrors: Mirrors = Mirrors(),
    project: frozenset[str] = frozenset(),
) -> dict[str, list[float | bool]]:
    """path -> [BM25 of content + symbols, path matched, body matched, symbol name matched]
    for the best `pool` files of each table, or for just the files in `only`; `project`:
    the words naming the project, no path's match (project_words)."""
    found: dict[str, list[float | bool]] = {}
    asked = {tok for tok, _ in idf.scales(CONTENT_FTS)}
    for path, score, path_hit, body_hit in _content_scores(conn, idf, repo_id, pool, only, mirrors):
        path_hit = path_hit and not _by_stop_words(path, asked, project)
        found[path] = [score, path_hit, body_hit, False]
    for path, score, name_hit in _symbol_scores(conn, idf, repo_id, pool, only, mirrors):
        entry = found.setdefault(path, [0.0, False, False, False])
        entry[0] = float(entry[0]) + score * SYMBOL_TABLE_WEIGHT
        entry[3] = name_hit
    return found


def _by_stop_words(path: str, asked: set[str], project: frozenset[str] = frozenset()) -> bool:
    """Whether only stop words of the query, the path's extension or the project's name
    are in the path (`to` in string_to_int.go; `rs` of `tests/tests.rs:2812` in
    src/exit_codes.rs, QA on sharkdp/fd; `flake8` in src/flake8/...): the score counts them
    as BM25 does, but a `path-name-match` reason from them says nothing."""
    tokens = tokenize(path)
    shared = asked.intersection(tokens)
    name = path.rpartition("/")[2]
    extension = tokens[-1:] if "." in name and name.rpartition(".")[2].lower() in tokens else []
    return bool(shared) and shared <= STOP_WORDS.union(extension, project)


def _content_scores(
    conn: sqlite3.Connection,
    idf: CorpusIdf,
    repo_id: str,
    pool: int,
    only: list[str] | None,
    mirrors: Mirrors,
) -> list[tuple[str, float, bool, bool]]:
    """(path, BM25, path matched, body matched) of the best `pool` content rows."""
    if mirrors.content is not None:
        weights = [(tok, idf.idf[tok]) for tok, _ in idf.scales(CONTENT_FTS)]
        best = mirrors.content.best(repo_id, weights, pool, None if only is None else set(only))
        return [(p, v, bool(f & PATH_FLAG), bool(f & BODY_FLAG)) for p, v, f in best]
    arm, total, params = _sql_query(
        _CONTENT_ARM, _CONTENT_SUM, CONTENT_FIELDS, "c.path", pool, only
    )
    rows = ranked_by_token(conn, arm, total, idf.scales(CONTENT_FTS), {"repo": repo_id, **params})
    return [(path, -rank, p_rank < 0, b_rank < 0) for path, rank, p_rank, b_rank in rows]


def _symbol_scores(
    conn: sqlite3.Connection,
    idf: CorpusIdf,
    repo_id: str,
    pool: int,
    only: list[str] | None,
    mirrors: Mirrors,
) -> list[tuple[str, float, bool]]:
    """(path, BM25, a symbol name matched) of the best `pool` files' symbol rows."""
    if mirrors.symbols is not None:
        weights = [(tok, idf.idf[tok]) for tok, _ in idf.scales(SYMBOL_FTS)]
        best = mirrors.symbols.best(repo_id, weights, pool, None if only is None else set(only))
        return [(p, v, bool(f & NAME_FLAG)) for p, v, f in best]
    arm, total, params = _sql_query(_SYMBOL_ARM, _SYMBOL_SUM, SYMBOL_FIELDS, "d.path", pool, only)
    rows = ranked_by_token(conn, arm, total, idf.scales(SYMBOL_FTS), {"repo": repo_id, **params})
    return [(path, -rank, name_rank < 0) for path, rank, name_rank in rows]


def _sql_query(
    arm: str, total: str, table: MirrorSpec, path_column: str, pool: int, only: list[str] | None
) -> tuple[str, str, dict[str, object]]:
    """One table's per-token arm and summing statement, restricted to the files in `only`
    (the arm's full-text match too) when given, and their parameters but the repository."""
    params: dict[str, object] = {"pool": pool}
    if only is None:
        return arm, total.replace("{only}", ""), params
    params["only"] = json.dumps(only)
    arm += _ONLY_ROWS.format(table=table.fts, rows=table.docs)
    return arm, total.replace("{only}", _ONLY.format(column=path_column)), params


def keyword_hits(
    views: ViewStore, repo_id: str, query: str, k: int = 10, *, name_symbols: bool = True
) -> list[KeywordHit]:
    """A repository's files ranked by BM25 for `query`, best first (the read API of search),
    scored from the in-memory postings where they are caught up with this read. Without
    `name_symbols` the hits' other declarations are named later, by name_symbols_of, for
    the hits an answer keeps."""
    content, symbols = views.mirror(CONTENT_FIELDS), views.mirror(SYMBOL_FIELDS)
    declared = file_spans_cache(views)

    def search(conn: sqlite3.Connection) -> list[KeywordHit]:
        mirrors = Mirrors(content.current(conn), symbols.current(conn))
        return keyword_search(conn, repo_id, query, k, mirrors, declared, name_symbols)

    return views.read(search)


def name_symbols_of(views: ViewStore, hits: list[KeywordHit]) -> list[KeywordHit]:
    """`hits` with the `symbol:` reasons a ranking without `name_symbols` left out, as
    keyword_search would have given them (one read for all of them)."""
    pending = [hit for hit in hits if hit.pending is not None]
    if not pending:
        return hits
    cache = file_spans_cache(views)

    def name(conn: sqlite3.Connection) -> dict[str, KeywordHit]:
        paths = [hit.path for hit in pending]
        declared = cache.of_files(conn, pending[0].repo_id, paths)
        out: dict[str, KeywordHit] = {}
        for hit in pending:
            later = hit.pending
            assert later is not None
            limit = MAX_REASONS + len(later.declared)
            named = matching_names(declared.get(hit.path, ()), later.weights, limit)
            entry: list[float | bool] = list(later.entry)
            out[hit.path] = _hit(
                hit.repo_id, hit.path, entry, {hit.path: later.declared}, named, hit.file
            )
        return out

    done = views.read(name)
    return [done.get(hit.path, hit) if hit.pending is not None else hit for hit in hits]


def keyword_search(
    conn: sqlite3.Connection,
    repo_id: str,
    query: str,
    k: int,
    mirrors: Mirrors = Mirrors(),
    declarations: FileSpansCache | None = None,
    name_symbols: bool = True,
) -> list[KeywordHit]:
    query = without_authorship(query)
    asked_for = without_config_words(without_test_nouns(query))  # the words of what it asks
    asked_for = without_question_words(query, asked_for)  # `where is the`: what it asks
    tokens = query_tokens(without_commit_type(asked_for))[:MAX_QUERY_TOKENS]
    tokens += [joined for joined in joined_spellings(query) if joined not in tokens]
    if not tokens:
        return []
    limit = max(1, min(k, MAX_K))
    pool = max(limit * POOL_FACTOR, MIN_POOL)
    idf = _query_idf(conn, tokens, mirrors)
    # the project's name: in most paths, it names no file (project_words)
    project = project_words(conn, repo_id).intersection(tokens)
    found = file_scores(conn, idf, repo_id, pool, mirrors=mirrors, project=project)
    asked = roles_in(query)
    declared = declared_symbols(conn, repo_id, query, pool)
    tiers = _named_tiers(
        conn, repo_id, query, _sources_first(conn, repo_id, declared, tokens), asked
    )
    for path in files_written_by_name(found, query, asked):
        tiers[path] = max(tiers.get(path, 0), WRITTEN_FILE_TIER)  # no more for declaring it
    for path in stem_named_files(conn, repo_id, query):  # below a source declaring the name
        tiers[path] = max(tiers.get(path, 0), WRITTEN_FILE_TIER)
    for path in capital_named_files(conn, repo_id, query):  # `LICENSE`, `README`
        tiers[path] = max(tiers.get(path, 0), WRITTEN_FILE_TIER)
    # called by what they are; a release's version files (`Release 5.0.4`: __version__)
    changelogs = changelog_files(conn, repo_id, query) + release_files(conn, repo_id, query)
    for path in changelogs:
        tiers[path] = max(tiers.get(path, 0), WRITTEN_FILE_TIER)
    if tiers:
        # the named files' whole BM25 and reasons, though the pools above may have cut them
        found.update(file_scores(conn, idf, repo_id, len(tiers), sorted(tiers), mirrors, project))
    locales = named_locales(query)  # `add german translations`: translations/de/de.go
    if locales[0]:  # though the pools above may have cut them
        unread = [p for p in named_locale_files(conn, repo_id, locales) if p not in found]
        found.update(file_scores(conn, idf, repo_id, len(unread), unread, mirrors, project))
    words = set(tokens) - STOP_WORDS
    weights = {word: idf.idf.get(word, 1.0) for word in words}  # which names match best
    lines, generated = line_counts(conn, repo_id, list(found))
    if not words & GENERATED_WORDS:
        for path in generated.intersection(found):
            found[path][0] = float(found[path][0]) * GENERATED_PRIOR
    scopes = (query_scopes(query), named_examples(query))
    _weigh_by_path(found, lines, (asked, roles_about(query)), words - project, scopes)
    for path in found:  # a region it names too (`pt_BR`) counts twice
        found[path][0] = float(found[path][0]) * LOCALE_BOOST ** locale_weight(path, locales)
    for path in mentioned_files(conn, repo_id, query).intersection(found):
        found[path][0] = float(found[path][0]) * MENTION_BOOST
    if tiers:
        step = max((float(e[0]) for e in found.values()), default=0.0) + 1.0
        for path, tier in tiers.items():
            entry = found.setdefault(path, [0.0, False, False, False])
            entry[0] = float(entry[0]) + tier * step
            entry[1] = bool(entry[1]) or tier >= PATH_TIER or path in changelogs
            entry[3] = bool(entry[3]) or path in declared
    ranked = sorted(found.items(), key=lambda item: (-float(item[1][0]), item[0]))[:limit]
    files = file_rows(conn, repo_id, [path for path, _ in ranked])
    if not name_symbols:
        return [
            _pending(repo_id, path, entry, declared, weights, files.get(path))
            for path, entry in ranked
        ]
    with_symbols = [path for path, entry in ranked if entry[3]]
    most_named = max((len(declared.get(path, ())) for path in with_symbols), default=0)
    # stop words left out: `where is the flag parsed` names no `is_switch` or `the_flag`
    limit = MAX_REASONS + most_named
    named = matching_symbols_of_files(conn, repo_id, with_symbols, weights, limit, declarations)
    return [
        _hit(repo_id, path, entry, declared, named.get(path, []), files.get(path))
        for path, entry in ranked
    ]


def _query_idf(conn: sqlite3.Connection, tokens: list[str], mirrors: Mirrors) -> CorpusIdf:
    """The tokens' IDF over code and memory, a change request's verbs weighing less."""
    known = {
        table.name: snapshot.counts(tokens)
        for table, snapshot in ((CONTENT_FTS, mirrors.content), (SYMBOL_FTS, mirrors.symbols))
        if snapshot is not None
    }
    idf = corpus_idf(conn, tokens, (CONTENT_FTS, SYMBOL_FTS), known)
    for token in CHANGE_VERBS.intersection(idf.idf):
        idf.idf[token] *= CHANGE_VERB_WEIGHT
    return idf


def _weigh_by_path(
    found: dict[str, list[float | bool]],
    lines: dict[str, int],
    roles: tuple[set[Role], set[Role]],
    words: set[str],
    scopes: tuple[tuple[tuple[str, ...], ...], frozenset[str]],
) -> None:
    """Each candidate's BM25 times what its path says: its role (the roles the query asks
    for, and is about), whether it declares types for a request that is not about types, a
    name the query says, the scope the query opens with or the example program it names
    (an example the query is about, as a scope), and its length."""
    types = 1.0 if words & TYPE_WORDS else TYPES_PRIOR
    asked, about = roles
    opening, examples = scopes
    for path, entry in found.items():
        example = in_named_example(path, examples)  # its role within the program
        prior = role_prior(path if example is None else example, asked, about)
        prior *= file_name_boost(path, words)
        prior *= types if is_type_declarations(path) else 1.0
        prior *= SCOPE_BOOST if example is not None or in_scope(path, opening) else 1.0
        size = ((1.0 + math.log1p(lines.get(path, 1))) / SIZE_REFERENCE) ** SIZE_EXPONENT
        entry[0] = float(entry[0]) * prior * size


def mentioned_files(conn: sqlite3.Connection, repo_id: str, query: str) -> set[str]:
    """The files whose body spells a compound name the query writes (`RIPGREP_CONFIG_PATH`)
    or a word it quotes as code (`fallthrough`), for each name that at most
    MAX_MENTIONED_FILES files spell: one FTS5 phrase read per name."""
    out: set[str] = set()
    for words in mentioned_names(query):
        phrase = phrase_query(words, "body_terms")
        paths = paths_matching(conn, repo_id, phrase, MAX_MENTIONED_FILES + 1)
        if len(paths) <= MAX_MENTIONED_FILES:
            out.update(paths)
    return out


def file_rows(conn: sqlite3.Connection, repo_id: str, paths: list[str]) -> dict[str, FileRow]:
    """path -> its file row, for the ranked hits of one query (one read, not one per hit)."""
    rows = conn.execute(_FILES_SQL, (repo_id, json.dumps(paths)))
    return {row[1]: file_row(row) for row in rows}


def line_counts(
    conn: sqlite3.Connection, repo_id: str, paths: list[str]
) -> tuple[dict[str, int], set[str]]:
    """path -> line count, and the generated files, for the candidates of one query (one
    read)."""
    counts: dict[str, int] = {}
    generated: set[str] = set()
    for path, count, is_generated in conn.execute(_LINES_SQL, (repo_id, json.dumps(paths))):
        counts[path] = int(count)
        if is_generated:
            generated.add(path)
    return counts, generated


def file_name_boost(path: str, words: set[str]) -> float:
    """More for a file whose name the query says (`the pager` -> pager.py, `request.port` ->
    lib/request.js): every word of the file's stem is a query word. A module's index file
    (`cors/index.ts`, `reverseproxy/mod.rs`, `json/__init__.py`) is called by its folder's
    name. A path's folders are in the path column's BM25 already; the name is what a person
    calls the file."""
    parts = _name_words(path)
    if not parts or parts <= GENERIC_STEMS or not parts <= words:
        return 1.0
    return NAME_BOOST


@functools.lru_cache(maxsize=65_536)  # every candidate of every query
def _name_parts(path: str) -> tuple[str, ...]:
    """The words a person calls a file by, in order: its stem's, or its folder's for an
    index file."""
    folders, _, name = path.rpartition("/")
    parts = tuple(tokenize(name.split(".", 1)[0] or name))
    if frozenset(parts) <= INDEX_STEMS and folders:
        return tuple(tokenize(folders.rpartition("/")[2]))
    return parts


def _name_words(path: str) -> frozenset[str]:
    return frozenset(_name_parts(path))


def files_written_by_name(
    candidates: dict[str, list[float | bool]], query: str, asked: set[Role]
) -> list[str]:
    """The candidate source files called by a compound name the query writes (`TypedPath`
    -> typed_path.rs, `toJSONSchema` -> to-json-schema.ts, `v-for` -> vFor.ts): a file named
    after a thing is where that thing lives, though it may not declare it by that name (a
    derive macro's implementation, a directive's transform). Its words scattered over a
    sentence (file_name_boost) say less; a one-word name (`pager`) is English as often. A
    test so named is one only when the query asks for tests (`tests for buildFullPath` ->
    buildFullPath.spec.js, below the file declaring it)."""
    written = named_file_names(query)
    if not written:
        return []
    return [
        path
        for path in candidates
        if len(_name_parts(path)) > 1
        and "".join(_name_parts(path)) in written
        and (role_prior(path, asked) >= 1.0 or role_of(path) in asked)
    ]


def roles_in(query: str) -> set[Role]:
    """The file roles a query asks for by name (`add tests for ...`); not by a word of a
    package-qualified name (`com.example.App`, `werkzeug.test.Client`: QA on
    apache/commons-text, a pasted trace's `org.example` asked for example files)."""
    words = re.findall(r"[A-Za-z]+", _QUALIFIED_NAME.sub(" ", query))
    return roles_asked({word.lower() for word in words})


# two lowercase package parts or more, then a type's (`com.example.App.main`)
_QUALIFIED_NAME = re.compile(r"\b(?:[a-z_]\w*\.){2,}[A-Z]\w*(?:\.\w+)*")


def role_prior(path: str, asked: set[Role], about: set[Role] | None = None) -> float:
    """The factor a file's BM25 score is multiplied by for its role: 1 for source, the
    role's prior otherwise, and its square root for a role the query asks for (`add tests
    for the pager` lifts the pager's tests, yet the pager itself still leads: requests that
    name tests or docs mostly change the source they describe), 1 for a role the query is
    about (`tests for the pager`: path_roles.roles_about)."""
    role = role_of(path)
    if about and (role in about or (Role.CONFIG in about and is_example_config(path))):
        return 1.0
    prior = ROLE_PRIOR[role]
    return math.sqrt(prior) if prior < 1.0 and role in asked else prior


def _sources_first(
    conn: sqlite3.Connection, repo_id: str, declared: dict[str, dict[str, int]], tokens: list[str]
) -> dict[str, dict[str, int]]:
    """The files declaring a name the query writes, less the generated ones where a source
    file declares one too: axios' four committed bundles each declare `buildFullPath`, and
    took the places after lib/core/buildFullPath.js from its test (`tests for
    buildFullPath`). A name only generated code declares (a protobuf message) keeps them."""
    if len(declared) < 2 or GENERATED_WORDS.intersection(tokens):
        return declared
    _, generated = line_counts(conn, repo_id, list(declared))
    sources = {path: named for path, named in declared.items() if path not in generated}
    return sources or declared


def looks_up_tests(query: str, declared: dict[str, dict[str, int]], asked: set[Role]) -> bool:
    """Whether the query is one name only tests declare (`TestCustomDefaultShellCompDirective`,
    `declared` being declared_symbols' answer): it looks that test up, no source file is what
    it means."""
    return (
        bool(declared)
        and not any(c.isspace() for c in query.strip())
        and all(role_prior(path, asked) < 1.0 for path in declared)
    )


def _named_tiers(
    conn: sqlite3.Connection,
    repo_id: str,
    query: str,
    declared: dict[str, dict[str, int]],
    asked: set[Role],
) -> dict[str, int]:
    """path -> tier for the files the query names: by path (any file), by a module's
    qualified name (any file: as exact as a declaration's), or by a declaration in a file
    whose role the query does not push down (a test function named like the query's words is
    not what a change request asks for), or in an example when only examples and files pushed
    down declare the names: the request is about the example (QA on gorilla/websocket, `fix
    function echoReadAll comment` ranked examples/autobahn/server.go, declaring it, 10th)."""
    tiers: dict[str, int] = {path: PATH_TIER for path in path_named_files(conn, repo_id, query)}
    for path in module_named_files(conn, repo_id, query):
        tiers[path] = max(tiers.get(path, 0), QUALIFIED_NAME_TIER)
    lookup = looks_up_tests(query, declared, asked)
    aside = all(role_prior(path, asked) < 1.0 for path in declared)
    for path, named in declared.items():
        example = aside and role_of(path) == Role.EXAMPLE
        if role_prior(path, asked) < 1.0 and not (lookup or example):
            continue
        tiers[path] = tiers.get(path, 0) + max(named.values())
    return tiers


def _pending(
    repo_id: str,
    path: str,
    entry: list[float | bool],
    declared: dict[str, dict[str, int]],
    weights: dict[str, float],
    file: FileRow | None,
) -> KeywordHit:
    """A ranked file whose other declarations are named later (name_symbols_of)."""
    hit = _hit(repo_id, path, entry, declared, [], file)
    if not entry[3]:
        return hit  # no declaration of it matched: nothing to name
    score, path_hit, body_hit, symbol_hit = entry
    flags = (float(score), bool(path_hit), bool(body_hit), bool(symbol_hit))
    later = PendingNames(flags, declared.get(path, {}), weights)
    return KeywordHit(hit.repo_id, hit.path, hit.score, hit.reasons, hit.file, later)


def _hit(
    repo_id: str,
    path: str,
    entry: list[float | bool],
    declared: dict[str, dict[str, int]],
    matching: list[str],
    file: FileRow | None,
) -> KeywordHit:
    """A ranked file with its reasons; `matching` are the fq names of its declarations that
    share a word with the query, those whose shared words weigh most first
    (symbol_spans.matching_names)."""
    score, path_hit, body_hit, symbol_hit = entry
    # fixed order (spec §1.4): path-name-match, symbol:<fqName>..., content-match; <= 6
    reasons = [PATH_REASON] if path_hit else []
    if symbol_hit:
        room = MAX_REASONS - len(reasons) - (1 if body_hit else 0)
        named = declared.get(path, {})
        # as written first; of those alike, the top-level declaration before members named
        # the same (fasthttp's `type perIPConnCounter`, not the field `perIPConn.
        # perIPConnCounter` that sorts before it): the hit's lines follow the first reason
        exact = sorted(named, key=lambda fq: (-named[fq], len(_NAME_PARTS.split(fq)), fq))
        others = matching[: room + len(exact)]
        fq_names = list(dict.fromkeys([*exact, *others]))[:room]
        reasons += [SYMBOL_REASON_PREFIX + fq_name for fq_name in fq_names]
    if body_hit:
        reasons.append(CONTENT_REASON)
    return KeywordHit(repo_id, path, float(score), tuple(reasons), file)
