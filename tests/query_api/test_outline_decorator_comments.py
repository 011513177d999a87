"""A Python outline line leaves out a comment written after a decorator. QA on pallets/
werkzeug: structures.py's outline read `67-68 Method @t.overload # type: ignore[override]
werkzeug.datastructures.structures.TypeConversionDict.get(self, key: K) -> V | None`: the
stored signature joins the decorator's line, comment and all, to the `def`."""

from __future__ import annotations

from query_api.answers.python_signatures import named_signature
from query_api.answers.render import render
from schemas import symbols as sy


def test_a_comment_after_a_decorator_is_left_out() -> None:
    sig = "@t.overload  # type: ignore[override] def get(self, key: K) -> V | None: ..."
    assert named_signature("structures.TypeConversionDict", "get", sig) == (
        "@t.overload structures.TypeConversionDict.get(self, key: K) -> V | None: ..."
    )
    stacked = "@classmethod  # noqa: B902 @t.overload def make(cls) -> int: ..."
    assert (
        named_signature("m.C", "make", stacked)
        == "@classmethod @t.overload m.C.make(cls) -> int: ..."
    )


def test_a_hash_inside_a_decorators_arguments_is_kept() -> None:
    sig = '@app.route("/#top", methods=["GET"]) def top() -> str'
    assert named_signature("m", "top", sig) == '@app.route("/#top", methods=["GET"]) m.top() -> str'


def test_the_outline_line_says_no_comment() -> None:
    symbol = sy.OutlineSymbol(
        fullyQualifiedName="structures.TypeConversionDict.get(self,K)",
        kind="Method",
        signature=(
            "@t.overload  # type: ignore[override]\n    def get(self, key: K) -> V | None: ..."
        ),
        startLine=67,
        endLine=68,
    )
    outline = sy.OutlineResult(
        repoId="r", path="src/structures.py", exists=True, lineCount=80, symbols=[symbol]
    )
    assert render(outline)[1].splitlines()[1] == (
        "67-68 Method @t.overload structures.TypeConversionDict.get(self, key: K) -> V | None: ..."
    )
