"""A message written over several string literals is pointed at its first line. QA on
python-jsonschema/jsonschema: a pasted `DeprecationWarning: Accessing
jsonschema.draft3_format_checker is deprecated and will be removed in a future release.
Instead, use the FORMAT_CHECKER attribute on the corresponding Validator.` pointed
__init__.py at line 99, `"attribute on the corresponding Validator.",`, the last of the three
literals writing it and the only one holding a whole phrase of it, not at line 97."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

INIT = '''import warnings


def __getattr__(name):
    """The module's deprecated attributes."""
    if name == "checker":
        warnings.warn(
            f"Accessing gauge.{name} is deprecated and will be "
            "removed in a future release. Instead, use the CHECKER "
            "attribute on the corresponding Validator.",
            DeprecationWarning,
            stacklevel=2,
        )
        return 1
    raise AttributeError(name)
'''
QUERY = (
    "DeprecationWarning: Accessing gauge.checker is deprecated and will be removed in a "
    "future release. Instead, use the CHECKER attribute on the corresponding Validator."
)


async def test_the_message_s_first_literal_is_pointed_at(tmp_path: Path) -> None:
    files = {"gauge/__init__.py": INIT, "gauge/other.py": "VALUE = 'a validator'\n"}
    async with indexed_app(tmp_path, files) as app:
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=QUERY))
        hit = next(h for h in answer.hits if h.entry.path == "gauge/__init__.py")
        assert (hit.snippet or "").startswith('8: f"Accessing gauge.'), hit.snippet
