"""Which file roles a query asks for by its words (streams/stores/views/search.roles_in)."""

from __future__ import annotations

from processors.path_roles import Role
from streams.stores.views.search import roles_in


def test_a_word_of_a_package_qualified_name_asks_for_no_role() -> None:
    """QA on apache/commons-text: a pasted trace's `org.example.Main` asked for example
    files, `werkzeug.test.Client` would ask for tests."""
    assert roles_in("at org.example.app.Main.main(Main.java:5)") == set()
    assert roles_in("werkzeug.test.Client drops the cookie") == set()
    assert roles_in("add tests for the pager") == {Role.TEST}
    assert roles_in("update the example app") == {Role.EXAMPLE}
    assert roles_in("fix eslint.config.mjs") == roles_in("fix eslint config")  # a file name
