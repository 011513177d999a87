"""The task a bundle echoes (query_api/context/echo.py)."""

from __future__ import annotations

from query_api.context.echo import ECHO_CHARS, task_echo


def test_a_short_task_is_echoed_as_given() -> None:
    task = "add  bson protocol\n"
    assert task_echo(task) == task


def test_a_long_task_is_echoed_as_its_first_words_and_an_ellipsis() -> None:
    task = (
        "validate the address, and return the string that was validated new URL(...) parses "
        "an authority and accepts forms the IPv6 grammar does not"
    )
    echo = task_echo(task)
    assert echo == (
        "validate the address, and return the string that was validated new URL(...) "
        "parses an authority and …"
    )
    assert len(echo) <= ECHO_CHARS + 2


def test_a_long_task_without_spaces_is_cut_at_the_bound() -> None:
    echo = task_echo("x" * 5000)
    assert echo == "x" * ECHO_CHARS + " …"


def test_whitespace_runs_are_one_space_in_a_long_task() -> None:
    task = "fix   the\n\nparser " + "and the lexer " * 20
    assert task_echo(task).startswith("fix the parser and the lexer")
