"""English contractions in a request, read as the words the agent meant.

The tokenizer splits `don't` into `don` and `t`, and `Environment's` into `environment` and
`s`. Those fragments are no words of the request, yet they match code: a Python module that
imports `typing as t` (every pallets project) holds `t` on each annotated line, so on jinja
"don't apply urlize to @a@b" named filters.py's `do_indent` docstring ("Don't skip indenting",
`don` and `t`: two words) as the hit's lines, not `do_urlize`, and its bundle sent the
`do_reverse` overloads (`t.Iterable`) as a second span. A negation (`n't`) says nothing about
where a change goes, like the stop words; a clitic (`'s`, `'re`, `'ll`, `'ve`, `'d`, `'m`)
is dropped and its word kept. Quotes around code (`'t'`, `foo['bar']`) follow no letter or
end inside a word, and are left alone.
"""

from __future__ import annotations

import re

_APOSTROPHES = ("'", "\u2019")
_NEGATION = re.compile(r"\b[^\W\d_]+n['\u2019]t\b", re.IGNORECASE)
_CLITIC = re.compile(r"(?<=[^\W\d_])['\u2019](?:s|re|ll|ve|d|m)\b", re.IGNORECASE)


def without_contractions(text: str) -> str:
    """`text` with its negated contractions left out and its clitics cut from their words."""
    if not any(a in text for a in _APOSTROPHES):
        return text
    return _CLITIC.sub("", _NEGATION.sub(" ", text))
