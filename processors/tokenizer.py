"""The reference's identifier-aware tokenizer (spec §3.4), shared by documents and queries.

Rules: split on anything that is not a letter or digit (Unicode-aware), split camelCase humps
(lower -> upper), split acronym runs before their last capital (`HTTPServer` -> http, server),
split letter <-> digit boundaries, lower-case. No stemming, no stop words.
`utf8Writer` -> utf, 8, writer; `Order-Service` -> order, service.

Why one regex pass: bodies are up to 64 Ki characters and every file upsert is tokenised, so
the split runs in C (`re.findall`) rather than in a per-character Python loop; pure-ASCII text
(most code) uses an ASCII-class twin of the pattern, about twice as fast. The standard `re`
module has no `\\p{Lu}`, so the upper/lower-case letter classes are built once at import from
Python's own Unicode database (only the BMP and SMP hold cased letters; a test checks that).
The alternatives are written so that no input backtracks quadratically (long capital runs
match one character at a time behind a one-character look-ahead).
"""

from __future__ import annotations

import functools
import re

MAX_TOKEN_CHARS = 64  # longer runs (hashes, base64 blobs) are dropped: they only bloat the index
_CASED_PLANES_END = 0x20000  # no cased letters exist beyond the SMP


def _char_class(chars: list[str]) -> str:
    """A regex character class of exactly `chars`, compressed into ranges."""
    parts: list[str] = []
    start = prev = -2
    for code in [*sorted(map(ord, chars)), -1]:
        if code == prev + 1:
            prev = code
            continue
        if start >= 0:
            lo, hi = re.escape(chr(start)), re.escape(chr(prev))
            parts.append(lo if start == prev else f"{lo}-{hi}")
        start = prev = code
    return "[" + "".join(parts) + "]"


def _pattern(alnum: str, upper: str, lower: str, digit: str, other: str) -> re.Pattern[str]:
    """One token = one alphanumeric character, then the run its class allows.

    Leading with a plain character class lets `re` skip separators with its fast prefix scan
    instead of trying every alternative at every position (4-5x faster on code).
    """
    return re.compile(
        rf"{alnum}(?:"
        rf"(?<={lower}){lower}*"  # a lower-case run: utf, writer
        rf"|(?<={upper})(?:{lower}+|(?:{upper}(?!{lower}))*)"  # a hump (Writer) or capital run
        # (HTTP of HTTPServer: the capital that starts the next hump is left to it)
        rf"|(?<={digit}){digit}*"  # a digit run: 8, 2024
        rf"|{other})"
    )


def _unicode_pattern() -> re.Pattern[str]:
    chars = [chr(c) for c in range(_CASED_PLANES_END)]
    upper = _char_class([c for c in chars if c.isupper() and c.isalnum()])
    lower = _char_class([c for c in chars if c.islower() and c.isalnum()])
    cased = _char_class([c for c in chars if (c.isupper() or c.islower()) and c.isalnum()])
    # Other alphanumerics (uncased letters such as CJK, title-case letters, non-decimal numerics):
    # `[^\W\d_]` is str.isalnum() minus decimal digits; the look-ahead removes the cased letters.
    other = rf"(?:(?!{cased})[^\W\d_])*"
    return _pattern(r"[^\W_]", upper, lower, r"\d", other)


# Pure-ASCII text (most code; `str.isascii` is O(1)) takes the cheaper ASCII classes.
_ASCII_TOKEN = _pattern("[A-Za-z0-9]", "[A-Z]", "[a-z]", "[0-9]", "")
_UNICODE_TOKEN = _unicode_pattern()
_NOT_ALNUM_OR_SPACE = re.compile(r"[^\w ]")


def tokenize(text: str) -> list[str]:
    """All tokens of `text` in order, duplicates kept (document term frequencies need them)."""
    is_ascii = text.isascii()
    raw = (_ASCII_TOKEN if is_ascii else _UNICODE_TOKEN).findall(text)
    if not raw:
        return []
    lowered = " ".join(raw).lower()
    if not is_ascii and _NOT_ALNUM_OR_SPACE.search(lowered):
        # A few capitals lower-case to more than one code point (`İ` -> `i̇`, with a combining
        # mark); drop what is no longer alphanumeric so every token stays a clean lower-case word.
        lowered = _NOT_ALNUM_OR_SPACE.sub("", lowered)
    return [tok for tok in lowered.split(" ") if 0 < len(tok) <= MAX_TOKEN_CHARS]


