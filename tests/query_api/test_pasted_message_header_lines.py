"""A message printed on the line after a header announcing an error (`There was a critical
error during execution of Flake8:`, as a CLI prints an exception's text under its own line) is
a pasted error too. QA on PyCQA/flake8: that header and `plugin code for `flake8-foo[FOO]` does
not match ^[A-Z]{1,3}[0-9]{0,3}$` asked for no file, and plugins/finder.py, raising it, was
pointed at its imports, not at the f-string writing it."""

from __future__ import annotations

from query_api.retrieval.pasted_message import files_writing_message, message_queries

TEXTS = {
    "tool/plugins/finder.py": 'f"plugin code for `{loaded.display_name}` does not match "',
    "tool/main/application.py": 'print("There was a critical error during execution:")',
    "tool/checker.py": "# run each plugin for the code of a file",
}


def _paths_matching(match: str, limit: int) -> list[str]:
    phrases = [p.strip('"') for p in match.partition(" : ")[2].split('" "')]
    phrases = [p.removeprefix("NEAR(").split('"')[-1] if "NEAR" in p else p for p in phrases]
    return [p for p, text in TEXTS.items() if all(x in text.lower() for x in phrases)][:limit]


def test_the_line_after_an_error_header_is_the_message() -> None:
    query = (
        "There was a critical error during execution of Flake8:\n"
        "plugin code for `flake8-foo[FOO]` does not match the code pattern"
    )
    assert 'body_terms : "plugin code for"' in message_queries(query)
    assert files_writing_message(query, _paths_matching) == {"tool/plugins/finder.py"}


def test_a_header_with_no_error_word_or_no_colon_announces_no_message() -> None:
    # a traceback's head is no header: its frames follow, not a message
    assert message_queries("Traceback (most recent call last):\nplugin code for x is wrong") == []
    # nor a line that only mentions an error: a request's body goes on after it
    assert message_queries("Fix the critical error in the plugin finder\nplugin code for x") == []


def test_a_blank_line_after_the_header_reads_nothing() -> None:
    query = (
        "During handling of the above exception, another exception occurred:\n\n"
        "plugin code for x does not match"
    )
    assert message_queries(query) == []
