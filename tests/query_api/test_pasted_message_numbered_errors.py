"""A numbered error in a list (`1) [Guice/MissingImplementation]: No implementation for Foo was
bound.`, as Guice prints each of a CreationException's) is a pasted message, and a value
formatted into its middle unquoted (Java's `No implementation for %s was bound.`) is read
around. QA on google/guice: the paste asked for no file writing the message."""

from __future__ import annotations

from query_api.retrieval.pasted_message import files_writing_message, message_queries

TEXTS = {
    "core/Errors.java": 'addMessage(id, "no implementation for %s was bound.", key);\n'
    + 'addMessage(id, "a binding to %s was already configured at %s.", key, source);',
    "core/CreationException.java": 'formatMessages("unable to create injector, see the errors")',
    "core/Binder.java": "// no implementation is bound for a class that was bound implicitly",
}


def _paths_matching(match: str, limit: int) -> list[str]:
    """A stand-in for FTS5: NEAR as every phrase in the text, a phrase as a substring."""
    body = match.partition(" : ")[2].removeprefix("NEAR(").rsplit(",", 1)[0]
    phrases = [p.replace('""', '"') for p in body.strip().strip('"').split('" "')]
    return [p for p, text in TEXTS.items() if all(x in text for x in phrases)][:limit]


def test_a_numbered_error_with_its_id_is_a_message_read_around_its_value() -> None:
    query = "1) [Guice/MissingImplementation]: No implementation for Foo was bound."
    assert 'body_terms : NEAR("no implementation for" "was bound", 3)' in message_queries(query)
    assert files_writing_message(query, _paths_matching) == {"core/Errors.java"}


def test_numbered_errors_below_an_exception_are_messages() -> None:
    query = (
        "com.google.inject.CreationException: Unable to create injector, see the following"
        " errors:\n\n1) No implementation for com.example.Foo was bound.\n\n1 error"
    )
    assert files_writing_message(query, _paths_matching) == {"core/Errors.java"}


def test_a_member_and_its_source_place_are_one_value() -> None:
    query = (
        "1) [Guice/BindingAlreadySet]: A binding to String was already configured at"
        " AppModule.configure(AppModule.java:12)."
    )
    assert 'body_terms : NEAR("a binding to" "was already configured at", 3)' in (
        message_queries(query)
    )
    assert files_writing_message(query, _paths_matching) == {"core/Errors.java"}


def test_a_numbered_line_alone_is_no_message() -> None:
    # a change request's list item is no error: no id, no marker or header above it
    assert message_queries("1) Fix the README typo in Foo docs") == []
    assert message_queries("Steps:\n1) call Injector.getInstance for Foo twice") == []


def test_a_value_ending_the_message_leaves_the_phrase_before_it() -> None:
    texts = {"core/ScopeNotFoundError.java": 'format("no scope is bound to %s.", scope)'}

    def paths_matching(match: str, limit: int) -> list[str]:
        phrase = match.partition(" : ")[2].strip('"')
        return [p for p, text in texts.items() if phrase in text][:limit]

    query = "1) [Guice/ScopeNotFound]: No scope is bound to RequestScoped."
    assert message_queries(query)[0] == 'body_terms : "no scope is bound to"'
    assert files_writing_message(query, paths_matching) == {"core/ScopeNotFoundError.java"}
