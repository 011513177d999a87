"""`where is the Validator protocol` names a declaration and its kind, as `where is the
Validator class` does: Python's typing.Protocol classes, Swift's and Objective-C's protocols.
QA on python-jsonschema/jsonschema: `protocol` was no kind word, no definition form matched,
and protocols.py's hit pointed at `VALIDATORS: ClassVar[Mapping]`, not at `class
Validator(Protocol):`."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.definition_sites import asked_kinds, defined_name
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

PROTOCOLS = (
    "from typing import ClassVar, Mapping, Protocol\n\n\n"
    "# the VALIDATORS of a validator, and the validator's checkers\n"
    "VALIDATOR_NAMES = ('draft3', 'draft4')\n\n\n"
    "class Validator(Protocol):\n"
    '    """The protocol to which all validator classes adhere."""\n\n'
    "    VALIDATORS: ClassVar[Mapping]\n"
    "    META_SCHEMA: ClassVar[Mapping]\n\n"
    "    def is_valid(self, instance) -> bool: ...\n"
)
FILES = {
    "pkg/protocols.py": PROTOCOLS,
    **{
        f"pkg/use{i}.py": (
            f"from pkg.protocols import Validator\n\n\ndef check{i}(validator: Validator):\n"
            f"    return validator.VALIDATORS\n"
        )
        for i in range(4)
    },
}


def test_protocol_is_a_kind_word() -> None:
    assert defined_name("where is the Validator protocol") == "Validator"
    assert defined_name("where is the Validator protocol defined") == "Validator"
    assert "Type" in asked_kinds("where is the Validator protocol")


async def test_the_protocol_hit_points_at_its_declaration(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        for query in ("where is the Validator protocol", "where is the Validator protocol defined"):
            answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
            first = answer.hits[0]
            assert first.entry.path == "pkg/protocols.py", [h.entry.path for h in answer.hits]
            snippet = first.snippet or ""
            assert snippet.splitlines()[0].endswith("class Validator(Protocol):"), snippet
