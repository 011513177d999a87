"""`what files call putEvent`, `in which file is ConsoleWriter defined` ask for a name's users
or definition as `what calls putEvent` and `which file defines ConsoleWriter` do, and the words
saying so (`file`, `files`, `use`, `call`) are no words to search. QA on rs/zerolog: `what
files call putEvent` and `in which file is ConsoleWriter defined` were no users or definition
query, and `which file defines NewTriggerLevelWriter` (a name no file declares) pointed
writer.go at a comment's `original file and line numbers`."""

from __future__ import annotations

from query_api.retrieval.definition_sites import defined_name
from query_api.retrieval.form_words import keyword_text
from query_api.retrieval.users_first import used_name


def test_a_question_naming_files_asks_for_the_users_of_a_name() -> None:
    assert used_name("what files call putEvent") == "putEvent"
    assert used_name("what functions use InterfaceMarshalFunc?") == "InterfaceMarshalFunc"
    # as before
    assert used_name("which files use ExitCode?") == "ExitCode"
    assert used_name("what calls putEvent") == "putEvent"
    assert used_name("what files hold the options") is None


def test_a_question_asking_in_which_file_a_name_is_defined() -> None:
    assert defined_name("in which file is ConsoleWriter defined") == "ConsoleWriter"
    assert defined_name("which file is the Hook interface declared in?") == "Hook"
    assert defined_name("what module is parse_args defined in") == "parse_args"
    # as before
    assert defined_name("which file defines Opts") == "Opts"
    assert defined_name("in which file is the config loaded") is None


def test_the_words_asking_for_a_file_are_not_searched() -> None:
    assert keyword_text("which file defines NewTriggerLevelWriter").split() == [
        "which",
        "NewTriggerLevelWriter",
    ]
    assert keyword_text("in which file is ConsoleWriter defined").split() == [
        "in",
        "which",
        "is",
        "ConsoleWriter",
    ]
    assert keyword_text("what files call putEvent").split() == ["what", "putEvent"]
    assert keyword_text("which files use ExitCode?").split() == ["which", "ExitCode?"]
    # the name keeps its words
    assert "file" in keyword_text("where is file_reader defined")
