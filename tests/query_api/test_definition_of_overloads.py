"""A definition query for a Python function with `@overload` stubs points at the declaration
holding the code, not at the first stub. QA on pallets/werkzeug: `where is Request.get_json
defined` pointed wrappers/request.py at lines 572-575 (`@t.overload def get_json(...) ->
t.Any: ...`), and `where is MultiDict.to_dict defined` at 402-403, a stub, with the function
an agent would read or change a few lines below."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.definition_sites import at_definitions
from tests.query_api.located import located_hits

MODULE = "\n".join(
    [
        "import typing as t",  # 1
        "",
        "",
        "class Request:",  # 4
        "    @t.overload",  # 5
        "    def get_json(self, silent: t.Literal[False] = ...) -> t.Any: ...",  # 6
        "",
        "    @t.overload",  # 8
        "    def get_json(self, silent: bool = ...) -> t.Any | None: ...",  # 9
        "",
        "    def get_json(self, silent: bool = False) -> t.Any | None:",  # 11
        '        """Parse the body as JSON."""',  # 12
        "        return None if silent else {}",  # 13
        "",
    ]
)


def test_the_definition_of_an_overloaded_method_is_the_one_with_code(tmp_path: Path) -> None:
    query = "where is Request.get_json defined"
    [hit] = located_hits(tmp_path, {"src/pkg/request.py": MODULE}, query, at_definitions)
    assert hit.startLine == 11, hit
    assert hit.snippet is not None and hit.snippet.startswith("11: def get_json("), hit


PACKED = "\n".join(
    [
        "import typing as t",  # 1
        "",
        "",
        "class MultiDict:",  # 4
        "    @t.overload",  # 5
        "    def to_dict(self, flat: t.Literal[True] = ...) -> dict[str, str]: ...",  # 6
        "    @t.overload",  # 7
        "    def to_dict(self, flat: t.Literal[False]) -> dict[str, list[str]]: ...",  # 8
        "    def to_dict(self, flat: bool = True) -> dict[str, t.Any]:",  # 9
        '        """Return the contents as a regular dict."""',  # 10
        "        return {}",  # 11
        "",
    ]
)


def test_stubs_written_without_blank_lines_are_told_from_the_code(tmp_path: Path) -> None:
    """werkzeug's `MultiDict.to_dict`: the last stub's `@t.overload`, two lines above the
    declaration holding the code, made that one a stub too (overloads._is_stub)."""
    query = "where is MultiDict.to_dict defined"
    [hit] = located_hits(tmp_path, {"src/pkg/structures.py": PACKED}, query, at_definitions)
    assert hit.startLine == 9, hit
    assert hit.snippet is not None and hit.snippet.startswith("9: def to_dict("), hit


def test_a_qualified_name_in_a_request_points_past_the_stubs(tmp_path: Path) -> None:
    """QA on pallets/werkzeug: `TypeConversionDict.get type can be a callable` (a commit
    subject) pointed structures.py at lines 67-68, the first of five `@t.overload` stubs of
    `get`, not at the method with the code (hit_details.declaration_named)."""
    query = "MultiDict.to_dict should copy the lists"
    [hit] = located_hits(tmp_path, {"src/pkg/structures.py": PACKED}, query)
    assert hit.startLine == 9, hit


def test_a_request_about_the_overloads_keeps_the_stub(tmp_path: Path) -> None:
    """werkzeug's `Add Literal[True] overload for MultiDict.to_dict().` added a stub: the
    stubs are what it is about."""
    query = "Add Literal[True] overload for MultiDict.to_dict()."
    [hit] = located_hits(tmp_path, {"src/pkg/structures.py": PACKED}, query)
    assert hit.startLine == 5, hit


# TypeScript overload signatures written without semicolons (prettier's `semi: false`)
UNTERMINATED = "\n".join(
    [
        "export function createStore(id: string) {",  # 1
        "  let listening = true",  # 2
        "  function $patch(mutator: (state: State) => void): void",  # 3
        "  function $patch(partial: Partial<State>): void",  # 4
        "  function $patch(",  # 5
        "    partialOrMutator: Partial<State> | ((state: State) => void)",  # 6
        "  ): void {",  # 7
        "    listening = false",  # 8
        "    apply(partialOrMutator)",  # 9
        "  }",  # 10
        "  return { $patch }",  # 11
        "}",  # 12
        "",
    ]
)


def test_typescript_signatures_without_semicolons_are_stubs(tmp_path: Path) -> None:
    """QA on vuejs/pinia (no semicolons): `where is the $patch method implemented` pointed
    store.ts at the first of two overload signatures of `$patch`, not at the implementation
    below them: a stub was told only by its closing `;` (overloads._is_stub)."""
    for query in ("where is the $patch method implemented", "where is $patch defined"):
        [hit] = located_hits(tmp_path, {"src/store.ts": UNTERMINATED}, query, at_definitions)
        assert hit.startLine == 5, (query, hit)
        assert hit.snippet is not None and hit.snippet.startswith("5: function $patch("), hit


SIGNED = "\n".join(
    [
        "export class Store {",  # 1
        "  patch(mutator: (state: State) => void): void;",  # 2
        "  patch(partial: Partial<State>): void;",  # 3
        "  patch(partialOrMutator: unknown): void {",  # 4
        "    apply(partialOrMutator);",  # 5
        "  }",  # 6
        "}",  # 7
        "",
    ]
)


def test_typescript_method_signatures_with_semicolons_are_stubs(tmp_path: Path) -> None:
    query = "where is Store.patch defined"
    [hit] = located_hits(tmp_path, {"src/store.ts": SIGNED}, query, at_definitions)
    assert hit.startLine == 4, hit
