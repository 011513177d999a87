"""A definition query about a TypeScript name declared twice in one file (an interface merged
with its class: `export default interface ObjectSchema<...> {...}` above `export default class
ObjectSchema<...>`) points at the kind the query names, and without one at the class: the
interface only adds overload signatures. QA on jquense/yup: `where is the ObjectSchema class
declared` pointed object.ts at the interface (line 92), not at the class (line 127)."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.definition_sites import at_definitions
from schemas import tools as t
from tests.query_api.located import located_hits

PATH = "src/object.ts"
BODY = "\n".join(
    [
        "import type { Maybe } from './types';",  # 1
        "",
        "export default interface ObjectSchema<TIn> {",  # 3
        "  optional(): ObjectSchema<TIn | undefined>;",  # 4
        "  defined(): ObjectSchema<TIn>;",  # 5
        "}",  # 6
        "",
        "export default class ObjectSchema<TIn> {",  # 8
        "  fields: Record<string, unknown> = {};",  # 9
        "  optional() {",  # 10
        "    return this;",  # 11
        "  }",  # 12
        "}",  # 13
        "",
    ]
)


def _hit(tmp_path: Path, query: str) -> t.SearchHit:
    [shown] = located_hits(tmp_path, {PATH: BODY}, query, at_definitions)
    return shown


@pytest.mark.parametrize(
    "query",
    [
        "where is the ObjectSchema class declared",
        "where is ObjectSchema defined",
        "definition of ObjectSchema",
    ],
)
def test_a_class_merged_with_an_interface_is_the_definition(tmp_path: Path, query: str) -> None:
    hit = _hit(tmp_path, query)
    assert hit.startLine == 8, (query, hit)


def test_the_interface_when_the_query_names_one(tmp_path: Path) -> None:
    hit = _hit(tmp_path, "where is the ObjectSchema interface defined")
    assert hit.startLine == 3, hit
