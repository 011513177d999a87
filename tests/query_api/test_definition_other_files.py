"""A definition query's answer holds files declaring no such name (they use it, or share its
words): such a file's hit shows where it spells the name, not the line holding the most of
the query's words, `defined` among them. QA on jquense/yup: `where is Schema.validate
defined` pointed src/object.ts at its `defined(` method (line 104), not at `protected
_validate(` (229); schema.ts, which declares it, was pointed at the declaration."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.definition_sites import at_definitions
from schemas import tools as t
from tests.query_api.located import located_hits

FILES = {
    "src/schema.ts": (
        "export default class Schema {\n"  # 1
        "  validate(value: unknown) {\n"  # 2
        "    return value;\n"  # 3
        "  }\n"  # 4
        "}\n"
    ),
    "src/object.ts": (
        "import Schema from './schema';\n"  # 1
        "\n"
        "export default class ObjectSchema extends Schema {\n"  # 3
        "  // a value is defined when it is not undefined\n"  # 4
        "  defined(message = 'is defined') {\n"  # 5
        "    return this;\n"  # 6
        "  }\n"  # 7
        "\n"
        "  protected _validate(value: unknown) {\n"  # 9
        "    return super.validate(value);\n"  # 10
        "  }\n"
        "}\n"
    ),
}


def _hits(tmp_path: Path, query: str) -> list[t.SearchHit]:
    return located_hits(tmp_path, FILES, query, at_definitions)


def test_a_file_not_declaring_the_name_shows_where_it_spells_it(tmp_path: Path) -> None:
    declaring, other = _hits(tmp_path, "where is Schema.validate defined")
    assert declaring.startLine == 2, declaring
    assert other.snippet is not None and "validate" in other.snippet, other
    assert "defined(" not in other.snippet, other
