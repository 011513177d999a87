"""A question about a Makefile's targets points the Makefile's hit at the rule it asks for.

`where is the Makefile target for docs` asks for a rule (`dochtml: cogdoc  ## Build the docs
HTML output.`), but the line holding the most of the query's words was the help target's
`@echo Available targets:`: QA on nedbat/coveragepy pointed its Makefile at that line, its
docs rules lying two hundred lines below. A Makefile is read by its rules, so the hit is the
first rule whose line (its targets, prerequisites and `##` help text) holds the most of the
question's subject words, in either number, a word a target's name holds (`doc` of `dochtml`)
counting twice, with the recipe below it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from processors.tokenizer import STOP_WORDS, tokenize
from query_api.retrieval.word_forms import forms

# the words asking for a rule, one of which the question holds, and which name no subject
_ASKING = frozenset({"target", "targets", "rule", "rules", "recipe", "recipes"})
_NOT_SUBJECT = _ASKING | {"make", "makefile", "where", "which", "defined", "find", "there"}
_MAKEFILE_NAMES = frozenset({"makefile", "gnumakefile"})
# a rule's line: its targets, a colon that assigns nothing (`CC := gcc` is a variable), the rest
_RULE = re.compile(r"^(?!\.PHONY\b)([^\s:=#][^:=#]*?)\s*::?(?!=)(.*)$")


Subject = tuple[frozenset[str], ...]  # each subject word with its other forms


def target_subject(query: str) -> Subject:
    """The words naming the rule a question about make targets asks for (`docs` of `where is
    the Makefile target for docs`), each with its other forms; empty for another query."""
    words = tokenize(query)
    if not _ASKING.intersection(words):
        return ()
    subject = dict.fromkeys(w for w in words if w not in STOP_WORDS and w not in _NOT_SUBJECT)
    return tuple(frozenset({w}) | forms(w) for w in subject)


def is_makefile(path: str) -> bool:
    """Whether `path` is a Makefile (`Makefile`, `GNUmakefile`, `rules.mk`)."""
    name = path.rpartition("/")[2].casefold()
    return name in _MAKEFILE_NAMES or name.endswith(".mk")


def rule_naming(path: str, lines: Sequence[str], subject: Subject) -> tuple[int, int] | None:
    """The first and last line (1-based) of the first rule of the Makefile `path` whose line
    holds the most of `subject`'s words, and its recipe; None for another file, or when no
    rule's line holds one."""
    if not subject or not is_makefile(path):
        return None
    best, best_held = 0, 0
    for n, line in enumerate(lines, 1):
        rule = _RULE.match(line)
        if rule is None:
            continue
        held = _held(rule.group(1).casefold().split(), set(tokenize(line)), subject)
        if held > best_held:
            best, best_held = n, held
    if not best:
        return None
    end = best
    while end < len(lines) and lines[end].startswith("\t"):
        end += 1
    return best, end


def _held(targets: Sequence[str], tokens: set[str], subject: Subject) -> int:
    """How many of `subject`'s words a rule's line holds as tokens, those a target's name
    holds (`dochtml`, `docs-build`) counted twice."""
    held = 0
    for words in subject:
        named = any(w in name for w in words if len(w) >= 3 for name in targets)
        held += (2 if named else 0) + (1 if words & tokens else 0)
    return held
