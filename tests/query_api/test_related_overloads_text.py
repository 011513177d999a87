"""A related line names a method's overloads once: QA on jquense/yup, related(src/schema.ts)
read `src/Lazy.ts: Lazy._resolve, Lazy.cast(any,CastOptionalityOptions<TContext>),
Lazy.cast(any,CastOptions<TContext>), Lazy.cast(any,CastOptions|CastOptionalityOptions),
Lazy.describe`, three entries and their parameter types for one method (the JSON keeps the
stored names, which recall takes)."""

from __future__ import annotations

from query_api.answers.render import render
from schemas import symbols as sy
from schemas.symbols import SymbolAt


def test_overloads_of_one_method_are_one_name() -> None:
    dependents = [
        SymbolAt(symbol="Lazy._resolve", path="src/Lazy.ts"),
        SymbolAt(symbol="Lazy.cast(any,CastOptionalityOptions<TContext>)", path="src/Lazy.ts"),
        SymbolAt(symbol="Lazy.cast(any,CastOptions<TContext>)", path="src/Lazy.ts"),
        SymbolAt(symbol="Lazy.cast(any,CastOptions|CastOptionalityOptions)", path="src/Lazy.ts"),
        SymbolAt(symbol="Lazy.describe", path="src/Lazy.ts"),
        # one overload alone keeps its stored name
        SymbolAt(symbol="MixedSchema.concat(Schema<IT,IC,ID,IF>)", path="src/mixed.ts"),
    ]
    answer = sy.RelatedResult(
        repoId="r", path="src/schema.ts", exists=True, dependents=dependents, tests=[]
    )
    structured, text = render(answer)
    assert text.splitlines()[2:4] == [
        "dependents:",
        "  src/Lazy.ts: Lazy._resolve, Lazy.cast, Lazy.describe",
    ]
    assert text.splitlines()[4] == "  src/mixed.ts: MixedSchema.concat(Schema<IT,IC,ID,IF>)"
    assert structured["dependents"][2]["symbol"] == "Lazy.cast(any,CastOptions<TContext>)"
