"""A users query (`what calls newRouteRegexp`) on a file longer than the stored 64 Ki
characters, whose one use of the name lies past the stored text, points the hit at the
declaration using it, not at stored lines sharing the name's words. QA on gorilla/mux:
mux_test.go (100 KB, reason `uses:newRouteRegexp`) calls it at line 2786, in
Test_copyRouteConf, and its hit pointed at lines 688 and 697, `new(Route).HeadersRegexp(...)`,
which only share the word `regexp`."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas.events import MAX_BODY_CHARS
from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import memory_rig, rig_settings

pytestmark = pytest.mark.anyio

SOURCE = (
    "package mux\n\n"
    "// newRouteRegexp parses a route template.\n"
    "func newRouteRegexp(tpl string) (*routeRegexp, error) {\n\treturn nil, nil\n}\n\n"
    "type routeRegexp struct {\n\ttemplate string\n}\n"
)
FILLER = (
    "func TestHeadersRegexp{n}(t *testing.T) {{\n"
    '\troute := new(Route).HeadersRegexp("foo", "ba[zr]")\n'
    "\t_ = route\n}}\n\n"
)
LATE = 'func Test_copyRouteConf(t *testing.T) {\n\tr, _ := newRouteRegexp("hi")\n\t_ = r\n}\n'


async def test_a_use_past_the_stored_text_points_at_its_declaration(tmp_path: Path) -> None:
    root = tmp_path / "ws" / "repo"
    assert rig_settings(tmp_path).workspace_root == tmp_path / "ws"
    root.mkdir(parents=True, exist_ok=True)
    (root / "regexp.go").write_text(SOURCE)
    head = 'package mux\n\nimport "testing"\n\n'
    text = head + "".join(FILLER.format(n=n) for n in range(800)) + LATE
    assert text.index("newRouteRegexp") > MAX_BODY_CHARS
    (root / "mux_test.go").write_text(text)
    start = text[: text.index("func Test_copyRouteConf")].count("\n") + 1
    async with memory_rig(tmp_path, index=True) as (_, s):
        query = "what calls newRouteRegexp"
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        hit = next(h for h in found["hits"] if h["entry"]["path"] == "mux_test.go")
        assert "uses:newRouteRegexp" in hit["reasons"], hit
        assert (hit["startLine"], hit["endLine"]) == (start, start + 3), hit
        # the text is not stored: the head of the declaration holding the use
        assert hit["snippet"].split(": ", 1)[1].startswith("func "), hit
