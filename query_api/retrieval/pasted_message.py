"""A pasted error message ranks first the source file that writes it.

`[fd error]: The search pattern 'foo/bar' contains a path-separation character and will not
lead to any search results.` is a message the program printed, and the file holding its words
in a row (the string literal it was formatted from) is where to look. BM25 weighs the words,
not their order: on sharkdp/fd main.rs, the one file writing the message, came second below
cli.rs, whose help text holds the same words apart. Only a line that opens as an error does
(`error:`, `ValueError:`, `[fd error]:`, `fatal:`, `thread 'main' panicked at`): a change
request sharing words with a comment is no message.

The message's segments are its words between quotes, braces, colons and sentence ends; a
value formatted into it (`'foo'`, `'foo/bar'`) is quoted, and where the source has a
placeholder (`'{}'`) the query has the value. So the files asked for are those holding the
message's segments of two words or more near each other (FTS5 NEAR: `The '--base-directory'
path '{}' is not a directory.`), first with its quoted ones, then without them; else those
holding one segment of at least MIN_RUN words in a row (`Malformed pattern in custom ignore
file. {err}` for a message whose tail is another library's error), then without its first word
(a subject formatted in unquoted). A message that is one short segment and its values (click's
`Error: No such command 'foo'.`, written `No such command {name!r}.`) is that segment as a
phrase when it has at least SHORT_RUN words, and so is the first segment of one wrapping
another's message (`cannot decode event: invalid character ...`). The first of these that at
most MAX_FILES files match names them.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from processors.tokenizer import CHANGE_VERBS, tokenize
from query_api.retrieval.group_gutters import without_gutters

MIN_RUN = 5  # words in all: fewer ("the search pattern") are in docs and help text alike
SHORT_RUN = 3  # a message's one segment: fewer words name no message (`Error: 'foo'`)
MAX_FILES = 3  # more files matching is common prose, not one message's text
# files a read returns before the caller leaves out those of roles the query pushes down
# (tests asserting the message): MAX_FILES counts the rest
MESSAGE_MATCHES = 50
MAX_QUERIES = 6  # FTS5 reads per query
MAX_SUBJECT = 4  # leading words a message's subject and its prefix may take (`each value in tags`)
NEAR_RUN = 4  # words in all of two segments near each other, after an `Error:` marker
NEAR_TOKENS = 3  # tokens between two segments in the source: a placeholder's (`{err}`)

# a line opening as an error: `error:`, `error[E0308]:`, `ValueError:`, `[fd error]:`,
# `fatal:`, `warning:`, `panic:`, Rust's `thread 'main' panicked at`; after the program's name
# as CLIs print it (`fd: error:`, argparse's `prog: error:`) or in brackets (`[react-router]
# error:`, as program_errors marks a library's own prefix), the marker then a word alone:
# `logger: WithError: wrap ...` is a change request's scope and a name
# a log line's level in brackets, after its bracketed date and process id as Python's
# logging and gunicorn print them (`[2026-12-07 10:00:00 +0000] [1234] [ERROR] Connection in
# use: ...`: QA on benoitc/gunicorn, where no file was asked for); `CRITICAL` is Python's
_MARKER = re.compile(
    r"""^\s*(?:
      (?:\[[^\]\n]{1,40}\]\s*){0,3}?
        \[[^\]\n]{0,40}\b(?:error|warning|fatal|panic|critical)\w*\]\s*:?
      |[\w.$]*(?:error|exception|warning|fatal|panic)\w*(?:\[[\w-]*\])?\s*:
      |(?:[\w.-]{1,40}:|\[[^\]\n]{1,40}\])\s+(?:error|warning|fatal|panic)(?:\[[\w-]*\])?\s*:
      |thread\s+'[^'\n]*'\s+panicked\s+at\b
    )""",
    re.IGNORECASE | re.VERBOSE,
)
# a marker ending in the kind's word (`Error:`, `[fd error]:`, a log line's `[ERROR]`), not a
# name holding it (`assert.ErrorAs:`, a change request's scope)
_ERROR_WORD = re.compile(
    r"(?:error|exception|warning|fatal|panic|critical)(?:\[[\w-]*\])?(?:\]\s*:?|\s*:)\s*$", re.I
)
# a quoted value or literal: '...' (not an apostrophe inside a word), "...", `...`
_QUOTED = re.compile(r"""(?<![A-Za-z])'[^'\n]*'(?![A-Za-z])|"[^"\n]*"|`[^`\n]*`""")
# a quoted path (`'/tmp/x'`, `'C:\\data'`) is a value formatted in, never the source's words
_PATH_VALUE = re.compile(r"[/\\]")
# unquoted too: a token opening as a path (`/tmp/a.lck`, `./x`, `~/x`, `C:\\x`), not `and/or`
_UNQUOTED_PATH = re.compile(r"(?<!\S)(?:[A-Za-z]:\\|\.{0,2}/|~/)\S*")
# where a message's source text breaks besides quotes: braces, brackets, colons, sentence ends
_BREAK = re.compile(r"[{}()\[\]:;!?]|\.(?=\s|$)")

