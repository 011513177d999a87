"""Which lines of a large file a `slices` bundle entry sends: the declarations the task is about.

A task is a sentence ("how are blueprints registered on the application"), symbol names are
identifiers (`register_blueprint`): both are cut into words, stop words and a change request's verbs
(`fix`, `change`) dropped, and the words compared by their Snowball stems, so
`registered`/`register` and `blueprints`/`blueprint` meet. A declaration counts twice the task
words its name shares plus the task words on its own lines (those no declaration inside it holds:
a method's body is the method's, not its class's), so the function whose code a request
describes is sent though its name says none of it. Among equals, functions and methods come
before types, and both before fields (a one-line `_got_registered_once = False` says little); a
span is a whole declaration with a few lines of context, never one cut in the middle, but the
first, which may be longer than the file's share of lines and then sends its head. When no
declaration shares a word with the task, the lines that share the most words with it are sent
(search found the file by its words), and only a file without any such line sends its head.
A Rust file's unit tests (query_api/symbols/rust_tests.py) come after its code unless the task
asks for tests: named for what they check (`out_of_range_unix_timestamp_is_rejected`), they
outscored the function to change.
A task asking for the users of a name (`what calls formatError`) is sent the declarations that
use it, the name's own declaration and the rest left out: by words, yup's locale.ts sent its
`MixedLocale` interface, whose imports hold `ValidationError`, beside the one function calling
`ValidationError.formatError`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import snowballstemmer

from processors.licence_header import after_licence
from processors.qualified_names import names_declaration
from processors.tokenizer import CHANGE_VERBS, STOP_WORDS, tokenize
from query_api.retrieval.contractions import without_contractions
from query_api.retrieval.line_preference import import_lines
from query_api.retrieval.named_lines import Place
from query_api.symbols.kotlin_locals import without_locals
from query_api.symbols.rust_tests import unit_tests
from streams.stores.views.symbols import SymbolRow

SPAN_CONTEXT = 3  # lines around a matched symbol
SPAN_LINES = 100  # at most this many lines of spans per file
HEAD_LINES = 30  # no symbol matched: this many lines around the best line, else the head
LEAD_LINES = 8  # lines kept above the best-matching line
MERGE_GAP = 8  # spans at most this many lines apart are sent as one
SNAP_LINES = 12  # at most this many padding lines are given up to start after a blank line
MAX_SPANS = 2  # the best-matching declarations of a file; more would be mostly envelope
# a task word a declaration's name shares counts as two on its own lines: measured on the
# localisation benchmark's tuning half, docs/benchmarks.md "Spans by their code"
NAME_WEIGHT = 2
LONG_LINE_CHARS = 400  # a line longer is data (a regex, a table, minified code): no padding
FILL_LINES = 80  # what a bundle grows a file's spans to, as the file's share allows
# the declaration holding the file's passage closest to the task in meaning (the search's best
# passage of the file) counts as this many more task words: docs/benchmarks.md "Spans by the
# passage the vectors found"
HOT_WEIGHT = 2
# the declaration holding the lines the search hit points at (its range, as search shows it)
# counts as this many more task words: docs/benchmarks.md "Spans at the search hit's lines"
HIT_WEIGHT = 2
# The declaration a qualified name in the task names (`JsonParser.getNumberType`) counts this
# many task words more: more than any declaration's words can, so it is sent first
QUALIFIED_WEIGHT = 1000
KIND_ORDER = {"Method": 0, "Function": 0, "Type": 1, "Interface": 1, "Enum": 1}
# an `Other` of several lines ranks as a type: a TypeScript type alias of an object type, a
# Rust or C type definition (got's 58-line `RetryOptions` lost to a one-line property); one
# of a single line (`type Id = string`, a macro) says as little as a field

Span = tuple[int, int, str | None]  # first line, last line, the declaration it is for

_ENGLISH = snowballstemmer.stemmer("english")
TEST_STEM = "test"  # a task asking for tests (`test`, `tests`, `testing`) gets them first


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    return str(_ENGLISH.stemWord(word))


@dataclass(frozen=True)
class Focus:
    """What a `slices` rendering looks for in a file: the task's stems, and at most how many
    declarations it sends (None: MAX_SPANS, one more for a wide share). A small budget's
    answer asks for one when a second declaration's receipt and lines would push its
    envelope past the share the plan allows (plan.ENVELOPE_SHARE)."""

    stems: frozenset[str]
    spans: int | None = None
    qualified: Sequence[Sequence[str]] = ()  # the task's qualified names, as their parts
    places: Sequence[Place] = ()  # the places the task names (`src/fetch.ts:219`)
    used: str | None = None  # the name whose users the task asks for (`formatError`)
    used_calls: bool = False  # it is a function or method: its users call it
    defined: str | None = None  # the name whose definition the task asks for (`Link`)
    spelled: frozenset[str] = frozenset()  # the names the task writes as code (`forEach`)


def task_stems(task: str) -> frozenset[str]:
    """The stems of the task's words, stop words and the verbs of a change request left out
    (unless the task is nothing else): `change how the retry delay is computed` says what to
    do with `change`, and a declaration named for it (`hasCredentialChange`) is not where."""
    words = tokenize(without_contractions(task))  # `don't` is neither `don` nor `t`
    content = [w for w in words if w not in STOP_WORDS]
    kept = [w for w in content if w not in CHANGE_VERBS] or content or words
    return frozenset(stem(w) for w in kept)


def spelled_names(task: str) -> frozenset[str]:
    """The names the task writes as code, as written: words of several parts (`forEach`,
    `addAll`, `parse_header`), which no English word is."""
    return frozenset(w for w in _CODE_WORD.findall(task) if len(tokenize(w)) > 1)


_CODE_WORD = re.compile(r"(?<![\w$.])[A-Za-z_$][\w$]*")


def name_stems(name: str) -> set[str]:
    return {stem(w) for w in tokenize(name)}


def select_spans(
    symbols: Iterable[SymbolRow],
    total_lines: int,
    stems: frozenset[str],
    max_lines: int = SPAN_LINES,
    fill_lines: int = 0,
    lines: Sequence[str] = (),
    max_spans: int | None = None,
    hot: tuple[int, int] | None = None,
    qualified: Sequence[Sequence[str]] = (),
    hit: tuple[int, int] | None = None,
    used_name: str | None = None,
    used_calls: bool = False,
    defined: str | None = None,
    spelled: frozenset[str] = frozenset(),
) -> list[tuple[int, int, str | None]]:
    """(start, end, fq name) line spans in file order, at most `max_lines` lines together
    (grown to `fill_lines` together when they hold fewer); when no declaration shares a word
    with the task by its name or its own lines (one longer than the share, by its name
    only), the window around the line of `lines` (the body) sharing most, else the head of
    the file; at most `max_spans` declarations (None: MAX_SPANS, or one more for a
    share of more than SPAN_LINES lines, a small budget's few files). `hot`: the lines of
    the file's passage closest to the task in meaning (the search's best), whose
    declaration counts HOT_WEIGHT more (see hot_owner). `qualified`: the task's qualified
    names, whose declarations count QUALIFIED_WEIGHT more. `hit`: the lines the search hit
    points at, whose declaration counts HIT_WEIGHT more. `used_name`: the name whose users the
    task asks for; where declarations other than its own use it, only those are sent (with
    `used_calls`, only those calling it). `defined`: the name whose definition the task asks
    for, whose declarations count QUALIFIED_WEIGHT more. `spelled`: the names the task writes as
    code, whose declarations short enough to send count QUALIFIED_WEIGHT more (a type
    longer than the share says which file, not which lines)."""
    max_lines = max(1, max_lines)
    if max_spans is None:
        max_spans = MAX_SPANS + (max_lines > SPAN_LINES)
    # a Kotlin function's local `val`s are no spans: their lines are the function's own
    declared = without_locals(list(symbols))
    owners = _line_owners(declared, lines[:total_lines])
    held = _own_stems(declared, owners, lines[:total_lines], stems)
    users = (
        _users_of(declared, owners, lines[:total_lines], used_name, used_calls)
        if used_name
        else set()
    )
    owner = hot_owner(declared, hot)
    hit_at = hot_owner(declared, hit)
    of_bare = bare_type_named(declared, stems)
    # fd's time.rs sent its test `out_of_range_unix_timestamp_is_rejected`, not `from_str`
    tests = unit_tests(declared) if TEST_STEM not in stems else [False] * len(declared)
    ranked: list[tuple[bool, int, int, int, bool, int, int, _Span]] = []
    for i, (sym, own) in enumerate(zip(declared, held, strict=True)):
        if users and i not in users:
            continue
        named = len(stems & name_stems(sym.name)) + of_bare[i]
        size = sym.end_line - sym.start_line
        if not named and size >= max_lines and i not in (owner, hit_at):
            continue  # its head may not hold the lines that matched: those lines are sent
        overlap = NAME_WEIGHT * named + len(own) + (HOT_WEIGHT if i == owner else 0)
        overlap += HIT_WEIGHT if i == hit_at else 0
        overlap += QUALIFIED_WEIGHT if names_declaration(sym.fq_name, qualified) else 0
        overlap += QUALIFIED_WEIGHT if defined and _defines(sym, defined) else 0
        overlap += QUALIFIED_WEIGHT if _spelled(sym, spelled, size < max_lines) else 0
        if overlap:
            kind = KIND_ORDER.get(sym.kind, 1 if sym.kind == "Other" and size else 2)
            # of equals, the shorter first leaves room for the next; when one is all a file
            # sends, the longer (up to the lines it may hold) shows more of what matters:
            # koa's `body(val)` setter rather than its three-line `body()` getter
            order = -min(size, max_lines) if max_spans == 1 else min(size, max_lines)
            at = _both(hot, hit, max_lines) if i == owner == hit_at else None
            at = at or (hot if i == owner else hit if i == hit_at else None)
            span = _Span(sym.start_line, sym.end_line, sym.fq_name, at)
            # of equals longer than the share, the one holding the passage first: either is
            # cut to a window, its window is placed at the passage, the other's by words
            # alone (gorm's 343-line `ParseField` sent from its head, not the 540-line
            # `setupValuerAndSetter` at the passage that held the lines changed)
            span_key = (-overlap, kind, order, i != owner, size, sym.start_line)
            ranked.append((tests[i], *span_key, span))
    if hot is not None and owner is None and not users:  # outside any declaration: its lines
        size = hot[1] - hot[0]
        weight = HOT_WEIGHT + _outside_weight(hot, hit if hit_at is None else None, lines, stems)
        hot_key = (-weight, 0, size, False, size, hot[0])
        ranked.append((False, *hot_key, _Span(*hot, None, hot)))
    if used_name and hit is not None and hit_at is None:  # a use no declaration holds: first
        # (QA on serde-rs/json: `what implements the Formatter trait` sent ser.rs's
        # `format_escaped_str<W, F: Formatter>`, not `impl Formatter for CompactFormatter`,
        # the line the search pointed at, outside every declaration as a Rust impl is; on
        # console-rs/indicatif `what implements Drop`, which no declaration uses, sent
        # state.rs's AtomicPosition, not `impl Drop for BarState`)
        size = hit[1] - hit[0]
        hit_key = (-QUALIFIED_WEIGHT, 0, size, False, size, hit[0])
        ranked.append((False, *hit_key, _Span(*hit, None, hit)))
    ranked.sort(key=lambda r: r[:7])
    chosen: list[tuple[int, int, str | None]] = []
    used = 0
    for *_, span in ranked:
        a = max(1, span.start - SPAN_CONTEXT)
        z = min(total_lines, span.end + SPAN_CONTEXT)
        if _overlaps(chosen, a, z):
            continue
        if used + (z - a + 1) > max_lines:
            if chosen:
                continue  # a later, smaller declaration may still fit whole
            # the best match alone is too long: the lines of it the passage holds, else those
            # that share the most task words (a change inside a 450-line function is seldom
            # in its head), else its head
            first, last = a, z
            if span.hot is not None:
                a, z = _window_at(span.hot[0], a, z, max_lines)
            else:
                a, z = _window_within(lines, stems, a, z, max_lines)
            if lines and a > 1 and lines[a - 2].strip():  # a window opening mid-statement
                lead = _lead(z - a + 1)
                lowest = max(first, a + lead - (z - a))  # the matched line stays in it
                a, z = _shifted(lines, a, z, lowest, min(a + lead, last - (z - a)))
                if a > 1 and lines[a - 2].strip():  # held at its declaration's end: fewer lines
                    a = _trimmed(lines, a, span.hot[0] if span.hot else z, stems)
            a, z = _with_head(span, a, z)
        chosen.append((a, z, span.fq))
        used += z - a + 1
        if used >= max_lines or len(chosen) >= max_spans:
            break
    if not chosen:
        size = min(HEAD_LINES, max_lines)
        if hit is not None and hit[0] <= total_lines and not users:
            # the line the search showed, not the one sharing most words: commons-csv's pom.xml
            # for `which version of commons-io does commons-csv use` sent its head (12-87, every
            # line naming commons-csv) and left out line 112, <commons.io.version>
            a, z = _window_at(hit[0], 1, total_lines, size)
            window: tuple[int, int, str | None] = (a, min(total_lines, z), None)
        else:
            window = _best_window(lines, stems, total_lines, size)
        return _padded([window], total_lines, min(max_lines, fill_lines), lines, stems=stems)
    rank = {fq: i for i, (_, _, fq) in reversed(list(enumerate(chosen)))}
    spans = _merged(sorted(chosen), max_lines - used, rank)
    return _padded(spans, total_lines, min(max_lines, fill_lines), lines, rank, stems)


# a type declared in at most this many lines (its attribute line with it) holds no code: a
# Rust tuple or unit struct (`pub struct HumanDuration(pub Duration);`), a Go `type Level int8`
BARE_TYPE_LINES = 2
_BARE_KINDS = frozenset({"Type", "Other"})


def bare_type_named(declared: Sequence[SymbolRow], stems: frozenset[str]) -> list[int]:
    """For each of `declared`, the task's stems its type's name shares when it is a member
    declared apart from a type holding no code (BARE_TYPE_LINES): a Rust `impl` block's
    method, a Go method, where that type's code is; 0 for any other. QA on
    console-rs/indicatif: `Fix overflow in HumanDuration ...` sent src/format.rs's one-line
    struct padded with its neighbours, not `impl fmt::Display for HumanDuration`."""
    bare = {
        s.fq_name: s
        for s in declared
        if s.kind in _BARE_KINDS and s.end_line - s.start_line < BARE_TYPE_LINES
    }
    out: list[int] = []
    for sym in declared:
        owner, dot, _ = sym.fq_name.rpartition(".")
        typed = bare.get(owner) if dot else None
        apart = typed is not None and not typed.start_line <= sym.start_line <= typed.end_line
        out.append(len(stems & name_stems(typed.name)) if typed is not None and apart else 0)
    return out


def spans_at_place(
    symbols: Iterable[SymbolRow],
    lines: Sequence[str],
    place: Place,
    max_lines: int = SPAN_LINES,
    fill_lines: int = 0,
) -> list[tuple[int, int, str | None]] | None:
    """The span a task naming a place in the file (`src/fetch.ts:219`) is sent: the innermost
    function or method holding those lines whole when it fits `max_lines` (else the innermost
    declaration that fits), else a window of them from a little above, grown to `fill_lines`
    as other spans are. None when the place is past the file's end (the words choose). A
    task's words had chosen ofetch's `callHooks` for `src/fetch.ts:219`, not line 219."""
    total = len(lines)
    if place.first > total:
        return None
    first, last = place.first, min(place.last, total)
    max_lines = max(1, max_lines)
    holding = sorted(
        (s for s in without_locals(list(symbols)) if s.start_line <= first and last <= s.end_line),
        key=lambda s: s.end_line - s.start_line,
    )
    fitting = [s for s in holding if s.end_line - s.start_line + 1 <= max_lines]
    callable_ = [s for s in fitting if KIND_ORDER.get(s.kind) == 0]
    chosen = (callable_ or fitting)[:1]
    span: tuple[int, int, str | None]
    if chosen:  # its context lines as the share leaves room for them
        sym = chosen[0]
        room = max_lines - (sym.end_line - sym.start_line + 1)
        a = max(1, sym.start_line - min(SPAN_CONTEXT, room // 2))
        z = min(total, sym.end_line + min(SPAN_CONTEXT, room - (sym.start_line - a)))
        span = (a, z, sym.fq_name)
    elif last - first + 1 >= max_lines:  # more lines named than the share holds: their head
        span = (first, first + max_lines - 1, holding[0].fq_name if holding else None)
    else:  # LEAD_LINES above them where the share holds those
        size = min(max_lines, max(last - first + 1 + LEAD_LINES, HEAD_LINES))
        lead = min(LEAD_LINES, size - (last - first + 1))
        a = max(1, min(first - lead, total - size + 1))
        span = (a, min(total, a + size - 1), holding[0].fq_name if holding else None)
    return _padded([span], total, min(max_lines, fill_lines), lines)


def widened(
    spans: Sequence[Span],
    total_lines: int,
    wanted: int,
    lines: Sequence[str],
    stems: frozenset[str] = frozenset(),
) -> list[Span]:
    """`spans` grown on both sides until they hold `wanted` lines together, as a share grows
    them (_padded): every line they held stays, and the lines added around them are the code
    an agent reads next. For the room an answer leaves once no further file fits in it."""
    return _padded(list(spans), total_lines, wanted, lines, None, stems)


@dataclass(frozen=True, slots=True)
class _Span:
    """A candidate span: a declaration's lines (or the passage's own), its fq name, and the
    passage's lines when it holds them."""

    start: int
    end: int
    fq: str | None
    hot: tuple[int, int] | None


