"""A pasted error message's exception type (`StyleSyntaxError: unable to parse ...`,
`rich.errors.MarkupError: closing tag ...`) is no scope of a change request, as a Go-style
package prefix (`plugin/cache: ...`) is. QA on Textualize/rich: read as one, the type was left
out of the words picking a hit's lines, and rich/errors.py pointed at `class
NotRenderableError` (its `not`) for `StyleSyntaxError: unable to parse 'blod' as color;
'blod' is not a valid color`, where `class StyleSyntaxError` is line 9."""

from __future__ import annotations

from pathlib import Path

import pytest

from processors.query_scope import after_scope, query_scopes
from tests.query_api.located import located_hits

ERRORS = (
    "class ConsoleError(Exception):\n"
    '    """An error in console operation."""\n'
    "\n\n"
    "class StyleSyntaxError(ConsoleError):\n"  # line 5
    '    """Style was badly formatted."""\n'
    "\n\n"
    "class NotRenderableError(ConsoleError):\n"  # line 9
    '    """Object is not renderable."""\n'
)


@pytest.mark.parametrize(
    "query",
    [
        "StyleSyntaxError: unable to parse 'blod' as color",
        "rich.errors.MarkupError: closing tag '[/bold]' doesn't match any open tag",
        "ValueError: invalid literal for int() with base 10",
        "java.lang.IllegalStateException: closed",
        "DeprecationWarning: use X instead",
    ],
)
def test_an_exception_type_is_no_scope(query: str) -> None:
    assert query_scopes(query) == ()
    assert after_scope(query) == query


def test_a_package_prefix_is_still_a_scope() -> None:
    assert query_scopes("json: cannot unmarshal a string") == (("json",),)
    assert query_scopes("errors: wrap the cause") == (("errors",),)
    assert query_scopes("net/http: fix ReadFrom") == (("net", "http"),)


def test_the_error_type_picks_the_hit_lines(tmp_path: Path) -> None:
    query = "StyleSyntaxError: unable to parse 'blod' as color; 'blod' is not a valid color"
    [hit] = located_hits(tmp_path, {"pkg/errors.py": ERRORS}, query)
    assert hit.startLine == 5, hit
    assert hit.snippet is not None and hit.snippet.startswith("5: class StyleSyntaxError")