Segment = tuple[tuple[str, ...], bool]  # its words, and whether it was quoted
PathsMatching = Callable[[str, int], list[str]]  # an FTS5 MATCH, a limit -> paths


# a line announcing an error and ending in a colon, the message on the next line as a CLI
# prints an exception's text under its own (`There was a critical error during execution of
# Flake8:`): QA on PyCQA/flake8 asked for no file, the message's line opening with no marker
_HEADER = re.compile(r"\b(?:error|exception|failure|fatal|critical)\b[^\n]*:\s*$", re.IGNORECASE)


# a message alone on its line, a quoted value opening it and a sentence's end closing it, as
# Python's logging prints a warning when no handler is configured (`'black' is an unknown
# formatter.  Falling back to default.`): QA on PyCQA/flake8 asked for no file
_VALUE_FIRST = re.compile(r"""^\s*(['"])[^'"\n]{1,80}\1\s+[a-z][^\n]*[a-z]\w*[.!]\s*$""")
# or a value in backticks that is no code name, as Markdown shows a value a message formats
# in (`` `.snap` supplied as an extension. This will use `foo..snap` as file names; ...``:
# QA on mitsuhiko/insta asked for no file); `` `storeToRefs` loses reactivity.`` is a request
_TICKED_FIRST = re.compile(
    r"""^\s*`(?![A-Za-z_$][\w$.:]*(?:\(\))?`)[^`\n]{1,80}`\s+[a-z][^\n]*[a-z]\w*[.!]\s*$"""
)
# a message alone in quotes or backticks, a sentence's words only (`` `Pinia destroyed` ``,
# `"Snapshot file not found"`), its first word capitalised, no code name among them: QA on
# vuejs/pinia asked for no file, `throw new Error('Pinia destroyed')` ranked below a
# `destroyed()` hook
_QUOTED_ALONE = re.compile(r"""^\s*([`'"])([A-Z][a-z']*(?:,?\s+[a-z][a-z']*){1,11}[.!]?)\1\s*$""")

# a message alone on its line whose words run to a colon and a quoted value after it, as an
# exception's text prints with no class before it (`No source for code: '/tmp/gen.py'.`,
# `Couldn't parse 'x.py' as Python source: 'invalid syntax' at line 3`): QA on
# nedbat/coveragepy, whose CLI prints its errors so, asked for no file. A capitalised word
# opens it, not a conventional commit's type (`fix: 'x' ...`: its colon follows one word)
_VALUE_AFTER_COLON = re.compile(r"""^\s*[A-Z][\w']*\s[^\n:]*\w:\s+(['"])[^'"\n]+\1""")
# or a value then a colon and the cause, as `f"Couldn't use data file {name!r}: {exc}"` prints
_VALUE_BEFORE_COLON = re.compile(r"""^\s*[A-Z][\w']*\s[^\n:'"]*\w\s+(['"])[^'"\n]+\1:\s+\w""")


def _value_after_colon(query: str) -> bool:
    """Whether `query` is one line of a message whose value follows a colon (no marker)."""
    if "\n" in query.strip():
        return False
    return (_VALUE_AFTER_COLON.match(query) or _VALUE_BEFORE_COLON.match(query)) is not None


def _quoted_alone(query: str) -> str | None:
    """The message `query` is alone in quotes (_QUOTED_ALONE), else None: not a request's
    title quoted (`"Allow writable getters"`), which opens with a change verb."""
    found = _QUOTED_ALONE.match(query)
    if found is None or found.group(2).split()[0].casefold() in CHANGE_VERBS:
        return None
    return found.group(2)


def _value_first(query: str) -> bool:
    """Whether `query` is one line of a message opening with a quoted value (no marker)."""
    return (_VALUE_FIRST.match(query) or _TICKED_FIRST.match(query)) is not None