def hot_owner(declared: Sequence[SymbolRow], hot: tuple[int, int] | None) -> int | None:
    """The declaration the passage `hot` (first and last line) is in: of those overlapping
    it, the one holding most of its lines, the shortest of equals (a method before its
    class); None when none overlaps it."""
    if hot is None:
        return None
    best: tuple[int, int] | None = None
    owner = None
    for i, sym in enumerate(declared):
        shared = min(sym.end_line, hot[1]) - max(sym.start_line, hot[0]) + 1
        if shared <= 0:
            continue
        key = (shared, -(sym.end_line - sym.start_line))
        if best is None or key > best:
            best, owner = key, i
    return owner


def _both(
    hot: tuple[int, int] | None, hit: tuple[int, int] | None, size: int
) -> tuple[int, int] | None:
    """The passage's lines and the search hit's, in one declaration, as the one range a
    window of `size` lines holds with its lead above; the passage's where they lie too far
    apart. react-hook-form's `where is setValue defined` pointed its hit at `const setValue`
    (1075) and its passage held `setValues` below it (1086-1115): the window opened at the
    passage, and the bundle sent 1078-1185 without the line the search showed."""
    if hot is None or hit is None:
        return hot or hit
    first, last = min(hot[0], hit[0]), max(hot[1], hit[1])
    return (first, last) if last - first + 1 + _lead(size) <= size else hot


