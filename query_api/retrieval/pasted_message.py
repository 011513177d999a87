"""A pasted error message ranks first the source file that writes it.

`[fd error]: The search pattern 'foo/bar' contains a path-separation character and will not
lead to any search results.` is a message the program printed, and the file holding its words
in a row (the string literal it was formatted from) is where to look. BM25 weighs the words,
not their order: on sharkdp/fd main.rs, the one file writing the message, came second below
cli.rs, whose help text holds the same words apart. Only a line that opens as an error does
(`error:`, `ValueError:`, `[fd error]:`, `fatal:`, `thread 'main' panicked at`): a change
request sharing words with a comment is no message.

The message's words between quotes, braces and colons are its runs (a value formatted into
it, `'foo/bar'`, is no word of the source); a run of at least MIN_RUN words that at most
MAX_FILES files hold in a row names those files.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from processors.query_mentions import phrase_query
from processors.tokenizer import tokenize

MIN_RUN = 5  # words in a row: fewer ("the search pattern") are in docs and help text alike
MAX_FILES = 3  # a run more files hold is common prose, not one message's text
MAX_RUNS = 4  # phrase reads per query, the longest runs first

# a line opening as an error: `error:`, `error[E0308]:`, `ValueError:`, `[fd error]:`,
# `fatal:`, `warning:`, `panic:`, Rust's `thread 'main' panicked at`
_MARKER = re.compile(
    r"""^\s*(?:
      \[[^\]\n]{0,40}\b(?:error|warning|fatal|panic)\w*\]\s*:?
      |[\w.$]*(?:error|exception|warning|fatal|panic)\w*(?:\[[\w-]*\])?\s*:
      |thread\s+'[^'\n]*'\s+panicked\s+at\b
    )""",
    re.IGNORECASE | re.VERBOSE,
)
# where a message's source text breaks: quotes (not an apostrophe inside a word), braces,
# colons, semicolons
_BREAK = re.compile(r"""(?<![A-Za-z])'|'(?![A-Za-z])|["`{}:;]""")

PathsMatching = Callable[[str, int], list[str]]  # an FTS5 MATCH, a limit -> paths


def message_runs(query: str) -> list[tuple[str, ...]]:
    """The runs of words of the error messages `query` pastes, longest first: the words of
    each line opening as an error, after its marker, between its quotes, braces and colons,
    at least MIN_RUN of them, each also without its first word (QA on jquense/yup:
    `ValidationError: email must be a valid email` is `${path} must be a valid email`)."""
    runs: list[tuple[str, ...]] = []
    for line in query.split("\n"):
        marker = _MARKER.match(line)
        if marker is None:
            continue
        for part in _BREAK.split(line[marker.end() :]):
            run = tuple(tokenize(part))
            # a subject is often formatted in unquoted (`${path} must be a valid email`,
            # printed `email must be a valid email`): the run without its first word too
            for words in (run, run[1:]):
                if len(words) >= MIN_RUN and words not in runs:
                    runs.append(words)
    return sorted(runs, key=len, reverse=True)[:MAX_RUNS]


def files_writing_message(query: str, paths_matching: PathsMatching) -> set[str]:
    """The files holding a run of the message `query` pastes in a row, of the runs at most
    MAX_FILES files hold."""
    out: set[str] = set()
    for run in message_runs(query):
        found = paths_matching(phrase_query(run, "body_terms"), MAX_FILES + 1)
        if len(found) <= MAX_FILES:
            out.update(found)
    return out