def message_segments(query: str) -> list[Segment]:
    """The segments of the error messages `query` pastes: each line opening as an error,
    after its marker, or following a line announcing one (_HEADER), or the one line of a
    message opening with a value (_VALUE_FIRST), split at quotes, braces, colons and sentence
    ends, in order."""
    query = without_gutters(query)  # an exception group's error lines open behind a gutter
    out = [segment for text in _message_texts(query) for segment in text_segments(text)]
    lines = query.split("\n")
    if not out and len(lines) == 1 and (_value_first(query) or _value_after_colon(query)):
        out = text_segments(query)
    if not out and (alone := _quoted_alone(query)) is not None:
        out = text_segments(alone)
    if not out:  # a message quoted in a sentence: `getting "Unable to create ..." when ...`
        out = [
            segment
            for quoted in _QUOTED_MESSAGE.finditer(query)
            for segment in text_segments(quoted.group(2))
        ]
    return out


def _message_texts(query: str) -> list[str]:
    """The text of each line of `query` opening as an error (after its marker), following a
    line announcing one (_HEADER), or numbered in a list of errors (_NUMBERED)."""
    out: list[str] = []
    lines = query.split("\n")
    announced = False  # a marker or header above: a list of numbered errors may follow
    for before, line in zip(["", *lines], lines, strict=False):
        marker = _MARKER.match(line)
        numbered = _NUMBERED.match(line)
        if numbered is not None and (announced or numbered.group(1)):
            out.append(line[numbered.end() :])
        elif marker is not None:
            out.append(line[marker.end() :])
        elif _HEADER.search(before) and line.strip():
            out.append(line)
        announced = announced or marker is not None or _HEADER.search(line) is not None
    return out


# an error numbered in a list, as Guice prints each of a CreationException's (`1)
# [Guice/MissingImplementation]: No implementation for Foo was bound.`), its bracketed id
# and colon enough alone, a bare number only below a marker or header: QA on google/guice,
# where a pasted CreationException asked for no file writing its numbered message
_NUMBERED = re.compile(r"^\s*\d{1,3}\)\s+(\[[^\]\n]{1,60}\]\s*:\s*)?")

# a value formatted unquoted into a message's middle: a class's name, qualified or not, after
# a lowercase word (`No implementation for com.example.Foo was bound`, written `No
# implementation for %s was bound.` as Java's String.format leaves it), a member and its source
# place with it (`at AppModule.configure(AppModule.java:12)`)
_INNER_VALUE = re.compile(
    r"(?<=[a-z]\s)(?:[a-z_]\w*\.)*[A-Z][\w$]*(?:\.[\w$]+)*(?:\([^()\n]*\))?(?=[\s.,;:]|$)"
)


def _inner_value_queries(query: str) -> list[str]:
    """For each message line with a value formatted into its middle unquoted (_INNER_VALUE),
    the NEAR query of its words around the value (or the phrase before it, when the value ends
    the message): its one segment, the value in it, is a phrase no file writes. QA on
    google/guice: `No implementation for Foo was bound.` found no file, Errors.java writing
    `No implementation for %s was bound.`; `No scope is bound to RequestScoped.` none either."""
    out: list[str] = []
    for text in _message_texts(query):
        split = _INNER_VALUE.sub(" : ", text)
        if split == text:
            continue
        near = [words for words, quoted in text_segments(split) if not quoted and len(words) >= 2]
        if len(near) >= 2 and sum(map(len, near)) >= MIN_RUN:
            phrases = " ".join(_phrase(words) for words in near)
            out.append(f"body_terms : NEAR({phrases}, {NEAR_TOKENS})")
        elif len(near) == 1 and len(near[0]) >= MIN_RUN:  # the value ends it: `... to %s.`
            out.append(f"body_terms : {_phrase(near[0])}")
    return out


# a message quoted whole in a sentence (`I get "Unable to create TemplateLiteral due to
# infinite type expansion" from Value.Create`), as agents paste it without its error's class:
# a sentence's words in quotes, MIN_RUN or more, no path among them. QA on
# sinclairzx81/typebox: such a message asked for no file, and the one throwing it came fourth
_QUOTED_MESSAGE = re.compile(
    rf"""(?<![A-Za-z])(['"])([A-Za-z][^'"\n/\\]*?(?:\s+[^'"\n\s/\\]+){{{MIN_RUN - 1},}})\1"""
    r"(?![A-Za-z])"
)