def _spelled(sym: SymbolRow, spelled: frozenset[str], short: bool) -> bool:
    """Whether the task writes the declaration's name as code, and its lines can be sent
    (`short`): a constructor shares its class's name, which says the file, not the lines
    (commons-collections' `AbstractLinkedList addAll` sent the constructor)."""
    if not short or sym.name not in spelled:
        return False
    parts = sym.fq_name.replace("::", ".").split(".")
    return len(parts) < 2 or parts[-2] != sym.name


def _defines(sym: SymbolRow, defined: str) -> bool:
    """Whether `sym` is a declaration of `defined` (`Link`, `Router.handle`), as written: in
    react-router's `where is the Link component defined`, `LinkProps` above it shared more of
    the question's words (`component`, `defined` in its comments) and held the vectors'
    passage, and the bundle sent LinkProps where the search pointed at `export const Link`."""
    name = defined.rpartition(".")[2]
    fq = sym.fq_name.replace("::", ".")
    return sym.name == name and (fq == defined or fq.endswith("." + defined))


def _window_at(line: int, a: int, z: int, size: int) -> tuple[int, int]:
    """`size` lines of lines a-z from a little above `line`."""
    start = max(a, min(line - _lead(size), z - size + 1))
    return start, start + size - 1


def _with_head(span: _Span, a: int, z: int) -> tuple[int, int]:
    """A window (a, z) on a declaration longer than the share, moved up to open on the
    declaration's first line when that is at most SNAP_LINES above it and the matched line
    stays in it: commons-text's `WordUtils.wrap` was sent from 752, the line below its
    signature, and an agent could not tell which overload or parameters it read."""
    up = a - span.start
    if up <= 0 or up > SNAP_LINES:
        return a, z
    matched = span.hot[0] if span.hot is not None else a + _lead(z - a + 1)
    return (span.start, z - up) if matched <= z - up else (a, z)


