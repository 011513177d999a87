"""A question about tests puts the Rust files whose own unit tests speak of its subject above
the Rust sources holding none that do.

Rust keeps a file's unit tests in it (`#[cfg(test)] mod tests`), so the file holding the
tests asked for is a source file like any other, and the code the tests exercise outranks it:
QA on eza-community/eza, `tests for git status rendering` ranked src/fs/feature/git.rs (no
tests) above src/output/render/git.rs (its `mod test` renders Git statuses), and `tests for
the user column` put src/output/table.rs first, render/users.rs third. Within the answer's
Rust source files, those whose test modules hold the question's subject words go first, in
their order; a file holding none stays among the others, in its order. Files of other kinds
keep their places, and a file from the ranking below the cut comes in only in a Rust file's
place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from processors.path_roles import Role, role_of, without_question_words, without_test_nouns
from processors.tokenizer import tokenize
from query_api.retrieval.hit_details import query_terms
from query_api.retrieval.word_forms import forms, needle
from query_api.symbols.rust_tests import test_ranges
from schemas import tools as t
from streams.stores.views.symbols import SymbolRow

Tested = Callable[[str], bool]  # a Rust source path -> whether its unit tests hold the subject
POOL_FACTOR = 2  # of the ranking before the cut, the first k times this are read
MIN_STEM = 4  # letters a word's stem needs to match the tokens it opens (`pars`: `parses`)


@dataclass(frozen=True)
class Subject:
    """What a question about tests asks about: its words (`git`, `status` of `tests for git
    status rendering`) and the compound names it writes (`timeformat` of `tests for
    TimeFormat`, casefolded without `_`), which a test must write whole: `time` and `format`
    alone are in many tests."""

    words: frozenset[str]
    names: frozenset[str]


def subject_of_tests(query: str) -> Subject:
    """The subject of a question about tests, its test nouns and question words left out."""
    terms = query_terms(without_question_words(query, without_test_nouns(query)))
    names = frozenset(name.replace("_", "") for name in terms.identifiers)
    return Subject(terms.words | terms.parts, names)


def unit_tests_hold(
    rows: Sequence[SymbolRow], body_of: Callable[[], str | None], subject: Subject
) -> bool:
    """Whether the unit tests of a file (test_ranges of its declarations `rows`; its text read
    by `body_of` only when it has one) write the subject's names and hold every word (in a
    form of each:
    `parses` for `parsing`), or half of them, one named by the file's path or a test's name.
    A word in the module alone is often a type's (`Option`, `Style`): the tests of size.rs
    hold `style` and `option` of `tests for the --time-style option`."""
    spans = test_ranges(rows)  # its test modules, and its `#[test]` functions outside one
    words = subject.words
    body = body_of() if spans and words else None
    if body is None:
        return False
    lines = body.split("\n")
    text = "\n".join("\n".join(lines[max(0, a - 1) : z]) for a, z in spans)
    written = text.casefold().replace("_", "")
    if not all(name in written for name in subject.names):
        return False
    tokens = set(tokenize(text))
    held = {w for w in words if _holds(tokens, w)}
    if held == words:
        return True
    named = set(tokenize(rows[0].path)) if rows else set()
    named.update(
        token
        for row in rows
        if any(a <= row.start_line and row.end_line <= z for a, z in spans)
        for token in tokenize(row.name)
    )
    return 2 * len(held) >= len(words) and any(_holds(named, w) for w in held)


def _holds(tokens: set[str], word: str) -> bool:
    """Whether `tokens` hold `word` or a form of it (`parses` for `parsing`)."""
    stem = needle(word)
    long_stem = len(stem) >= MIN_STEM
    return bool(tokens & ({word} | forms(word))) or (
        long_stem and any(token.startswith(stem) for token in tokens)
    )


def _is_rust_source(hit: t.SearchHit) -> bool:
    path = hit.entry.path or ""
    return hit.entry.kind == "File" and path.endswith(".rs") and role_of(path) == Role.SOURCE


def inline_tests_first(
    hits: list[t.SearchHit], k: int, tested: Tested, pool: list[t.SearchHit] | None = None
) -> list[t.SearchHit]:
    """`hits` with its first `k` Rust source files reordered: those `tested` first (with
    those of `pool`'s first k * POOL_FACTOR below the cut), each taking a Rust file's place
    and its score."""
    top = hits[:k]
    slots = [i for i, hit in enumerate(top) if _is_rust_source(hit)]
    if not slots:
        return hits
    held = {hit.entry.path for hit in top}
    below = [
        hit
        for hit in (pool or [])[: k * POOL_FACTOR]
        if _is_rust_source(hit) and hit.entry.path not in held
    ]
    first = [top[i] for i in slots if tested(top[i].entry.path or "")]
    first += [hit for hit in below if tested(hit.entry.path or "")]
    if not first or [hit.entry.path for hit in first] == [
        top[i].entry.path for i in slots[: len(first)]
    ]:
        return hits
    moved = {hit.entry.path for hit in first}
    rest = [top[i] for i in slots if top[i].entry.path not in moved]
    order = [*first, *rest]
    out = list(top)
    for slot, hit in zip(slots, order, strict=False):
        out[slot] = hit.model_copy(update={"score": top[slot].score})
    out += order[len(slots) :]  # displaced below the cut by a file brought from there
    kept = {hit.entry.path for hit in out}
    return [*out, *(hit for hit in hits[k:] if hit.entry.path not in kept)]
