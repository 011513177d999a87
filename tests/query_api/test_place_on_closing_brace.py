"""A place on a line holding only a closing brace (`route.go:613`, a Go panic's frame at a
function's end) shows the code around that brace, not `613: }` alone. QA on gorilla/mux:
`route.go:613` answered the snippet `613: }`, which says nothing of the code there."""

from __future__ import annotations

from pathlib import Path

from schemas import tools as t
from tests.query_api.located import placed_hit

PATH = "route.go"
BODY = "\n".join(
    [
        "package mux",  # 1
        "",
        "func (r *Route) URL(pairs ...string) (*url.URL, error) {",  # 3
        "\tvalues, err := r.prepareVars(pairs...)",  # 4
        "\tif err != nil {",  # 5
        "\t\treturn nil, err",  # 6
        "\t}",  # 7
        "\tvar scheme, host, path string",  # 8
        "\treturn build(scheme, host, path, values)",  # 9
        "}",  # 10
        "",
    ]
)


def _hit(tmp_path: Path, query: str) -> t.SearchHit:
    return placed_hit(tmp_path, PATH, BODY, query)[0]


def test_a_closing_brace_shows_the_code_around_it(tmp_path: Path) -> None:
    hit = _hit(tmp_path, "route.go:7")
    assert (hit.startLine, hit.endLine) == (7, 7)
    assert hit.snippet == "6: return nil, err\n7: }\n8: var scheme, host, path string"


def test_a_range_shows_its_code_before_its_braces(tmp_path: Path) -> None:
    hit = _hit(tmp_path, "route.go:7-10")
    assert (hit.startLine, hit.endLine) == (7, 10)
    assert (
        hit.snippet
        == "8: var scheme, host, path string\n9: return build(scheme, host, path, values)"
    )
