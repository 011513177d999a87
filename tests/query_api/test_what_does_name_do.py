"""`what does extend do`, `what is _utils.uniq for` ask what a name does: its subject is the
name, not a users query of its trailing word. QA on python-jsonschema/jsonschema: `what does
extend do` read `extend` as the users form's verb (`what classes extend X`), asked for the
users of `do` and searched `what does do`, so lines writing `does`/`do` led and
validators.py, declaring `def extend(`, was nowhere in the first ten."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.form_words import keyword_text
from query_api.retrieval.users_first import used_name
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

CHATTY = (
    '"""What it does, and what we do when it does not."""\n\n\n'
    "def verb{i}(n):\n"
    '    return "does" if n == 1 else "do"  # what does it do? it does\n'
)
FILES = {
    **{f"pkg/chatty{i}.py": CHATTY.format(i=i) for i in range(6)},
    "pkg/validators.py": (
        "def create(meta_schema):\n    return type('V', (), {})\n\n\n"
        "def extend(validator, keywords=()):\n"
        '    """A new validator class whose keywords are the given ones over its own."""\n'
        "    return create(dict(keywords))\n"
    ),
    "pkg/other.py": "VALUE = 1\n",
}


def test_what_a_name_does_asks_about_the_name() -> None:
    assert used_name("what does extend do") is None
    assert used_name("what is extend for") is None
    assert keyword_text("what does extend do") == "extend"
    assert keyword_text("what does the validates decorator do?") == "validates decorator"
    assert keyword_text("what is _utils.uniq for") == "_utils.uniq"
    assert keyword_text("what is the evolve method used for") == "evolve method"
    # the users forms it resembles keep their meaning
    assert used_name("what classes extend BaseValidator") == "BaseValidator"
    assert used_name("which functions call print_error") == "print_error"


async def test_what_a_name_does_ranks_its_declaration_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        answer = await app.service.search(t.SearchArgs(repoId="repo", query="what does extend do"))
        paths = [h.entry.path for h in answer.hits]
        assert paths and paths[0] == "pkg/validators.py", paths
        snippet = answer.hits[0].snippet or ""
        assert "5: def extend(" in snippet, snippet
