"""A definition or users query for a name declared nowhere, where a name one or two characters
longer is declared, says so and names it (query_api/retrieval/near_names.py). QA on
PyCQA/flake8: `where is NOQA_INLINE_REGEX used` (flake8 declares NOQA_INLINE_REGEXP) noted
`none of these hits uses NOQA_INLINE_REGEX outside its declarations and comments`, read as
no file using the constant."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "app/defaults.py": 'import re\n\nNOQA_INLINE_REGEXP = re.compile("# noqa")\n',
    "app/violation.py": "from app import defaults\n\n\ndef find(line):\n"
    "    return defaults.NOQA_INLINE_REGEXP.search(line)\n",
}
NOTE = "NOQA_INLINE_REGEX is declared nowhere in repo; NOQA_INLINE_REGEXP (app/defaults.py) is"


async def test_a_name_declared_nowhere_names_the_one_meant(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        for query in ("where is NOQA_INLINE_REGEX used", "where is NOQA_INLINE_REGEX defined"):
            answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
            assert answer.hits, query
            assert answer.note is not None and NOTE in answer.note, (query, answer.note)
            assert "none of these hits" not in answer.note, answer.note
        # the name as declared: no such note
        query = "where is NOQA_INLINE_REGEXP used"
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        assert answer.note is None or "declared nowhere" not in answer.note, answer.note


RUST_FILES = {
    "src/macros.rs": "#[macro_export]\nmacro_rules! assert_yaml_snapshot {\n"
    "    ($($arg:tt)*) => { $crate::check(format!($($arg)*)) };\n}\n",
    "src/lib.rs": "#[macro_use]\nmod macros;\n\npub fn check(value: String) {\n"
    "    assert!(!value.is_empty());\n}\n",
    "tests/test_basic.rs": "#[test]\nfn test_yaml() {\n"
    '    insta::assert_yaml_snapshot!("value");\n}\n',
}


async def test_a_rust_macro_is_declared_under_its_name(tmp_path: Path) -> None:
    """QA on mitsuhiko/insta: 'where is the assert_yaml_snapshot macro defined' noted
    'assert_yaml_snapshot is declared nowhere in repo; assert_yaml_snapshot! (insta/src/macros.rs)
    is': a macro is declared as `name!`, and the name asked about is the macro's."""
    async with indexed_app(tmp_path, RUST_FILES) as app:
        for query in (
            "where is the assert_yaml_snapshot macro defined",
            "where is assert_yaml_snapshot defined",
            "what uses the assert_yaml_snapshot macro",
        ):
            answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
            assert answer.hits, query
            assert answer.note is None or "declared nowhere" not in answer.note, (
                query,
                answer.note,
            )