@functools.lru_cache(maxsize=65_536)
def name_tokens(name: str) -> frozenset[str]:
    """The distinct tokens of a declaration's name, remembered: search asks which of a hit's
    declarations a query names for every hit of every query, and the same files' names
    come back query after query."""
    return frozenset(tokenize(name))


MAX_NAME_WORDS = 4  # a longer query is a question, not a name


def name_spellings(query: str) -> list[str]:
    """The identifiers a name-like query may stand for in code: `OrderService` and `order
    service` are OrderService, orderService, order_service and ORDER_SERVICE (and the query
    itself, when it is an identifier). None for a query of more than MAX_NAME_WORDS words."""
    words = tokenize(query)
    if not 0 < len(words) <= MAX_NAME_WORDS:
        return []
    raw = query.strip()
    out = [raw] if raw.isidentifier() else []
    capitalized = [w.capitalize() for w in words]
    out += [
        "".join(capitalized),
        words[0] + "".join(capitalized[1:]),
        "_".join(words),
        "_".join(words).upper(),
    ]
    return list(dict.fromkeys(out))


# Words an agent writes before the name it wants declared: `class QueryClient`, `def login`.
DECLARATION_WORDS = frozenset(
    {"class", "def", "enum", "fn", "func", "function", "interface", "struct", "trait", "type"}
)
_IDENTIFIER = re.compile(r"[^\W\d][\w$]*")
# A quoted one-word name with a capital (`Ignore`, `Context()`) names a type or constant; a
# quoted lower-case word (`index`) is as often a module, a flag or plain English.
_QUOTED_NAME = re.compile(r"`([^\W\d][\w$]{2,})(?:\(\))?`")


def named_identifiers(query: str) -> list[str]:
    """The declarations a query names, for ranking their files first: the whole query's
    spellings (`name_spellings`), again without a leading declaration word (`class
    QueryClient`), and every compound identifier written in it (`QueryClient`,
    `invalidateQueries`, `session_interface` inside a longer question). A one-word identifier
    inside a longer question (`query`) names nothing: such words are everywhere in code."""
    out = name_spellings(query)
    words = query.split()
    if len(words) > 1 and words[0].lower() in DECLARATION_WORDS:
        out += name_spellings(" ".join(words[1:]))
    out += [w for w in _IDENTIFIER.findall(query) if len(tokenize(w)) > 1]
    out += [w for w in _QUOTED_NAME.findall(query) if not w.islower()]
    return list(dict.fromkeys(out))


# A commit message pasted as a request carries trailers and e-mail addresses: who wrote it,
# not where the change goes (their names matched .mailmap and AUTHORS files).
_TRAILER = re.compile(
    r"\b(?:co-authored-by|signed-off-by|reviewed-by|acked-by|tested-by|reported-by"
    r"|suggested-by|helped-by|cc)\s*:[^<>\n]{0,120}<[^<>\n]{1,200}>",
    re.IGNORECASE,
)
_EMAIL = re.compile(r"<?[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+>?")


def without_authorship(query: str) -> str:
    """The request without git trailers (`Co-authored-by: A <a@x.org>`) and e-mail
    addresses."""
    if "@" not in query:
        return query
    return _EMAIL.sub(" ", _TRAILER.sub(" ", query))


def query_tokens(text: str) -> list[str]:
    """The query's tokens de-duplicated in first-seen order (the reference's query rule)."""
    return list(dict.fromkeys(tokenize(text)))


# English function words: no help in telling files apart by what a task or query says
# (bundle spans, snippets and search's file-name match leave them out).
STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "do",
        "does",
        "for",
        "from",
        "how",
        "i",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "should",
        "that",
        "the",
        "this",
        "to",
        "was",
        "we",
        "what",
        "when",
        "where",
        "which",
        "who",
        "why",
        "will",
        "with",
    ]
)


# Words a change request uses to say what to do rather than where (`clean up`, `fix`, `add
# support for`): in code they name unrelated things (a Cleaner, an add() method), so search
# weighs them at CHANGE_VERB_WEIGHT of their idf.
CHANGE_VERBS = frozenset(
    [
        "add",
        "adds",
        "added",
        "allow",
        "allows",
        "also",
        "avoid",
        "change",
        "changes",
        "clean",
        "cleanup",
        "drop",
        "ensure",
        "fix",
        "fixed",
        "fixes",
        "handle",
        "handles",
        "improve",
        "improves",
        "make",
        "makes",
        "move",
        "new",
        "now",
        "prefer",
        "refactor",
        "remove",
        "removed",
        "removes",
        "rename",
        "simplify",
        "support",
        "supports",
        "tidy",
        "up",
        "update",
        "updated",
        "updates",
        "use",
        "uses",
        "when",
    ]
)
