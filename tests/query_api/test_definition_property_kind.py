"""A definition query may name a property, field or attribute as its kind (`where is the
mimetype property of Response`), as it names a method. QA on pallets/werkzeug: that query
matched no definition form (`property` was no kind), so sansio/response.py's hit pointed at
`default_mimetype: str | None = "text/plain"`, for the words it shares."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.definition_sites import asked_kinds, at_definitions, defined_name
from query_api.retrieval.form_words import keyword_text
from tests.query_api.located import located_hits

RESPONSE = "\n".join(
    [
        "class Response:",  # 1
        '    default_mimetype: str | None = "text/plain"',  # 2
        "",  # 3
        "    @property",  # 4
        "    def mimetype(self) -> str | None:",  # 5
        '        """The mimetype (content type without charset)."""',  # 6
        "        return self.default_mimetype",  # 7
        "",
    ]
)


def test_a_property_is_a_kind_a_definition_query_names() -> None:
    query = "where is the mimetype property of Response"
    assert defined_name(query) == "mimetype"
    assert "Method" in asked_kinds(query) and "Property" in asked_kinds(query)
    assert defined_name("where is the max_content_length attribute defined") == (
        "max_content_length"
    )
    assert "property" not in keyword_text("where is the Response.mimetype property defined")


def test_the_hit_points_at_the_property(tmp_path: Path) -> None:
    query = "where is the mimetype property of Response"
    [hit] = located_hits(tmp_path, {"src/pkg/response.py": RESPONSE}, query, at_definitions)
    assert hit.startLine in (4, 5), hit
    assert hit.snippet is not None and "def mimetype(" in hit.snippet, hit
