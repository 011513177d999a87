"""The words of a pasted error message, as phrases the code that raises it may spell.

An agent pastes what it saw (`Error: The schema does not contain the path`, `ValidationError:
this must be a \\`number\\` type, but the final value was: \\`NaN\\``): the message is a string
literal or template in the file that raises it, its values (a path, a type, a number) filled
in. Its words are common ones a ranking by word weighs little: QA on jquense/yup, the first
message ranked src/schema.ts (its `path?: string`) above src/util/reach.ts, whose template
reads `The schema does not contain the path: ${path}`. The runs of words between the
message's quoted values and punctuation are phrases such a file holds in order, each also
without its first word: a subject filled in unquoted.
"""

from __future__ import annotations

import re

from processors.tokenizer import STOP_WORDS, tokenize

# the message after an error's name, as a runtime prints it: `TypeError: ...`, `Error: ...`,
# `Uncaught RangeError: ...`, `panic: ...`, `ERROR [code]: ...`
_MESSAGE = re.compile(
    r"""^\s*(?:uncaught\s+)?(?:[\w$.]*(?:error|exception)|panic)(?:\s*\[[^\]\n]*\])?
    \s*:\s*(?P<text>\S.*)$""",
    re.IGNORECASE | re.VERBOSE,
)
# a value the message quotes (filled in where the code interpolates): `NaN`, "abc", 'resolve'
_QUOTED = re.compile(r"`[^`]*`|\"[^\"]*\"|(?<!\w)'[^'\n]*'(?!\w)")
_BREAKS = re.compile(r"[:;,.(){}\[\]<>!?=|/\\]+|\s-\s")
MIN_PHRASE_WORDS = 3  # fewer is no phrase a message owns (`must be`, `not found`)
MAX_PHRASES = 6


def message_phrases(query: str) -> list[tuple[str, ...]]:
    """The phrases of the error message the query's first line is (`Error: <message>`): its
    runs of at least MIN_PHRASE_WORDS words, one word not a stop word, between quoted values
    and punctuation, longest first; none for a query that is no error message."""
    found = _MESSAGE.match(query.strip().split("\n", 1)[0])
    if found is None:
        return []
    text = _QUOTED.sub(" | ", found.group("text"))
    out: list[tuple[str, ...]] = []
    for part in _BREAKS.split(text):
        run = tuple(tokenize(part))
        # a message's subject is often filled in unquoted (`${path} must be a valid email`
        # printed `email must be a valid email`): the run without its first word too
        for words in (run, run[1:]):
            if (
                len(words) >= MIN_PHRASE_WORDS
                and any(w not in STOP_WORDS for w in words)
                and words not in out
            ):
                out.append(words)
    return sorted(out, key=len, reverse=True)[:MAX_PHRASES]