def text_segments(text: str) -> list[Segment]:
    """The segments of a message's text after its marker (message_segments)."""
    out: list[Segment] = []
    at = 0
    for quoted in _QUOTED.finditer(text):
        out += _split(text[at : quoted.start()], False)
        if not _PATH_VALUE.search(quoted.group()):
            out += _split(quoted.group()[1:-1], True)
        at = quoted.end()
    return out + _split(text[at:], False)


def _markers(query: str) -> list[str]:
    """The error markers opening `query`'s lines."""
    return [m.group() for m in map(_MARKER.match, query.split("\n")) if m is not None]


def _split(text: str, quoted: bool) -> list[Segment]:
    """The segments of `text` between its breaks and its numbers: a number in a message is
    a value formatted in (`at position 5` for `at position {position}`: QA on
    Textualize/rich, markup.py's message was found by no read), and so is a path (QA on
    apache/commons-io: `Can't write file, lock /tmp/a.lck exists`)."""
    out: list[Segment] = []
    for part in _BREAK.split(_UNQUOTED_PATH.sub(":", text)):
        words: list[str] = []
        for word in [*tokenize(part), "0"]:
            if not word.isdigit():
                words.append(word)
            elif words:
                out.append((tuple(words), quoted))
                words = []
    return out


# a file's bare name in a message (`Unable to find tsconfig.json in /app`), a value formatted
# in as a path is: QA on egoist/tsup, tsc.ts writes `Unable to find ${tsconfig ||
# 'tsconfig.json'} in ${cwd}`, and every phrase holding `tsconfig json` matched no file
_FILE_NAME = re.compile(
    r"(?<![\w./\\-])[A-Za-z_][\w-]*(?:\.[\w-]+)*\.(?:json|jsonc|[cm]?[jt]sx?|py|go|rs|rb|toml"
    r"|ya?ml|lock|cfg|ini|xml|html|css|md|txt|java|kt|php|cs)(?![\w/\\-])"
)


# a command-line flag written unquoted in a message (`Option --level is useless without
# options --recurse or --tree`, written `Option {a} is useless without options {b1} or {b2}`):
# a value formatted in. QA on eza-community/eza asked for the words with the flags', which no
# file writes, and ranked two completion scripts listing every flag first
_FLAG = re.compile(r"(?<![\w'\"`-])--[A-Za-z][\w-]*(?![\w'\"`-])")


def message_queries(query: str) -> list[str]:
    """The FTS5 queries for the files writing the message `query` pastes, in the order they
    are tried: its segments of two words or more near each other, with the quoted ones, then
    without; then each segment of at least MIN_RUN words as a phrase, longest first; last,
    when it names a file bare, the same read with that name as a value (_FILE_NAME). A
    message writing a flag unquoted is read with the flags as values (_FLAG) after its first
    query, before the tails of the message as written."""
    query = without_gutters(query)  # an exception group's error lines open behind a gutter
    out = _queries(query)
    flagged = _FLAG.sub(lambda flag: "./" + flag.group()[2:], query)
    if flagged != query:  # after the message as written, before its tails
        out = [*out[:1], *_queries(flagged), *out[1:]]
    valued = _FILE_NAME.sub(lambda name: "./" + name.group(), query)
    if valued != query:
        out += _queries(valued)
    return list(dict.fromkeys(out))[:MAX_QUERIES]


