"""Where in a file a search hit is, and whether anything matched the query at all.

A hit an agent can act on names lines: for a file hit, the declaration around the lines that
match the query best (or those lines alone, outside any declaration); for a symbol hit, the
declaration. Of equally matching lines, one inside the declarations the hit's `symbol:`
reasons name wins, the first named first (those sharing the most query words lead them):
on requests, 'Digest auth fails when the server sends qop=auth-int' showed models.py's
`REDIRECT_STATI: Final[tuple[int, ...]]` (it shares `int`, and starts a declaration near
the top) while its reasons named `Request.auth` and `prepare_auth`, whose lines share `auth`.
A declaration longer than MAX_RANGE_LINES is not what an agent should open (a
hit in click's 750-line `Context` class named all of it): the range is then the matching
lines inside it, near the best one, with CONTEXT_LINES either side. A symbol hit's whole
declaration stays in its entry's `startLine`/`endLine` fields. `snippet` is at most
SNIPPET_LINES of those matching lines, each led by its line number and cut at LINE_CHARS, so
the hit stays small whatever the file.

Lexical evidence is judged per query term: a compound identifier (`zebra_quokka_unique`,
`FlaskClient`, `app.py`) counts only when it occurs whole, since its parts alone (`unique`)
match everywhere; other words count by token, stop words left out. A query made of stop words
only is never judged "no match".
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from processors.licence_header import after_licence, names_licence
from processors.path_roles import TEST_NOUNS, Role, roles_about
from processors.qualified_names import qualified_names, written_parameters
from processors.query_scope import after_scope
from processors.structural import count_lines
from processors.symbols.languages.python import import_name
from processors.tokenizer import CHANGE_VERBS, STOP_WORDS, tokenize
from query_api.retrieval.config_sections import (
    argument_naming,
    exported_settings,
    is_sectioned,
    manifest_block_naming,
    section_naming,
    subject_words,
)
from query_api.retrieval.contractions import without_contractions
from query_api.retrieval.doc_words import DOC_WORDS
from query_api.retrieval.go_directives import directive_naming
from query_api.retrieval.line_preference import LinePreference, PreferenceKey, covered
from query_api.retrieval.make_targets import rule_naming, target_subject
from query_api.retrieval.named_declaration import declaration_named
from query_api.retrieval.naming_line import named_first, with_naming_line
from query_api.retrieval.part_terms import by_members
from query_api.retrieval.part_terms import by_parts as _by_parts
from query_api.retrieval.passages import passage_lines
from query_api.retrieval.past_body_names import named_past_body, reasons_named
from query_api.retrieval.past_first_reason import past_first_reason
from query_api.retrieval.place_numbers import without_place_numbers
from query_api.retrieval.shown_reasons import display_reason, display_reasons
from query_api.retrieval.test_module_lines import (
    TEST_KINDS,
    about_tests,
    held_by,
    outside,
    test_call_ranges,
    test_calling,
    test_module_ranges,
)
from query_api.retrieval.word_forms import forms, needle
from query_api.symbols.overloads import stub_ranges
from schemas import tools as t
from streams.stores.views.named_files import whole_path
from streams.stores.views.read import indexed_terms
from streams.stores.views.store import ViewStore
from streams.stores.views.symbol_spans import Declared, file_spans_cache
from streams.stores.views.symbols import SymbolViews

SNIPPET_LINES = 3
CANDIDATE_LINES = 64  # lines scored exactly per file, those with the most query terms
LINE_CHARS = 160
NEAR_LINES = 10  # outside any declaration, the snippet's other lines are this close to the best
MAX_RANGE_LINES = 40  # a declaration up to this long is the hit's range; a longer one a window
CONTEXT_LINES = 3  # in a long declaration, lines shown around the matching ones
# in a long declaration the snippet's lines are this close to the best line, so the range
# (their span and CONTEXT_LINES either side) is at most MAX_RANGE_LINES long
WINDOW_LINES = (MAX_RANGE_LINES - 2 * CONTEXT_LINES - 1) // 2
SYMBOL_REASON = "symbol:"
PATH_REASON = "path-name-match"
LEXICAL_REASONS = frozenset({PATH_REASON, "topic-match", "content-match", "key-match"})
# an identifier, qualified or not; a part after a dot may be a JS/TS private member
# (`Ky.#retryFromError`, as outline names it), whose `#` would otherwise cut the name in two
_VERSION = re.compile(r"(?<![\w.])\d+(?:\.\d+)+(?![\w.]*\w)")  # `4.5.1`, not `1.2.x`
# after a name too: `Python3.14` (QA on Textualize/rich: its `14` took a `"14.0.0",` line)
_GLUED_VERSION = re.compile(r"(?<=[A-Za-z])\d+(?:\.\d+)+(?![\w.]*\w)")
_WORD = re.compile(r"[^\W\d][\w$]*(?:(?:\.#?|::?)[^\W\d][\w$]*)*")


@dataclass(frozen=True)
class QueryTerms:
    identifiers: tuple[str, ...]  # lower-cased compound identifiers, matched whole
    words: frozenset[str]  # other tokens, stop words left out
    # the identifiers' own words, split while their case still shows them (ParameterSource
    # -> parameter, source: the lower-cased identifier is one token)
    parts: frozenset[str] = frozenset()
    # each identifier's words, stop words kept (the index keeps them): MockCall1400 is
    # mock, call, 1400, where its lower-cased spelling tokenises to mockcall, 1400
    split_identifiers: tuple[frozenset[str], ...] = ()
    # each qualified identifier's parts (click.shell_completion.zshcomplete: click,
    # shell_completion, zshcomplete): a file never holds it whole, its module in its path
    qualified: tuple[tuple[str, ...], ...] = ()
    # two words next to each other in the query, which code may write as one lower-case
    # token (`shell escape` -> `shellescape`, `cookie jar` -> `cookiejar`)
    adjacent: frozenset[tuple[str, str]] = frozenset()
    # `qualified` as the query spells it: Go's `CheckedEntry.before` field and
    # `CheckedEntry.Before` method differ by case alone
    spelled: tuple[tuple[str, ...], ...] = ()
    # the parameter types written after a name (`getOptionValue(Option, String)`), by the
    # name lower-cased: which of a Java method's overloads is meant
    parameters: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...] = ()
    # the query is about tests, the words naming them left out (locating_terms)
    tests_asked: bool = False
    prose_asked: bool = False  # the query is about docs: a docstring may answer it

    @property
    def empty(self) -> bool:
        return not self.identifiers and not self.words


def query_terms(query: str) -> QueryTerms:
    query = without_contractions(query)  # `don't` is no `t` on a `t.Any` line
    query = without_place_numbers(query)  # a trace's `time.rs:45:23`, frame `0:`
    identifiers: dict[str, frozenset[str]] = {}  # lower-cased -> its words
    in_identifiers: set[str] = set()
    for raw in _WORD.findall(query):
        parts = tokenize(raw)
        if len(parts) > 1:
            identifiers.setdefault(raw.lower(), frozenset(parts))
            in_identifiers.update(parts)
    # a version (`4.5.1`) is one term, matched whole: its digits matched any line of numbers
    written = [*_VERSION.findall(query), *_GLUED_VERSION.findall(query)]
    versions = {raw: frozenset(tokenize(raw)) for raw in written}
    identifiers |= {raw: parts for raw, parts in versions.items() if raw not in identifiers}
    left_out = STOP_WORDS.union(in_identifiers, *versions.values())
    words = {w for w in tokenize(query) if w not in left_out}
    identifier_words = frozenset(in_identifiers - STOP_WORDS)
    spelled = tuple(qualified_names(query))
    qualified = tuple(tuple(part.lower() for part in parts) for parts in spelled)
    tokens = tokenize(query)
    pairs = itertools.pairwise(tokens)
    adjacent = frozenset((a, b) for a, b in pairs if a in words and b in words)
    return QueryTerms(
        tuple(identifiers),
        frozenset(words),
        identifier_words,
        tuple(identifiers.values()),
        qualified,
        adjacent,
        spelled,
        tuple(written_parameters(query).items()),
    )


# a request's conditional words (`Guess the scheme if r.URL.Scheme is unset`) are every
# language's keywords and many comments' words: QA on gorilla/mux, `if` pointed mux.go at `//
# If true, do not clear the request context`, not at its scheme lines
CONDITIONALS = frozenset(["if", "else", "elif", "unless"])
# the words asking for a docstring's prose rather than code (LinePreference.code_first)
PROSE_WORDS = DOC_WORDS | {"docstring", "docstrings", "comment", "comments", "typo", "typos"}


def locating_terms(
    terms: QueryTerms, about_docs: bool = False, about_tests: bool = False
) -> QueryTerms:
    """The terms that pick a hit's lines: the query's, less the verbs of a change request
    (`add`, `fix`, `make`) and its conditionals (`if`: CONDITIONALS) while any other word
    or identifier is left. A verb says what to do,
    not where (search weighs it half, the bundle's spans leave it out: context/spans.py), and
    on jinja "Add support for namespaces in tuple assignment" named `add_data(...)` in
    `subparse`, not the `parse_tuple` the hit's reasons name. For a query about docs
    (`where is --exact documented`) the doc words go too: on sharkdp/fd they pointed fd.1 at
    `... is documented here:`, not at its `--exact` section. For a query about tests (`tests
    for reach`) the words naming them go too, the query still about tests (`tests_asked`): on
    jquense/yup they pointed test/yup.js at `test.each([`, not at its `reach(...)` checks.
    One-digit numbers go too: a value pasted with the query (`Failures: 1`, `expected:
    <3>`; QA on apache/commons-io, a Surefire failure pointed a file at `@since 1.3`)."""
    terms = replace(terms, prose_asked=True) if about_docs else terms
    words = terms.words - (CHANGE_VERBS | DOC_WORDS if about_docs else CHANGE_VERBS)
    words -= CONDITIONALS
    words -= {word for word in words if len(word) == 1 and word.isdigit()}
    if about_tests:
        words -= TEST_NOUNS | TEST_KINDS
    if about_tests and not (words or terms.identifiers) and terms.words & TEST_KINDS:
        # `where are the unit tests`: the tests' own lines, not the kind's word
        return replace(terms, words=terms.words - TEST_KINDS, tests_asked=True)
    if words == terms.words or not (words or terms.identifiers):
        return terms
    return replace(terms, words=words, tests_asked=terms.tests_asked or about_tests)


def beyond_path(terms: QueryTerms, path: str) -> QueryTerms:
    """The terms that pick a hit's lines, less the words its path says (a plural or singular
    alike) while another word or identifier is left: the path is why the file matched, not
    where in it. Every unstorage driver declares `DRIVER_NAME = "memory"`, and that line
    took `memory driver timers ttl` from the lines with the timers."""
    said = frozenset(tokenize(path))
    said |= {word[:-1] for word in said if word.endswith("s")}
    words = frozenset(w for w in terms.words if w not in said and w + "s" not in said)
    if words == terms.words or not (words or terms.identifiers):
        return terms
    return replace(terms, words=words)


def line_score(line: str, terms: QueryTerms) -> int:
    """Distinct query words on the line, an identifier counting for two where it stands whole
    and one inside a longer name (on axios, `httpAdapter` picked line 127's
    `isHttpAdapterSupported`, not line 169's `function httpAdapter(config)`) or where the
    line holds all its words apart: on go-resty/resty, no line of request.go holds
    `JSONIndent`, and the hit its reasons led with `noescapeJSONMarshalIndent` pointed at
    `FormData url.Values`, which holds `data`. Two words next to each other in the query are
    on a line that runs them together as one token: resty's `shell escape of the curl command
    arguments` pointed at `url.QueryEscape`, not at `shellescape.Quote`; and a word is on a
    line writing it as two tokens next to each other (`cookiejar` in `CookieJar`). (Each such
    word is a substring of that line, so _candidate_lines' bound holds.) A word counts too
    where the line holds its plural or singular (word_forms: `migrations`, `Migration`)."""
    lowered = line.lower()
    score = 0
    ordered: list[str] | None = None  # the line's tokens, read once and only if needed
    for ident, words in zip(terms.identifiers, terms.split_identifiers, strict=False):
        if ident in lowered:
            score += 2 if _whole(ident).search(lowered) else 1
        elif (last := _last_part(ident)) and last in lowered and _whole(last).search(lowered):
            score += 1  # `IOException` for `java.io.IOException`: the import holds it whole
        elif words and not _VERSION.fullmatch(ident) and all(w in lowered for w in words):
            ordered = tokenize(line) if ordered is None else ordered
            score += words <= frozenset(ordered)
    if terms.words and any(needle(w) in lowered for w in terms.words):
        ordered = tokenize(line) if ordered is None else ordered
        tokens = frozenset(ordered)
        present = terms.words & tokens
        present |= {w for w in terms.words - present if not forms(w).isdisjoint(tokens)}
        for a, b in terms.adjacent:
            if a + b in tokens:
                present |= terms.words & {a, b}
        apart = {w for w in terms.words - present if w in lowered}
        if apart:  # a word the line may write as two tokens
            present |= apart & {a + b for a, b in itertools.pairwise(ordered)}
        score += len(present)
    return score


@functools.lru_cache(maxsize=1024)  # asked once per line a hit's file holds, per identifier
def _last_part(identifier: str) -> str:
    """A qualified identifier's last part, not digits (`ioexception`: java.io.ioexception)."""
    *head, last = re.split(r"\.|::|#", identifier)
    return last if any(head) and last and not last.isdigit() else ""


@functools.lru_cache(maxsize=1024)
def _whole(identifier: str) -> re.Pattern[str]:
    """`identifier` (lower-cased) standing alone: no name character on either side."""
    return re.compile(r"(?<![\w$])" + re.escape(identifier) + r"(?![\w$])")


def matches_indexed_terms(indexed: frozenset[str], terms: QueryTerms) -> bool:
    """Whether a file's indexed words hold any word of the query, or every word of one of its
    identifiers: what can be said of text past the stored body, which only the index holds."""
    if not terms.words.isdisjoint(indexed):
        return True
    return any(words <= indexed for words in terms.split_identifiers)


def matches_lexically(path: str, body: str, terms: QueryTerms) -> bool:
    """Whether the file (path or body) holds any whole identifier or word of the query, or
    every part of a qualified name in it."""
    if terms.empty:
        return True
    text = f"{path}\n{body}"
    lowered = text.lower()
    if any(ident in lowered for ident in terms.identifiers):
        return True
    if any(all(part in lowered for part in parts) for parts in terms.qualified):
        return True
    if not terms.words:
        return False
    if not text.isascii():
        return not terms.words.isdisjoint(tokenize(text))
    return _word_on_some_line(text, lowered, terms.words)


def _word_on_some_line(text: str, lowered: str, words: frozenset[str]) -> bool:
    """Whether an ASCII text holds any of `words` as a token. No token spans a newline and
    an ASCII token is a lower-cased substring of its line, so only the lines where a word
    occurs as a substring are tokenized, not the whole file."""
    checked: set[int] = set()
    for word in words:
        at = lowered.find(word)
        while at != -1:
            start = lowered.rfind("\n", 0, at) + 1
            end = lowered.find("\n", at)
            end = len(lowered) if end == -1 else end
            if start not in checked:
                checked.add(start)
                if not words.isdisjoint(tokenize(text[start:end])):
                    return True
            at = lowered.find(word, end)
    return False


@dataclass(frozen=True)
class Location:
    start_line: int
    end_line: int
    snippet: str


def _snippet(lines: Sequence[str], numbers: Sequence[int]) -> str:
    out = []
    for n in numbers:
        text = lines[n - 1].strip()
        if len(text) > LINE_CHARS:
            text = text[: LINE_CHARS - 1] + "…"
        out.append(f"{n}: {text}")
    return "\n".join(out)


def _innermost(symbols: Sequence[Declared], line: int) -> Declared | None:
    around = [s for s in symbols if s.start_line <= line <= s.end_line]
    return min(around, key=lambda s: s.end_line - s.start_line) if around else None


def locate_in_file(
    body: str,
    symbols: Sequence[Declared],
    terms: QueryTerms,
    within: Declared | None = None,
    named: Sequence[Declared] = (),
) -> Location | None:
    """The lines of `body` (inside `within`, when given) that match the query best; of those
    scoring the same, one inside the first of `named` (the declarations the hit's reasons
    name, in their order) that holds any."""
    lines = body.split("\n")
    first, last = (within.start_line, within.end_line) if within else (1, len(lines))
    last = min(last, len(lines))
    every, rarity = _candidate_lines(body, lines, terms, first, last)
    licence_end = after_licence(lines)  # its lines answer a query naming a licence alone
    if not names_licence(itertools.chain(terms.words, terms.parts, terms.identifiers)):
        every = {n: bound for n, bound in every.items() if n >= licence_end}
    bounds = every
    tests = [] if within else test_module_ranges(symbols, lines)
    if tests and not (terms.tests_asked or about_tests(terms.words, terms.identifiers)):
        bounds = outside(bounds, tests) or bounds  # a Rust file's code before its tests
    elif tests:  # a query about tests: the file's tests before its code
        bounds = held_by(bounds, tests) or bounds
    elif within is None and (terms.tests_asked or about_tests(terms.words, terms.identifiers)):
        bounds = held_by(bounds, test_call_ranges(lines)) or bounds  # a JS file's `test(...)`
    if within is None:  # an overload's code before its stubs (`@overload`, signatures)
        bounds = outside(bounds, stub_ranges(symbols, lines)) or bounds
    # of the lines that match best, a declaration's first line: `WalkBuilder` is where
    # `struct WalkBuilder` starts, not the doc comment above it that names it too
    prose = terms.prose_asked or not terms.words.isdisjoint(PROSE_WORDS)
    prefer = LinePreference(
        {s.start_line for s in symbols}, named, rarity, covered(symbols), licence_end, lines,
        body, code_first=not prose,
    )  # fmt: skip
    # the lines scored exactly: the CANDIDATE_LINES with the highest bounds, of equal bounds
    # those the preference puts first (by line alone, a word on every line kept a named
    # declaration past the first 64 out: jinja's `do_urlize`, for "`urlize` to `@a@b`")
    ranked = _ranked(bounds, prefer)
    known: dict[int, int] = {}  # line -> its score (each line is tokenized once per file)
    best = _best_line(lines, terms, ranked, bounds, known, prefer)
    if best is None and len(bounds) < len(every):  # only the tests' lines match
        bounds = every
        ranked = _ranked(bounds, prefer)
        best = _best_line(lines, terms, ranked, bounds, known, prefer)
    if best is None:
        if within is None:
            return None
        head = first_worded_lines(lines, first, last)
        if not head:
            return None
        return Location(first, _bounded_end(first, last, head[-1]), _snippet(lines, head))
    owner = within or _innermost(symbols, best)
    if owner is not None:
        lo, hi = owner.start_line, min(owner.end_line, len(lines))
        long = hi - lo + 1 > MAX_RANGE_LINES
        near_lo, near_hi = (best - WINDOW_LINES, best + WINDOW_LINES) if long else (lo, hi)
        inside = (n for n in bounds if lo <= n <= hi and near_lo <= n <= near_hi)
        top = _top_lines(
            lines, terms, list(itertools.islice(inside, CANDIDATE_LINES)), bounds, known, rarity
        )
        numbers = sorted(top) or [best]  # the candidates read may all lie before the best
        if long:  # the matching lines and a little around them, inside the declaration
            lo, hi = max(lo, numbers[0] - CONTEXT_LINES), min(hi, numbers[-1] + CONTEXT_LINES)
        return Location(lo, hi, _snippet(lines, numbers))
    below = best >= licence_end  # then no licence line joins the snippet
    imported = prefer.imports
    code = best not in imported  # then no import joins it
    near = [
        n
        for n in ranked
        if abs(n - best) <= NEAR_LINES
        and (n >= licence_end or not below)
        and (n == best or not code or n not in imported)
    ]
    numbers = sorted(_top_lines(lines, terms, near, bounds, known, rarity))
    return Location(numbers[0], numbers[-1], _snippet(lines, numbers))


def _ranked(bounds: dict[int, int], prefer: LinePreference) -> list[int]:
    """The CANDIDATE_LINES lines of `bounds` with the highest bounds, those of equal bounds
    in the order `prefer` gives: the preference key is computed only for the bound groups
    that reach into the first CANDIDATE_LINES (a common word on every line of a long file
    made sorting all of them by key much of a search's CPU), and the order is the one
    sorting every line by (bound, key) gives."""
    by_bound: dict[int, list[int]] = {}
    for n, bound in bounds.items():
        by_bound.setdefault(bound, []).append(n)
    out: list[int] = []
    for bound in sorted(by_bound, reverse=True):
        out.extend(sorted(by_bound[bound], key=prefer.key))
        if len(out) >= CANDIDATE_LINES:
            break
    return out[:CANDIDATE_LINES]


def _bounded_end(start: int, end: int, shown: int) -> int:
    """A range from `start` no longer than MAX_RANGE_LINES, reaching at least line `shown`."""
    return min(end, max(shown, start + MAX_RANGE_LINES - 1))


def _score(lines: Sequence[str], terms: QueryTerms, n: int, known: dict[int, int]) -> int:
    score = known.get(n)
    if score is None:
        score = known[n] = line_score(lines[n - 1], terms)
    return score


# Scoring a line tokenizes it (most of locating a hit's CPU), and a line's bound from
# _candidate_lines is never below its score: a line whose bound cannot beat the best found so
# far is not scored, and the answer is the one scoring every line would give.


def _best_line(
    lines: Sequence[str],
    terms: QueryTerms,
    ranked: Sequence[int],
    bounds: dict[int, int],
    known: dict[int, int],
    prefer: LinePreference,
) -> int | None:
    """Of `ranked` (bound descending, then as `prefer` orders them), the line with the
    highest score, then the one `prefer` puts first; None when none scores."""
    best: tuple[int, PreferenceKey] | None = None
    for n in ranked:
        hope = (-bounds[n], prefer.key(n))  # its key if it scored its bound
        if best is not None and hope > best:
            if hope[0] > best[0]:
                break  # every later line's bound is lower still
            continue
        score = _score(lines, terms, n, known)
        key = (-score, hope[1])
        if score and (best is None or key < best):
            best = key
    return None if best is None else best[1][-1]


def _top_lines(
    lines: Sequence[str],
    terms: QueryTerms,
    numbers: Sequence[int],
    bounds: dict[int, int],
    known: dict[int, int],
    rarity: dict[int, float],
) -> list[int]:
    """The SNIPPET_LINES of `numbers` with the highest scores (then the rarer words, then the
    first), of those that score at all."""
    top: list[tuple[int, float, int]] = []  # (-score, -rarity, line), best first

    def hope(n: int) -> tuple[int, float, int]:
        return -bounds[n], -rarity.get(n, 0.0), n

    for n in sorted(numbers, key=hope):
        if len(top) == SNIPPET_LINES and hope(n) > top[-1]:
            break  # so is every later line's
        score = _score(lines, terms, n, known)
        if score:
            bisect.insort(top, (-score, -rarity.get(n, 0.0), n))
            del top[SNIPPET_LINES:]
    return [n for *_, n in top]


def _candidate_lines(
    body: str, lines: Sequence[str], terms: QueryTerms, first: int, last: int
) -> tuple[dict[int, int], dict[int, float]]:
    """line number (1-based, in first..last) -> an upper bound of its line_score, for the lines
    holding any query term as a substring: str.find over the lower-cased body, per term and
    once per line (a regex alternation of many words over a long file is far slower); and
    each such line's rarity: the sum, over the terms it holds, of one over the lines holding
    the term (a word on every line of response.go says less than the one `gzip` line)."""
    # a word's needle is what its plural and singular share (word_forms): a bound, not a score
    lasts = filter(None, map(_last_part, terms.identifiers))  # `IOException` (line_score)
    needles = [*terms.identifiers, *sorted(needle(w) for w in terms.words), *lasts]
    lowered = body.lower()
    if not needles:
        return {}, {}
    if len(lowered) != len(body):  # a rare case mapping changed the length: line by line
        span = range(first, last + 1)
        apart = terms.split_identifiers
        return {
            n: 1
            for n in span
            if any(x in lines[n - 1].lower() for x in needles)
            or any(all(w in lines[n - 1].lower() for w in ws) for ws in apart)
        }, {}
    starts = list(itertools.accumulate((len(line) + 1 for line in lines[:-1]), initial=0))
    lo, hi = starts[first - 1], starts[last] if last < len(starts) else len(body)

    def lines_holding(needle: str) -> list[int]:
        out = []
        at = lowered.find(needle, lo, hi)
        while at != -1:
            line = bisect.bisect_right(starts, at)
            out.append(line)
            end = starts[line] if line < len(starts) else hi
            at = lowered.find(needle, end, hi)
        return out

    found: dict[int, int] = {}
    rarity: dict[int, float] = {}
    held: dict[str, list[int]] = {}
    for i, part in enumerate(needles):
        weight = 2 if i < len(terms.identifiers) else 1
        held[part] = lines_holding(part)
        for line in held[part]:
            found[line] = found.get(line, 0) + weight
            rarity[line] = rarity.get(line, 0.0) + 1.0 / len(held[part])
    # an identifier's words apart on a line not holding it count one there (line_score)
    for ident, words in zip(terms.identifiers, terms.split_identifiers, strict=False):
        holding = set.intersection(*(set(lines_holding(w)) for w in words)) if words else set()
        for line in sorted(holding.difference(held[ident])):
            found[line] = found.get(line, 0) + 1
    return found, rarity


class HitLocator:
    """Reads what locating a hit needs from the views (one content row per file)."""

    def __init__(self, views: ViewStore) -> None:
        self.views = views
        self.symbols = SymbolViews(views)
        self.spans = file_spans_cache(views)

    def body(self, repo_id: str, path: str) -> str | None:
        row = self.views.get_content(repo_id, path)
        return row.body if row is not None else None

    def indexed_terms(self, repo_id: str, path: str) -> frozenset[str]:
        found = self.views.read(lambda conn: indexed_terms(conn, repo_id, path))
        return found or frozenset()

    def symbols_of(self, repo_id: str, path: str) -> Sequence[Declared]:
        """The file's declarations in order (the cache's list: not to be changed)."""
        found = self.views.read(lambda conn: self.spans.of_files(conn, repo_id, [path]))
        return found.get(path, [])

    def packages(self, repo_id: str, path: str) -> set[str]:
        """The directories above `path` that hold an indexed `__init__.py`."""
        dirs = path.split("/")[:-1]
        wanted = ["/".join(dirs[: i + 1]) + "/__init__.py" for i in range(len(dirs))]
        found = self.symbols.indexed_paths(repo_id, wanted) if wanted else set()
        return {p.rsplit("/", 1)[0] for p in found}


@dataclass
class Enriched:
    hits: list[t.SearchHit]
    lexical: bool  # some hit holds a whole identifier or a word of the query


# Hits that get lines and a snippet: an agent reads the first few; locating costs a body read
# and a scan per hit, so all 100 of a large k would dominate the answer's latency.
DETAILED_HITS = 10


def enrich(
    locator: HitLocator, repo_id: str, query: str, hits: list[t.SearchHit], *, details: bool
) -> Enriched:
    """Hits with their lines, snippet and import-path names (with `details`), and whether any
    of them matches the query lexically (read until the first one that does, without). The
    lines are those of the request after the scope it opens with (`fix(transport-commons):
    ...`): the scope names the folder the search lifts, and its words picked feathers'
    `createDebug('@feathersjs/transport-commons')` line in every file of that package; the
    scope's words pick them only where the rest finds none."""
    terms = query_terms(query)
    about = roles_about(query)
    docs, tested = Role.DOC in about, Role.TEST in about
    located = locating_terms(terms, docs, tested)  # whether it matches reads every word, verbs too
    # the lines are picked by the words after a scope the request opens with, when any
    after = query_terms(after_scope(query))
    # a qualified name the scope is (`zap.Any: Reduce stack size`) names the declaration the
    # change is in: kept, though the scope's words pick no lines (`stack` took `Stack`)
    located_after = (
        located
        if after.empty
        else replace(
            locating_terms(after, docs, tested), qualified=terms.qualified, spelled=terms.spelled
        )
    )
    lexical = terms.empty
    named_path = whole_path(query).casefold()
    # a name's parts too: `git2` is `git` and `2`, as `[dependencies.git2]` is read
    words = located.words | located.parts
    configured = subject_words(query, words) if Role.CONFIG in about else frozenset()
    targets = target_subject(query)
    out: list[t.SearchHit] = []
    for rank, hit in enumerate(hits):
        entry = hit.entry
        path = entry.path or entry.fields.get("filePath")
        detail = details and rank < DETAILED_HITS
        if entry.kind == "Memory" or not path:
            lexical = lexical or any(
                r in LEXICAL_REASONS or r.startswith("tag:") for r in hit.reasons
            )
            out.append(hit)
            continue
        if lexical and not detail:
            out.append(_as_imported(locator, repo_id, path, hit) if details else hit)
            continue
        body = locator.body(repo_id, path) or ""
        # a file the query calls by what it is (`the changelog`: CHANGES.rst) holds no word
        # of it, and is still what it asked for
        lexical = lexical or PATH_REASON in hit.reasons or matches_lexically(path, body, terms)
        if not lexical and "truncated" in entry.fields:  # searched past its stored body
            lexical = matches_indexed_terms(locator.indexed_terms(repo_id, path), terms)
        if detail:
            shown = _detailed(locator, repo_id, path, body, located_after, hit)
            if shown.startLine is None and located_after is not located:
                shown = _detailed(locator, repo_id, path, body, located, hit)
            if configured and is_sectioned(path):
                shown = _at_section(
                    shown, body, section_naming(body.split("\n"), configured, query)
                )
            elif configured and (exported := exported_settings(path, body.split("\n"), configured)):
                shown = _at_section(shown, body, exported)
            elif configured and (passed := argument_naming(path, body.split("\n"), configured)):
                shown = _at_section(shown, body, passed)  # setup.py's `python_requires=`
            elif configured and (go := directive_naming(path, body.split("\n"), configured)):
                shown = _at_section(shown, body, go)  # go.mod's `go 1.24.0`
            elif configured and (
                block := manifest_block_naming(path, body.split("\n"), configured, query)
            ):
                shown = _at_section(shown, body, block)  # package.json's `"engines": {`
            elif targets and (rule := rule_naming(path, body.split("\n"), targets)):
                shown = _at_section(shown, body, rule)  # `the Makefile target for docs`
            out.append(_at_head(shown, body) if _named_by(path, named_path) else shown)
        else:
            out.append(_as_imported(locator, repo_id, path, hit) if details else hit)
    return Enriched(out, lexical)


def _named_by(path: str, named: str) -> bool:
    """Whether `named` (a query that is only a path, casefolded) is `path` or its tail."""
    folded = path.casefold()
    return bool(named) and (folded == named or folded.endswith("/" + named))


def _at_head(hit: t.SearchHit, body: str) -> t.SearchHit:
    """The hit of a file the query names by path, at the file's head: its first lines are
    what an agent asking for the file reads first (typer's `typer/_click/parser.py` pointed
    at a docstring line that held `parser`)."""
    lines = body.split("\n")
    head = [n for n in range(1, len(lines) + 1) if lines[n - 1].strip()][:SNIPPET_LINES]
    if not head:
        return hit
    # the file's last line, not the empty one after its final newline (reqwest's 12-line
    # src/dns/mod.rs answered lines 1-13)
    end = _bounded_end(1, count_lines(body), head[-1])
    return hit.model_copy(update={"startLine": 1, "endLine": end, "snippet": _snippet(lines, head)})


def _at_section(hit: t.SearchHit, body: str, section: tuple[int, int] | None) -> t.SearchHit:
    """A config file's hit at the `section` (first and last line) naming the configuration
    query's subject (config_sections.py), its header and first lines as the snippet."""
    lines = body.split("\n")
    if section is None:
        return hit
    start, end = section
    shown = [n for n in range(start, end + 1) if lines[n - 1].strip()][:SNIPPET_LINES]
    update = {"startLine": start, "endLine": _bounded_end(start, end, start)}
    return hit.model_copy(update=update | {"snippet": _snippet(lines, shown)})


def _as_imported(locator: HitLocator, repo_id: str, path: str, hit: t.SearchHit) -> t.SearchHit:
    """A hit past the detailed ones (no lines: they cost a body read and a scan) with its
    Python declarations named as code imports them, as the detailed hits name theirs (one
    point read of the file's packages): hit 11 said `src.jinja2.tests.test_odd`."""
    if not path.endswith((".py", ".pyi")):
        return hit
    entry = hit.entry
    named = entry.kind == "Symbol" and entry.fullyQualifiedName
    if not named and not any(r.startswith(SYMBOL_REASON) for r in hit.reasons):
        return hit
    packages = locator.packages(repo_id, path)
    update: dict[str, object] = {"reasons": display_reasons(hit.reasons, path, packages)}
    if named:
        shown = import_name(str(entry.fullyQualifiedName), path, packages)
        update["entry"] = entry.model_copy(update={"fullyQualifiedName": shown})
    return hit.model_copy(update=update)


def _detailed(
    locator: HitLocator, repo_id: str, path: str, body: str, terms: QueryTerms, hit: t.SearchHit
) -> t.SearchHit:
    symbols = locator.symbols_of(repo_id, path)
    packages = locator.packages(repo_id, path) if path.endswith((".py", ".pyi")) else set()
    entry = hit.entry
    within = None
    if entry.kind == "Symbol" and entry.fullyQualifiedName:
        within = next((s for s in symbols if s.fq_name == entry.fullyQualifiedName), None)
        shown = import_name(entry.fullyQualifiedName, path, packages)
        entry = entry.model_copy(update={"fullyQualifiedName": shown})
    stored_lines = body.count("\n") + 1
    within = within or named_past_body(symbols, hit.reasons, terms, body)
    named = None if within else declaration_named(symbols, terms, path, packages, body.split("\n"))
    within = within or (test_calling(body, symbols, named) if terms.tests_asked else None) or named
    if within is not None and within.start_line > stored_lines:  # its place, no snippet
        end = _bounded_end(within.start_line, within.end_line, within.start_line)
        found: Location | None = Location(within.start_line, end, "")
    else:
        named_in = () if within else reasons_named(symbols, hit.reasons, terms.identifiers)
        trimmed = beyond_path(terms, path)
        found = locate_in_file(body, symbols, trimmed, within, named_in) if body else None
        if found is None and body and trimmed is not terms:  # the path's words are all
            found = locate_in_file(body, symbols, terms, within, named_in)
        for parts in (by_members(terms), _by_parts(terms)):  # not whole: `A.b`'s `b`, its words
            if found is None and body and terms.identifiers and parts is not None:
                found = locate_in_file(body, symbols, parts, within, named_in)
        if found is None and body:  # no word of the query on any line: where vectors matched
            found = _passage_location(repo_id, path, body, hit.vectorId)
        if within is None and "truncated" in hit.entry.fields:  # past_first_reason.py
            found = _past_first_reason(symbols, hit.reasons, terms, body, found) or found
    reasons = display_reasons(hit.reasons, path, packages)
    if named is not None:
        shown = display_reason(SYMBOL_REASON + named.fq_name, path, packages)
        reasons = named_first(reasons, shown, SYMBOL_REASON)
    if named is not None and found and found.start_line == named.start_line:  # its head shown
        lines = body.split("\n")
        heads = with_naming_line(found.snippet, lines, named, SNIPPET_LINES)
        found = replace(found, snippet=_snippet(lines, heads)) if heads else found
    update: dict[str, object] = {"entry": entry, "reasons": reasons}
    if found is not None:
        update |= {"startLine": found.start_line, "endLine": found.end_line}
        if found.snippet:
            update["snippet"] = found.snippet
    return hit.model_copy(update=update)


def _past_first_reason(
    symbols: Sequence[Declared],
    reasons: Sequence[str],
    terms: QueryTerms,
    body: str,
    found: Location | None,
) -> Location | None:
    lines = body.split("\n")
    shown = range(found.start_line, min(found.end_line, len(lines)) + 1) if found else range(0)
    best = max((line_score(lines[n - 1], terms) for n in shown), default=0)
    named = past_first_reason(symbols, reasons, terms.words, len(lines), best)
    if named is None:
        return None
    return Location(named.start_line, _bounded_end(named.start_line, named.end_line, 0), "")


def _passage_location(repo_id: str, path: str, body: str, vector_id: str | None) -> Location | None:
    """The lines of the hit's best passage (at most MAX_RANGE_LINES of them), its first
    non-blank lines the snippet: a hit the vectors found by meaning alone still says where."""
    found = passage_lines(repo_id, path, body, vector_id)
    if found is None:
        return None
    lines = body.split("\n")
    top = after_licence(lines)  # a file's first passage holds its licence header (zap),
    # or only part of it (commons-csv's benchmark-prereq.sh): the lines below it, as many
    start = top if found[0] < top <= count_lines(body) else found[0]
    end = found[1] if found[1] >= start else start + found[1] - found[0]
    first, last = start, _bounded_end(start, min(end, count_lines(body)), start)
    shown = first_worded_lines(lines, first, last)
    return Location(first, last, _snippet(lines, shown)) if shown else None


def first_worded_lines(lines: Sequence[str], first: int, last: int) -> list[int]:
    """The first SNIPPET_LINES lines of first..last that hold a letter or a digit, else the
    first non-blank ones: a passage opening with closing brackets (ofetch's fetch.ts
    `75: });  76: }  77: }`) showed only those."""
    span = range(first, min(last, len(lines)) + 1)
    worded = [n for n in span if any(c.isalnum() for c in lines[n - 1])]
    return (worded or [n for n in span if lines[n - 1].strip()])[:SNIPPET_LINES]
