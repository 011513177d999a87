"""`where is post_fork`, `where is the post_fork hook`: a name written as code, alone or with a
noun naming a declaration's role, asks where it is defined as `where is post_fork defined`
does. QA on benoitc/gunicorn: both were no definition query, and ctl/server.py's
`_register_fork_handlers` ranked above config.py, declaring `def post_fork`."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.defining_files import defining_files
from query_api.retrieval.definition_sites import asked_kinds, defined_name, no_definition_note
from query_api.retrieval.hit_details import HitLocator
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.query_api.located import file_hit
from tests.streams.symbol_records import records

CONFIG = """class Setting:
    name = None


class Postfork(Setting):
    name = "post_fork"

    def post_fork(server, worker):
        pass

    default = staticmethod(post_fork)
"""
SERVER = '''import os


def _register_fork_handlers():
    """Register fork handlers before and after a fork."""
    os.register_at_fork(before=_before_fork)


def _before_fork():
    pass
'''


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("where is post_fork", "post_fork"),
        ("where is the post_fork hook?", "post_fork"),
        ("where is the logconfig_dict setting", "logconfig_dict"),
        ("where is `handle_hup`", "handle_hup"),
        ("where is Arbiter", "Arbiter"),
    ],
)
def test_a_name_written_as_code_asks_for_its_definition(query: str, name: str) -> None:
    assert defined_name(query) == name
    assert asked_kinds(query) == frozenset()


@pytest.mark.parametrize(
    "query",
    [
        "where is the retry logic",
        "where is the tsconfig.json?",
        "where is parseArgs used?",
        "where is the config loaded",
        "where is the post_fork hook called",
    ],
)
def test_a_word_a_file_or_a_use_is_no_such_query(query: str) -> None:
    assert defined_name(query) is None, query


def _defining(views: ViewStore, query: str) -> set[str]:
    return views.read(lambda conn: defining_files(conn, "r", query))


def test_the_file_declaring_the_name_is_the_one_meant(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        for path, body in {"app/config.py": CONFIG, "app/ctl/server.py": SERVER}.items():
            views.apply(records(path, body), {})
        for query in ("where is post_fork", "where is the post_fork hook"):
            assert _defining(views, query) == {"app/config.py"}, query


def test_a_file_of_the_name_needs_no_note(tmp_path: Path) -> None:
    """`where is the Makefile` asks for a file: no hit declares Makefile, and saying so read
    as if the Makefile found first were not the answer."""
    files = {"Makefile": "test:\n\tpytest\n", "app/config.py": CONFIG}
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        for path, body in files.items():
            views.apply(records(path, body), {})
        locator = HitLocator(views)
        hits = [file_hit(path) for path in files]
        assert no_definition_note(locator, "r", "where is the Makefile", hits) is None
        said = no_definition_note(locator, "r", "where is Arbiter", hits)
        assert said == "none of these hits declares Arbiter"