def _queries(query: str) -> list[str]:
    """message_queries for the message as written."""
    segments = message_segments(query)
    out: list[str] = []
    # past the first word only after a marker ending in the kind's word (`Error:`), not a
    # name holding it (`assert.ErrorAs: simplify ...` is a change request's scope)
    deep = any(_ERROR_WORD.search(m) for m in _markers(query))
    # fewer words near each other after such a marker, none of them a quoted value's: a
    # number splits a short message (`Body parameter 0 was null`, `Body parameter %s was null`)
    unquoted = {words for words, quoted in segments if not quoted}
    wide: list[str] = []  # the near queries of three or more segments, spread (_spread_near)
    # a quoted value of one word first (`You need to install "typescript" in your project`):
    # a message written once per value (QA on egoist/tsup: rollup.ts's for typescript,
    # svelte.ts's for svelte) is found by its words alone in each of its files, and the
    # fusion's order among them put the other value's first
    for quoted_least in (1, 2, None):
        near = [
            words
            for words, quoted in segments
            if len(words) >= (2 if not quoted else quoted_least or len(words) + 1)
        ]
        # a message with no marker: its words to its last value too (_before_last_value)
        cut = _before_last_value(segments, near) if _value_after_colon(query) else []
        for asked in (near, cut):
            near_least = NEAR_RUN if deep and set(asked) <= unquoted else MIN_RUN
            if len(asked) >= 2 and sum(map(len, asked)) >= near_least:
                phrases = " ".join(_phrase(words) for words in asked)
                found = f"body_terms : NEAR({phrases}, {NEAR_TOKENS})"
                if found not in out:
                    out.append(found)
                if len(asked) >= 3 and set(asked) <= unquoted:
                    wide.append(_spread_near(asked))
    out += [found for found in dict.fromkeys(wide) if found not in out]
    out += _with_single_words(segments) if deep else []
    out += _inner_value_queries(query)
    runs = sorted({words for words, _ in segments if len(words) >= MIN_RUN}, key=len, reverse=True)
    most, least = (MAX_SUBJECT, SHORT_RUN + 1) if deep else (1, MIN_RUN)
    shorter = [tail for words in runs for tail in _tails(words, most, least)]
    valued = [words for words in _value_less_runs(query) if words not in runs]
    asked = [*runs, *valued, *_lead(segments), *shorter]
    out += [f"body_terms : {_phrase(words)}" for words in asked]
    if (
        any(_ERROR_WORD.search(m) for m in _markers(query))
        or _value_after_colon(query)
        or _quoted_alone(query) is not None
    ):
        # last: what the near query of its words and value matched no file for (the value
        # is formatted in, `Unknown option '${key}'`), its words alone
        out += _short_message(segments)
    return list(dict.fromkeys(out))


_PHRASE = re.compile(r'"((?:[^"]|"")+)"')  # a phrase of an FTS5 query message_queries writes


def message_phrases(query: str) -> list[tuple[str, ...]]:
    """The phrases message_queries asks for, each as its words, once, in the order asked."""
    found = (
        tuple(phrase.replace('""', '"').split())
        for match in message_queries(query)
        for phrase in _PHRASE.findall(match)
    )
    return list(dict.fromkeys(found))


# a code name a message's line ends with, unquoted (`TokenOBrace`, `max_depth`, `cty.String`):
# a value formatted in, as Go's `panic(fmt.Sprintf("didn't find any token of type %s", ty))`
# prints it. QA on hashicorp/hcl: `panic: didn't find any token of type TokenOBrace` asked
# for the words with the value's, which no file writes, and ranked token.go (declaring
# TokenOBrace) above hclwrite/parser.go, writing the message
_TRAILING_VALUE = re.compile(
    r"\s+(?:[A-Za-z_]\w*\.)*(?:[A-Za-z]*[a-z][A-Z]\w*|[A-Za-z]\w*_\w+)[.!]?\s*$"
)


def _spread_near(asked: list[tuple[str, ...]]) -> str:
    """The NEAR query of `asked` (three or more segments, none quoted) allowing NEAR_TOKENS
    between each two: FTS5 counts every token from the end of the first phrase to the start
    of the last, the middle phrases' own among them, so NEAR_TOKENS held only for two. QA on
    mitsuhiko/insta: `` `.snap` supplied as an extension. This will use `foo..snap` as file
    names; likely you want `snap` instead.`` asked for no file, cli.rs writing it with a
    placeholder between each two segments. Asked after the near queries as written."""
    between = NEAR_TOKENS * (len(asked) - 1) + sum(len(words) for words in asked[1:-1])
    phrases = " ".join(_phrase(words) for words in asked)
    return f"body_terms : NEAR({phrases}, {between})"


def _with_single_words(segments: list[Segment]) -> list[str]:
    """The NEAR query of a message's unquoted segments, its single words among them, when
    values split it so (`unsupported version (got 4, supports 3)`, written `unsupported
    version (got {version}, supports {})`): the near query of its segments of two words or
    more needs two of them, and this message has one. QA on ajeetdsouza/zoxide asked for no
    file, and the completion scripts writing `version` ranked above src/db/mod.rs. Not for a
    message with a quoted value, which its near queries with the value ask for already."""
    if any(quoted for _, quoted in segments):
        return []
    words = [words for words, quoted in segments if not quoted]
    longer = [w for w in words if len(w) >= 2]
    if len(words) < 3 or not longer or len(longer) == len(words):
        return []
    if sum(map(len, words)) < NEAR_RUN:
        return []
    phrases = " ".join(_phrase(w) for w in words)
    return [f"body_terms : NEAR({phrases}, {NEAR_TOKENS})"]


