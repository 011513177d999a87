"""A Kotlin use named by the function holding it, not by a local `val` of that function.

The Kotlin extractor declares every `val`/`var` of a function body (a Property inside a
Function or Method), and a reference made in its initialiser is that local's. related and
changed listed the locals as the symbols using a file: on square/retrofit, related of
KotlinExtensions.kt named 25 tests `retrofit2.KotlinSuspendTest.body.example` (each test's
`val example = retrofit.create(...)`), and Invocation.java's dependents
`retrofit2.await.onResponse.invocation`. A local is named by the innermost function whose
lines hold it; a class's or the file's own property stays as it is."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from schemas.symbols import SymbolAt
from streams.stores.views.symbols import SymbolRow

_KOTLIN = (".kt", ".kts")
_FUNCTION_KINDS = frozenset({"Function", "Method"})


def by_enclosing_function(
    files: Mapping[str, list[str]],
    symbols_of: Callable[[Sequence[str]], Mapping[str, list[SymbolRow]]],
) -> dict[str, list[str]]:
    """`files` (path -> symbols using a file) with each Kotlin local named by its function,
    order kept, each once (`symbols_of`: the declarations of files, one read for all)."""
    kotlin = [path for path in files if path.endswith(_KOTLIN)]
    if not kotlin:
        return dict(files)
    declared = symbols_of(kotlin)
    out: dict[str, list[str]] = {}
    for path, symbols in files.items():
        rows = declared.get(path)
        if not rows:
            out[path] = symbols
            continue
        holder = _holders(rows)
        out[path] = list(dict.fromkeys(holder.get(symbol, symbol) for symbol in symbols))
    return out


def rows_by_enclosing_function(
    rows: list[SymbolAt],
    symbols_of: Callable[[Sequence[str]], Mapping[str, list[SymbolRow]]],
) -> list[SymbolAt]:
    """`rows` (symbols by file, as changed lists dependents) named as by_enclosing_function
    names them; files in the order they come."""
    by_path: dict[str, list[str]] = {}
    for row in rows:
        by_path.setdefault(row.path, []).append(row.symbol)
    return [
        SymbolAt(symbol=symbol, path=path)
        for path, symbols in by_enclosing_function(by_path, symbols_of).items()
        for symbol in symbols
    ]


def without_locals(rows: list[SymbolRow]) -> list[SymbolRow]:
    """A Kotlin file's declarations less its functions' locals (a bundle's spans: a local
    holds lines its function's own words would otherwise count); others' as they are."""
    if not rows or not rows[0].path.endswith(_KOTLIN):
        return rows
    local = _holders(rows)
    return [row for row in rows if row.fq_name not in local]


def _holders(rows: list[SymbolRow]) -> dict[str, str]:
    """A local property's name -> the innermost function of the file holding its line."""
    functions = [r for r in rows if r.kind in _FUNCTION_KINDS]
    out: dict[str, str] = {}
    for row in rows:
        if row.kind != "Property":
            continue
        holding = [
            f
            for f in functions
            if f.start_line <= row.start_line
            and row.end_line <= f.end_line
            and row.fq_name.startswith(f.fq_name.split("(", 1)[0] + ".")
        ]
        if holding:
            innermost = min(holding, key=lambda f: f.end_line - f.start_line)
            out[row.fq_name] = innermost.fq_name
    return out
