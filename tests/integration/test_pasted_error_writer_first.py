"""A pasted error message whose exception type is qualified (`rich.errors.MarkupError:
closing tag ...`, as a Python traceback's last line writes it) ranks the file writing the
message first, above the module its type names. QA on Textualize/rich: rich/errors.py, the two
lines declaring MarkupError, ranked above rich/markup.py, which raises it with that message:
both were lifted (a module the query names; the file writing the message), in fused order."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.pasted_message import message_queries
from schemas import tools as t
from tests.ingested import indexed_app

FILES = {
    "pkg/__init__.py": "",
    "pkg/errors.py": (
        "class ConsoleError(Exception):\n"
        '    """An error in console operation."""\n\n\n'
        "class MarkupError(ConsoleError):\n"
        '    """Markup was badly formatted."""\n'
    ),
    "pkg/markup.py": (
        "from .errors import MarkupError\n\n\n"
        "def render(markup):\n"
        "    for position, tag in enumerate(markup.split()):\n"
        "        if tag.startswith('[/'):\n"
        "            raise MarkupError(\n"
        "                f\"closing tag '{tag}' at position {position} \"\n"
        '                "doesn\'t match any open tag"\n'
        "            )\n"
        "    return markup\n"
    ),
}
QUERY = "pkg.errors.MarkupError: closing tag '[/bold]' at position 5 doesn't match any open tag"


@pytest.mark.anyio
async def test_the_file_writing_the_message_comes_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=QUERY))
        paths = [h.entry.path for h in answer.hits]
        assert paths[:2] == ["pkg/markup.py", "pkg/errors.py"], paths


def test_a_number_in_a_message_is_a_value_formatted_in() -> None:
    assert message_queries(QUERY)[0] == (
        'body_terms : NEAR("closing tag" "at position" "doesn t match any open tag", 3)'
    )