def _value_less_runs(query: str) -> list[tuple[str, ...]]:
    """The runs of at least MIN_RUN words of the messages `query` pastes, read without the
    code name each line ends with (_TRAILING_VALUE), for the lines ending so."""
    lines = query.split("\n")
    stripped = [_TRAILING_VALUE.sub("", line) if _MARKER.match(line) else line for line in lines]
    if stripped == lines:
        return []
    segments = message_segments("\n".join(stripped))
    return sorted({w for w, _ in segments if len(w) >= MIN_RUN}, key=len, reverse=True)


def _tails(words: tuple[str, ...], most: int, least: int) -> list[tuple[str, ...]]:
    """A run without its first `most` words, one at a time, longest first, each of at least
    `least` words: a subject is often formatted in unquoted (`${path} must be a valid email`,
    printed `email must be a valid email`: QA on jquense/yup, 79f5689), after a prefix of its
    own at times (class-validator's `eachPrefix + '$property must be a string'`, printed
    `each value in tags must be a string`: QA on typestack/class-validator, where dropping
    the first word alone found no file)."""
    return [words[n:] for n in range(1, most + 1) if len(words) - n >= least]


def _before_last_value(
    segments: list[Segment], near: list[tuple[str, ...]]
) -> list[tuple[str, ...]]:
    """`near` without the words after the message's last quoted value: the text past a
    formatted value is often another expression in the source (`f"... as Python source: " +
    f"{err.args[0]!r} at line {lineno}"`), its words too far from the rest for NEAR. QA on
    nedbat/coveragepy: `Couldn't parse 'x.py' as Python source: 'invalid syntax' at line 3`."""
    last = max((n for n, (_, quoted) in enumerate(segments) if quoted), default=None)
    if last is None or last == len(segments) - 1:
        return []
    tail = {words for words, quoted in segments[last + 1 :] if not quoted}
    return [words for words in near if words not in tail]


def _lead(segments: list[Segment]) -> list[tuple[str, ...]]:
    """The first segment of a message wrapping another's, when it has SHORT_RUN to MIN_RUN - 1
    words: Go's `fmt.Errorf("cannot decode event: %s", err)` writes its own words first and
    the cause (another library's text, no file's) after a colon. QA on rs/zerolog: console.go,
    writing `cannot decode event: %s`, came third, only the whole message and encoding/json's
    `looking for beginning of value` being asked for."""
    if len(segments) < 2:
        return []
    words, quoted = segments[0]
    return [words] if not quoted and SHORT_RUN <= len(words) < MIN_RUN else []


def _short_message(segments: list[Segment]) -> list[str]:
    """The phrase of a message whose words are one segment of SHORT_RUN to MIN_RUN - 1 words
    and the values formatted into it: QA on fastapi/typer, `Error: No such command 'foo'.`
    (core.py, `No such command {name!r}.`) ranked typer/_click/exceptions.py's `No such
    option` first and core.py sixth, no read being made for a message under MIN_RUN words.
    Two words do when a quoted value follows them (`Unknown option 'timeoutEarlyMillis'`:
    QA on middyjs/middy found util/index.js's `Unknown option '${key}'` nowhere, the near
    query holding the value matching no file). MAX_FILES still refuses a phrase common prose
    holds. Two words do too when they are the whole message (`Error: Pinia destroyed`, written
    `new Error('Pinia destroyed')`: QA on vuejs/pinia asked for no file)."""
    worded = [(i, words) for i, (words, quoted) in enumerate(segments) if not quoted]
    worded = [(i, words) for i, words in worded if len(words) >= 2]
    if len(worded) != 1:
        return []
    at, words = worded[0]
    valued = at + 1 < len(segments) and segments[at + 1][1]  # a quoted value follows
    if len(words) < (2 if valued or len(segments) == 1 else SHORT_RUN):
        return []
    return [f"body_terms : {_phrase(words)}"]


def _phrase(words: tuple[str, ...]) -> str:
    return '"' + " ".join(words).replace('"', '""') + '"'


def files_writing_message(query: str, paths_matching: PathsMatching) -> set[str]:
    """The files the first of message_queries that at most MAX_FILES files match selects."""
    for match in message_queries(query):
        found = paths_matching(match, MAX_FILES + 1)
        if 0 < len(found) <= MAX_FILES:
            return set(found)
    return set()
