"""Of lines matching the query as well, a hit points at a declaration's head, and a
decorated declaration's head is the line below its decorators (query_api/retrieval/
line_preference._heads). QA on python-attrs/cattrs: `FunctionDispatch` pointed dispatch.py at
`def copy_to(self, other: FunctionDispatch, ...)` (line 84), whose def is its declaration's
first line, not at `class FunctionDispatch:` (line 31), whose declaration opens with
`@define` on line 30."""

from __future__ import annotations

from pathlib import Path

from tests.query_api.located import located_hits

PADDING = [f"        self.step_{i} = {i}" for i in range(50)]
DISPATCH = "\n".join(
    [
        "from attrs import define",  # 1
        "",
        "",
        "@define(",  # 4
        "    slots=True,",  # 5
        ")",  # 6
        "@frozen",  # 7
        "class FunctionDispatch:",  # 8
        '    """Dispatch on predicates."""',
        "",
        "    def dispatch(self, typ):",  # 11
        *PADDING,  # 12-61
        "        return typ",  # 62
        "",
        "    def copy_to(self, other: FunctionDispatch, skip: int = 0) -> None:",  # 64
        "        other.handlers = self.handlers[skip:]",
        "",
    ]
)


def test_a_decorated_class_is_pointed_at_below_its_decorators(tmp_path: Path) -> None:
    [hit] = located_hits(tmp_path, {"pkg/dispatch.py": DISPATCH}, "FunctionDispatch")
    assert hit.snippet is not None and hit.snippet.startswith("8: class FunctionDispatch:"), hit
    assert hit.startLine is not None and hit.startLine <= 8 <= (hit.endLine or 0), hit
