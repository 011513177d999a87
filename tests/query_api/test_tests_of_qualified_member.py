"""`where is _RefResolver.resolve_fragment tested` asks for the tests of one member, written
with its class: both parts are names of several words, and the query read as naming two
names asked about none. QA on python-jsonschema/jsonschema: no test calls resolve_fragment,
and the answer ranked test_validators.py's `test_it_creates_a_ref_resolver_if_not_provided`
first with no note saying it is only a guess."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.tests_first import tested_name as name_of_tested
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

SOURCE = (
    "class _RefResolver:\n"
    "    def resolve_fragment(self, document, fragment):\n"
    "        return document[fragment]\n\n"
    "    def resolve_remote(self, uri):\n"
    "        return {}\n"
)
REMOTE_TEST = (
    "from pkg.resolver import _RefResolver\n\n\n"
    "def test_it_creates_a_ref_resolver():\n"
    "    assert _RefResolver().resolve_remote('x') == {}\n"
)
FRAGMENT_TEST = (
    "from pkg.resolver import _RefResolver\n\n\n"
    "def test_fragments():\n"
    "    assert _RefResolver().resolve_fragment({'a': 1}, 'a') == 1\n"
)


def test_a_member_written_with_its_class_is_the_name_asked() -> None:
    assert name_of_tested("where is _RefResolver.resolve_fragment tested") in (
        "_RefResolver.resolve_fragment",
        "resolve_fragment",
    )
    assert name_of_tested("tests for _RefResolver.resolve_fragment") is not None
    # two names apart still name none
    assert name_of_tested("tests for resolve_fragment and resolve_remote") is None


async def test_the_member_s_tests_come_first(tmp_path: Path) -> None:
    files = {
        "pkg/resolver.py": SOURCE,
        "tests/test_remote.py": REMOTE_TEST,
        "tests/test_fragment.py": FRAGMENT_TEST,
    }
    async with indexed_app(tmp_path, files) as app:
        query = "where is _RefResolver.resolve_fragment tested"
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        paths = [h.entry.path for h in answer.hits]
        assert paths[0] == "tests/test_fragment.py", paths


async def test_no_test_of_the_member_says_so(tmp_path: Path) -> None:
    files = {"pkg/resolver.py": SOURCE, "tests/test_remote.py": REMOTE_TEST}
    async with indexed_app(tmp_path, files) as app:
        query = "where is _RefResolver.resolve_fragment tested"
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        assert "no test file names or calls resolve_fragment" in (answer.note or ""), answer.note
