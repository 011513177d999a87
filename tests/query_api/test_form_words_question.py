"""A question opening with its verb (`where is the website built`, `how do I register a custom
format`) is searched without its opening words. QA on sinclairzx81/typebox: `where is the
website built` ranked first two files writing `where` in comments (rare in code, so weighed
above `website`) and tasks.ts, whose `website` task builds it, nowhere in the first ten."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.form_words import keyword_text
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

WHERE = "// where the key is assigned, and where the value goes, where it is read\nexport {{}}\n"
FILES = {
    **{f"src/where{i}.ts": WHERE.format() for i in range(2)},
    **{
        f"src/m{i}.ts": f"// the website's module {i}\nexport const m{i} = {i}\n" for i in range(30)
    },
    "tasks.ts": (
        "import { Website } from './task/website.ts'\n\nTask.run('website', () => Website())\n"
    ),
}


def test_a_question_loses_its_opening_words() -> None:
    assert keyword_text("where is the website built") == "website built"
    assert keyword_text("how do I register a custom format") == "register a custom format"
    # no question's verb, or a change request: as written
    for query in ("how to build", "When the key is absent, fail", "Fix where clause"):
        assert keyword_text(query) == query


async def test_a_question_ranks_its_subject_not_its_question_words(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        query = "where is the website built"
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        paths = [h.entry.path for h in answer.hits]
        assert paths[0] == "tasks.ts" and "src/where0.ts" not in paths[:3], paths
