"""A Python docstring naming a member (`Raises: errors.LiveError: ...`) is no use of it.
QA on Textualize/rich: `who raises LiveError` marked rich/console.py `uses:LiveError` for
Console.set_live's docstring, and nothing raises LiveError."""

from __future__ import annotations

from query_api.retrieval.users_first import member_users, outside_long_strings

CONSOLE = '''class Console:
    def set_live(self, live):
        """Set Live instance.

        Raises:
            errors.LiveError: If a Live is active.
        """
        return errors.StyleError  # a use after the docstring
'''


def test_a_docstring_naming_a_member_is_no_use() -> None:
    assert member_users("LiveError", {"rich/console.py": CONSOLE}) == {}
    assert member_users("StyleError", {"rich/console.py": CONSOLE}) == {"rich/console.py": [8]}


def test_code_around_a_docstring_on_one_line_stays() -> None:
    assert outside_long_strings(['x = """doc a.b""" + y.c', "'''", "a.b", "''' ; z.d"]) == [
        "x =  + y.c",
        "",
        "",
        " ; z.d",
    ]
