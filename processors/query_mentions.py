"""The code names a request writes out, and why a file that uses one stands out.

A change request often spells a name from the code as it is written (`RIPGREP_CONFIG_PATH`,
`invalidateQueries`, `session_interface`) without that name being declared anywhere: an
environment variable, a config key, a field, a callee from a library. BM25 splits it into its
words (`ripgrep`, `config`, `path`), each common in the repository, so a long file that repeats
them outranks the short file where the name itself appears. Keyword search lifts the files whose
body holds the name's words in order (streams/stores/views/search.py), and only while few files
do: a name every file uses points nowhere. A single word the request quotes as code
(`fallthrough`) counts as such a name too: in backticks it is code, not English.
"""

from __future__ import annotations

import re

from processors.query_scope import after_scope
from processors.tokenizer import STOP_WORDS, tokenize

MAX_MENTIONS = 4  # names read per request; a pasted paragraph may hold many
MAX_MENTION_WORDS = 8
MAX_FILE_NAMES = 16  # names a request may call files by; the benchmark's longest has 8
_IDENTIFIER = re.compile(r"[^\W\d][\w$]*")
_QUOTED = re.compile(r"`([^`\n]{1,80})`")  # a code span in a Markdown-written request
_QUOTED_WORD = re.compile(r"[^\W\d][\w$-]*")
MIN_QUOTED_CHARS = 3  # `id`, `fs`: too short to point anywhere


def written_names(query: str) -> list[tuple[str, ...]]:
    """The compound names a request writes (snake_case, camelCase, SCREAMING_CASE), each as its
    words in order, first seen first. A plain word is no such name: `cache` or `Config` is
    English as often as code."""
    out: list[tuple[str, ...]] = []
    for word in _IDENTIFIER.findall(query):
        words = tuple(tokenize(word))
        if 1 < len(words) <= MAX_MENTION_WORDS and words not in out:
            out.append(words)
            if len(out) == MAX_MENTIONS:
                break
    return out


def quoted_words(query: str) -> list[tuple[str, ...]]:
    """The single words a request quotes as code (`fallthrough`, `proto`), each as a one-word
    name, first seen first, at most MAX_MENTIONS: in backticks a plain word is code, not
    English. Stop words and words under MIN_QUOTED_CHARS are left out."""
    out: list[tuple[str, ...]] = []
    for span in _QUOTED.findall(query):
        for word in _QUOTED_WORD.findall(span):
            words = tuple(tokenize(word))
            if len(words) != 1 or words in out:
                continue
            if len(words[0]) < MIN_QUOTED_CHARS or words[0] in STOP_WORDS:
                continue
            out.append(words)
            if len(out) == MAX_MENTIONS:
                return out
    return out


def mentioned_names(query: str) -> list[tuple[str, ...]]:
    """The compound names a request writes, then the single words it quotes as code."""
    names = written_names(query)
    return names + [words for words in quoted_words(query) if words not in names]


def joined_spellings(query: str) -> list[str]:
    """Each written name's words run together (`FastDoubleParser` -> `fastdoubleparser`):
    how a Java or Go package, a URL or a lower-case identifier spells the same name, one
    token the tokenizer cannot split, so the name's words alone never match it."""
    return ["".join(words) for words in written_names(query)]


_HYPHENATED = re.compile(r"[^\W\d_][^\W_]*(?:-[^\W_]+)+")  # `v-for`, `Content-Disposition`


def named_file_names(query: str) -> frozenset[str]:
    """The compound names a request writes, run together, as a file may be called by them:
    `TypedPath` -> typed_path.rs, `toJSONSchema` -> to-json-schema.ts, `v-for` -> vFor.ts,
    `Content-Disposition` -> content_disposition.rs. A hyphenated word counts too (a
    directive, a header): a file named after it is rare unless it is what the code names.
    The scope a request opens with (`fix(server-renderer):`) names a folder, not a file: it
    is left out (processors.query_scope lifts the files inside it)."""
    query = after_scope(query)
    names = set(joined_spellings(query))
    for word in _HYPHENATED.findall(query):
        if len(names) >= MAX_FILE_NAMES:
            break
        words = tokenize(word)
        if 1 < len(words) <= MAX_MENTION_WORDS:
            names.add("".join(words))
    return frozenset(names)


def phrase_query(words: tuple[str, ...], column: str) -> str:
    """An FTS5 phrase over one column: the words in a row, in order."""
    return f'{column} : "' + " ".join(words).replace('"', '""') + '"'
