"""A pasted error whose subject, and a prefix of its own, were formatted in ahead of the words
the source writes (class-validator's `eachPrefix + '$property must be a string'`, printed
`each value in tags must be a string`) is found by its tail: the run without its first few
words."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.pasted_message import files_writing_message, message_queries
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

QUERY = "Error: each value in tags must be a string"


def _decorator(name: str, words: str) -> str:
    return (
        f"export function {name}(options?: ValidationOptions): PropertyDecorator {{\n"
        "  return ValidateBy({\n"
        f"    name: '{name}',\n"
        f"    defaultMessage: buildMessage(eachPrefix => eachPrefix + '$property {words}'),\n"
        "  }, options);\n}\n"
    )


FILES = {
    "src/decorator/IsString.ts": _decorator("IsString", "must be a string"),
    "src/decorator/IsNumber.ts": _decorator("IsNumber", "must be a number conforming to"),
    "src/decorator/ArrayUnique.ts": _decorator("ArrayUnique", "must not contain duplicates"),
    # prose holding the words apart, and each value's
    "src/validation/ValidationExecutor.ts": "".join(
        f"// each value in the tags array must be validated as a string value {n}\n"
        f"export const step{n} = (value: string, tags: string[]) => tags.includes(value);\n"
        for n in range(8)
    ),
}


def test_the_tails_of_a_message_are_asked_after_it() -> None:
    """QA on typestack/class-validator: src/decorator/typechecker/IsString.ts, the one file
    writing `$property must be a string`, was not in the top 5; only the whole message and
    the message without its first word were asked for."""
    queries = message_queries(QUERY)
    assert queries[:2] == [
        'body_terms : "each value in tags must be a string"',
        'body_terms : "value in tags must be a string"',
    ]
    assert 'body_terms : "must be a string"' in queries


def test_a_tail_is_never_shorter_than_a_short_message() -> None:
    assert 'body_terms : "a string"' not in message_queries(QUERY)
    assert 'body_terms : "be a string"' not in message_queries(QUERY)


def test_a_scope_naming_an_error_type_drops_one_word_at_most() -> None:
    """`assert.ErrorAs: simplify retrieving the type name` is a change request's scope."""
    queries = message_queries("assert.ErrorAs: simplify retrieving the type name")
    assert queries == ['body_terms : "simplify retrieving the type name"'], queries


def test_it_names_the_file_writing_the_tail() -> None:
    def paths_matching(match: str, limit: int) -> list[str]:
        phrase = match.partition(" : ")[2].strip('"')
        return [p for p, text in FILES.items() if f"$property {phrase}" in text][:limit]

    assert files_writing_message(QUERY, paths_matching) == {"src/decorator/IsString.ts"}


async def test_the_file_writing_it_ranks_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=QUERY))
        paths = [h.entry.path for h in answer.hits]
        assert paths[:1] == ["src/decorator/IsString.ts"], answer.hits


ASSERTED = {
    "src/decorator/IsNotEmpty.ts": _decorator("IsNotEmpty", "should not be empty"),
    "src/decorator/ArrayNotEmpty.ts": _decorator("ArrayNotEmpty", "should not be empty"),
    "src/decorator/IsDefined.ts": _decorator("IsDefined", "should not be null or undefined"),
    "src/decorator/IsStrongPassword.ts": _decorator("IsStrongPassword", "is not strong enough")
    + "".join(f"// a password rule: the password should have {n} symbols\n" for n in range(6)),
    **{
        f"test/functional/case{n}.spec.ts": (
            f"it('rejects an empty value {n}', () => {{\n"
            "  const message = 'password should not be empty';\n"
            "  expect(errors[0].constraints).toEqual({ isNotEmpty: message });\n});\n"
        )
        for n in range(4)
    },
}


async def test_tests_asserting_the_message_do_not_count_against_its_writers(
    tmp_path: Path,
) -> None:
    """QA on typestack/class-validator: `BadRequestException: password should not be empty`
    is written by two decorators and asserted by four test files; six files were too many to
    name any, and src/decorator/string/IsStrongPassword.ts led for `password`."""
    async with indexed_app(tmp_path, ASSERTED) as app:
        query = "BadRequestException: password should not be empty"
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        paths = [h.entry.path for h in answer.hits]
        assert set(paths[:2]) == {
            "src/decorator/IsNotEmpty.ts",
            "src/decorator/ArrayNotEmpty.ts",
        }, answer.hits