def _lead(size: int) -> int:
    """The lines a window of `size` keeps above its matched line: LEAD_LINES, fewer in a
    window too small to hold them and the line. A 300-token answer's two lines of hyper's
    headers.rs were the two above `te_is_trailers`, then shifted LEAD_LINES down, to the
    next function's head."""
    return min(LEAD_LINES, (size - 1) // 2)


def _line_owners(declared: Sequence[SymbolRow], lines: Sequence[str]) -> list[int]:
    """Per line number (index 0 unused), the index in `declared` of the innermost
    declaration holding it, -1 for none."""
    owner = [-1] * (len(lines) + 1)
    outer_first = sorted(
        range(len(declared)), key=lambda i: (declared[i].start_line, -declared[i].end_line)
    )
    for i in outer_first:  # an inner declaration, later, takes its lines from the outer
        sym = declared[i]
        for number in range(max(1, sym.start_line), min(len(lines), sym.end_line) + 1):
            owner[number] = i
    return owner


def _users_of(
    declared: Sequence[SymbolRow],
    owner: Sequence[int],
    lines: Sequence[str],
    used: str,
    calls: bool = False,
) -> set[int]:
    """The declarations of `declared` (other than those named `used`) whose own lines
    hold `used` as a word, or with `calls` a call of it (`URL(`, `parse::<T>(`, `get<T>(`:
    QA on gorilla/mux sent route.go's `schemeMatcher.Match` for `what calls Route.URL`, for
    its `r.URL.Scheme`, http.Request's field): its users, by their text."""
    called = r"\s*(?:::\s*)?(?:<[^<>()\n]*>\s*)?\(" if calls else r"(?![\w$])"
    word = re.compile(rf"(?<![\w$]){re.escape(used)}{called}")
    found = {
        owner[number]
        for number, line in enumerate(lines, start=1)
        if owner[number] >= 0 and word.search(line)
    }
    return {i for i in found if declared[i].name != used}


def _own_stems(
    declared: Sequence[SymbolRow],
    owner: Sequence[int],
    lines: Sequence[str],
    stems: frozenset[str],
) -> list[frozenset[str]]:
    """Per declaration of `declared`, the task's stems on the lines it holds that no
    declaration inside it holds (`owner`: _line_owners)."""
    found: list[set[str]] = [set() for _ in declared]
    for number, line in enumerate(lines, start=1):
        if owner[number] >= 0 and line.strip():
            found[owner[number]] |= stems & line_stems(line)
    return [frozenset(f) for f in found]


def _outside_weight(
    hot: tuple[int, int], hit: tuple[int, int] | None, lines: Sequence[str], stems: frozenset[str]
) -> int:
    """What a passage outside every declaration counts beyond HOT_WEIGHT, as a declaration
    counts its own lines: the task's stems its lines hold, and HIT_WEIGHT where the search
    hit points into it too. QA on axios: `where is the User-Agent header set` pointed both
    at http.js 284-288, inside a callback no declaration holds, and the bundle sent the
    `setProxy` function, which says `set` in its name."""
    held: set[str] = set()
    for line in lines[hot[0] - 1 : hot[1]]:
        held |= stems & line_stems(line)
    inside = hit is not None and hit[0] <= hot[1] and hit[1] >= hot[0]
    return len(held) + (HIT_WEIGHT if inside else 0)


@functools.lru_cache(maxsize=65536)
def line_stems(line: str) -> frozenset[str]:
    return frozenset(stem(w) for w in tokenize(line))


def _window_within(
    lines: Sequence[str], stems: frozenset[str], a: int, z: int, size: int
) -> tuple[int, int]:
    """`size` lines of lines a-z: from a little above the line past the first that shares
    the most task words, else the first `size`."""
    best, best_line = 0, 0
    for number in range(a + 1, min(z, len(lines)) + 1):
        line = lines[number - 1]
        shared = len(stems & line_stems(line)) if line.strip() else 0
        if shared > best:
            best, best_line = shared, number
    if best == 0:
        return a, a + size - 1
    start = max(a, min(best_line - _lead(size), z - size + 1))
    return start, start + size - 1


def _best_window(
    lines: Sequence[str], stems: frozenset[str], total_lines: int, size: int
) -> tuple[int, int, str | None]:
    """`size` lines from a little above the line sharing the most task words (the first of
    equals), or the file's head when no line shares one."""
    best, best_line = 0, 0
    for number, line in enumerate(lines[:total_lines], start=1):
        if not line.strip():
            continue
        shared = len(stems & line_stems(line))
        if shared > best:
            best, best_line = shared, number
    top = after_licence(lines[:total_lines])  # the head past its licence header
    if best == 0:
        return (top, min(total_lines, top + size - 1), None)
    start = max(top if best_line >= top else 1, min(best_line - LEAD_LINES, total_lines - size + 1))
    return (start, min(total_lines, start + size - 1), None)


def _padded(
    spans: list[tuple[int, int, str | None]],
    total_lines: int,
    wanted: int,
    lines: Sequence[str] = (),
    rank: Mapping[str | None, int] | None = None,
    stems: frozenset[str] = frozenset(),
) -> list[tuple[int, int, str | None]]:
    """Spans grown evenly on both sides (the code around a declaration: its callers, its
    neighbours) until they hold `wanted` lines together: a span of a few lines costs as much
    envelope (receipt, header) as a long one and tells less. The lines the growth added
    start after and end before a blank line where one is near (_at_statements)."""
    core, grew = spans, False
    top = after_licence(lines) if lines else 1  # growth stops below a licence header
    for _ in range(4):
        held = sum(z - a + 1 for a, z, _ in spans)
        if held >= wanted or held >= total_lines - top + 1:
            break
        pad = -(-(wanted - held) // (2 * len(spans)))
        grown = [
            (*_before_long(lines, a, z, max(top if a >= top else 1, a - pad), z + pad), y)
            for a, z, y in spans
        ]
        grown = [(a, min(total_lines, z), y) for a, z, y in grown]
        if grown == spans:
            break  # held by long lines on both sides
        spans, grew = _merged(grown, 0, rank), True
    over = sum(z - a + 1 for a, z, _ in spans) - wanted
    if grew and over > 0:  # padding rounds up: the extra lines are given back
        spans = _given_back(spans, core, over)
    return _at_statements(spans, core, lines, stems) if grew and lines else spans


def _before_long(lines: Sequence[str], a: int, z: int, lo: int, hi: int) -> tuple[int, int]:
    """(lo, hi), the lines a span (a, z) grows to, short of the first line of more than
    LONG_LINE_CHARS on either side: a regex, a table or minified code costs hundreds of tokens
    a line and says little (yup's string.ts grew `rEmail`'s span into `rUrl`'s 1,300-character
    pattern, and the file's share then held no room for `email()`)."""
    if not lines:
        return lo, hi
    for n in range(a - 1, lo - 1, -1):
        if len(lines[n - 1]) > LONG_LINE_CHARS:
            lo = n + 1
            break
    for n in range(z + 1, min(hi, len(lines)) + 1):
        if len(lines[n - 1]) > LONG_LINE_CHARS:
            hi = n - 1
            break
    return lo, hi


def _at_statements(
    spans: list[tuple[int, int, str | None]],
    core: list[tuple[int, int, str | None]],
    lines: Sequence[str],
    stems: frozenset[str] = frozenset(),
) -> list[tuple[int, int, str | None]]:
    """Each span shifted by up to SNAP_LINES so that it starts after a blank line: padding
    of an even number of lines started poetry's installer.py span on the parameters of a
    `def requires_synchronization(` one line above it, which read as broken code. A blank
    line is the one statement boundary every language's code shows. The shift keeps the
    span's length (its share of the budget), its core (a declaration and its context lines)
    and its distance from the spans beside it."""
    out: list[tuple[int, int, str | None]] = []
    for i, (a, z, y) in enumerate(spans):
        inner = [(ca, cz) for ca, cz, _ in core if a <= ca and cz <= z]
        low = out[-1][1] + 2 if out else 1  # a gap line stays between two spans
        high = spans[i + 1][0] - 2 if i + 1 < len(spans) else len(lines)
        if inner and a > 1 and lines[a - 2].strip():
            first, last = min(ca for ca, _ in inner), max(cz for _, cz in inner)
            lowest, highest = max(low, last - (z - a)), min(first, high - (z - a))
            # at the declarations' own level, a start may drop the context lines above them
            own = min(ca + SPAN_CONTEXT if ca > 1 else ca for ca, _ in inner)
            level = min((_indent(line) for line in lines[own - 1 : last]), default=None)
            a, z = _shifted(lines, a, z, lowest, highest, level, min(own, high - (z - a)))
            # held at the file's end or by the next span: fewer lines (line 1 opens nothing)
            if a > 1 and lines[a - 2].strip():
                a = _trimmed(lines, a, own, stems)  # the context lines above may go
        out.append((a, z, y))
    return out


def _shifted(
    lines: Sequence[str],
    a: int,
    z: int,
    lowest: int,
    highest: int,
    level: int | None = None,
    highest_at_level: int | None = None,
) -> tuple[int, int]:
    """(a, z) moved to the nearest start within SNAP_LINES, from `lowest` to `highest`, that
    follows a blank line (the one above of equals); unmoved when there is none. With a
    `level` (the least indentation of the declarations the span holds), a start indented no
    deeper, up to `highest_at_level`, is taken first: a blank line inside a docstring is
    followed by its prose, indented as the body is (jinja's filters.py span began inside
    `do_items`' docstring)."""
    tries: list[tuple[int | None, int]] = [(None, highest)]
    if level is not None:
        tries.insert(0, (level, highest if highest_at_level is None else highest_at_level))
    for limit, top in tries:
        for step in range(1, SNAP_LINES + 1):
            for start in (a - step, a + step):
                if not lowest <= start <= top:
                    continue
                if start > 1 and lines[start - 2].strip():
                    continue
                if limit is None or _indent(lines[start - 1]) <= limit:
                    return start, z + start - a
    return a, z


def _trimmed(lines: Sequence[str], a: int, limit: int, stems: frozenset[str] = frozenset()) -> int:
    """The start of a span opening mid-statement that no shift could move after a blank line
    (its end held at the file's end, its declaration's or the next span's): the first line
    after a blank one within SNAP_LINES below `a`, up to `limit`, the lines above it given
    up, unless one of those holds a task word (`stems`); else `a`. On unjs/ofetch a span of
    utils.ts grown up from `callHooks`, the file's last function, opened on `    Headers`
    and `  );`, the end of a call, and a window of fetch.ts held at `createFetch`'s end on
    `"function") ||`: each read as broken code. A task word in an import statement keeps
    no line: pinia's storeToRefs.ts opened on `  PiniaCustomStateProperties,` inside an
    `import type {` list, kept for its `Store,` line."""
    imported = import_lines(lines) if stems else frozenset()
    for start in range(a + 1, min(a + SNAP_LINES, limit, len(lines)) + 1):
        above = lines[start - 2]
        if start - 1 not in imported and stems and not stems.isdisjoint(line_stems(above)):
            break  # a line the task's words matched stays
        if not above.strip() and lines[start - 1].strip():
            return start
    return a


def _indent(line: str) -> int:
    """The width of a line's leading whitespace (a tab as one column); a blank line's is
    none, so it never starts a span at a declaration's level."""
    if not line.strip():
        return 1 << 16
    return len(line) - len(line.lstrip())


def _given_back(
    spans: list[tuple[int, int, str | None]],
    core: list[tuple[int, int, str | None]],
    over: int,
) -> list[tuple[int, int, str | None]]:
    """`over` lines of padding taken off again, the last span's end first, and only lines
    the padding added: a declaration at the file's end, whose span could grow only
    upwards, lost its own last lines to a cut from the end (ky's two-line `deepMerge`, the
    last declaration of merge.ts, was sent as the 24 lines above it under its name)."""
    out = list(spans)
    for i in range(len(out) - 1, -1, -1):
        a, z, y = out[i]
        inner = [(ca, cz) for ca, cz, _ in core if a <= ca and cz <= z]
        if over <= 0 or not inner:
            continue
        end = min(over, z - max(cz for _, cz in inner))
        start = min(over - end, min(ca for ca, _ in inner) - a)
        out[i] = (a + start, z - end, y)
        over -= end + start
    return out


def _merged(
    spans: list[tuple[int, int, str | None]],
    spare: int,
    rank: Mapping[str | None, int] | None = None,
) -> list[tuple[int, int, str | None]]:
    """Spans a few lines apart joined into one (the lines between them included while the
    file's share of lines allows): one span costs a receipt and a header, a gap of a few
    lines costs less, and reads better. A joined span is named for the better-ranked
    declaration it holds (`rank`; else the first): poetry's `fix Installer._do_refresh`
    was sent as a span named `Installer.lock`, the method above it."""
    out = spans[:1]
    for a, z, symbol in spans[1:]:
        pa, pz, psymbol = out[-1]
        gap = a - pz - 1
        if gap < 0 or (gap <= MERGE_GAP and gap <= spare):
            if rank is not None and rank.get(symbol, len(rank)) < rank.get(psymbol, len(rank)):
                psymbol = symbol
            out[-1] = (pa, max(pz, z), psymbol)
            spare -= max(0, gap)
        else:
            out.append((a, z, symbol))
    return out


def _overlaps(chosen: Sequence[tuple[int, int, str | None]], a: int, z: int) -> bool:
    return any(a <= cz and ca <= z for ca, cz, _ in chosen)
