"""A query asking for examples, docs, config or tests whose subject the repository writes only
in its other number (`example of using sessions`, where examples/session/ writes `session`)
finds those pages. QA on tinyhttp/tinyhttp: `example of using sessions` put no file of
examples/session/ in the first six (packages/app/src/app.ts's `* Example:` first), while
`example of using session` put its README and index.js first: no file holds `sessions`, and
the query's other word, `example`, found the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

from processors.path_roles import without_example_words
from query_api.retrieval.docs_first import holds_subject
from query_api.retrieval.hit_details import query_terms
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "examples/session/index.js": (
        "import getSession from 'next-session'\n\n"
        "app.use(async (req, res, next) => {\n"
        "  req.session = await getSession({ secret: 'text' })(req, res)\n"
        "  next()\n"
        "})\n"
    ),
    "examples/cookie/index.js": "// an example of setting a cookie\napp.use(cookieParser())\n",
    "examples/static/index.js": "// an example serving files\napp.use(serve('public'))\n",
    **{
        f"src/module_{i}.ts": f"/**\n * Example:\n * const x = handler{i}()\n */\n"
        f"export const handler{i} = () => {i}\n"
        for i in range(6)
    },
}


async def test_an_example_query_finds_the_examples_its_subject_names_in_another_number(
    tmp_path: Path,
) -> None:
    async with indexed_app(tmp_path, FILES, "tiny") as app:
        plural, singular = [
            await app.service.search(t.SearchArgs(repoId="tiny", query=query, k=5))
            for query in ("example of using sessions", "example of using session")
        ]
    for answer in (plural, singular):
        paths = [h.entry.path for h in answer.hits]
        assert paths[:1] == ["examples/session/index.js"], (answer.query, paths)
    first = plural.hits[0]
    assert first.snippet is not None and "session" in first.snippet, first


def test_a_page_holds_its_subject_in_the_other_number() -> None:
    terms = query_terms(without_example_words("example of using sessions"))
    assert holds_subject("req.session = await getSession()", terms)
    assert not holds_subject("app.use(serve('public'))", terms)
    assert holds_subject("the sessions store", query_terms("session docs"))
