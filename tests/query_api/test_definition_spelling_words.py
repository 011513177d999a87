"""A definition query naming a declaration in another convention than the code's
(`splitGraphemes` for rich's `split_graphemes`, `get_host` for a `getHost`) is read as the
declared name, as one in another case is. QA on Textualize/rich: `where is splitGraphemes
defined` ranked rich/cells.py first at `def split_graphemes(`, and its note said `none of
these hits declares splitGraphemes`."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.defining_files import declared_spelling
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.streams.symbol_records import records

FILES = {
    "rich/cells.py": "def split_graphemes(text):\n    return text\n\n\ndef _split_text(t):\n"
    "    return t\n",
    "web/host.js": "export function getHost(req) {\n  return req.host\n}\n",
}


def _spelled(tmp_path: Path, query: str) -> str:
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        for path, body in FILES.items():
            views.apply(records(path, body), {})
        return views.read(lambda conn: declared_spelling(conn, "r", query))


def test_a_name_in_another_convention_is_read_as_declared(tmp_path: Path) -> None:
    assert _spelled(tmp_path, "where is splitGraphemes defined") == (
        "where is split_graphemes defined"
    )
    assert _spelled(tmp_path, "where is SplitGraphemes defined") == (
        "where is split_graphemes defined"
    )
    assert _spelled(tmp_path, "where is get_host defined") == "where is getHost defined"
    # a leading underscore is part of a name: `_split_text` is no spelling of `split_text`
    assert _spelled(tmp_path, "where is splitText defined") == "where is splitText defined"
    assert _spelled(tmp_path, "where is split_text defined") == "where is split_text defined"
    # declared as written, or nothing alike: as given
    assert _spelled(tmp_path, "where is split_graphemes defined") == (
        "where is split_graphemes defined"
    )
    assert _spelled(tmp_path, "where is splitWords defined") == "where is splitWords defined"


def test_a_users_query_reads_the_name_as_declared(tmp_path: Path) -> None:
    assert _spelled(tmp_path, "what calls splitGraphemes") == "what calls split_graphemes"
    assert _spelled(tmp_path, "who uses multi") == "who uses multi"
