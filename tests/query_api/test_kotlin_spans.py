"""A slices bundle names and chooses a Kotlin function's span, not one of its local `val`s.

The Kotlin extractor declares each `val` of a function body, and a declaration's own lines
leave out those of its inner declarations: on square/retrofit, a bundle for "response body
was null but declared non-null, throw KotlinNullPointerException" sent KotlinExtensions.kt
as one span named `await.onResponse.e` (the 4-line `val e = KotlinNullPointerException(...)`)
grown from there, the function holding it having lost those words to it."""

from __future__ import annotations

from pathlib import Path

from query_api.context.count_memo import CountMemo
from query_api.context.entries import EntryRenderer
from query_api.context.spans import select_spans, task_stems
from streams.stores.views.symbols import SymbolRow
from tests.query_api.test_symbol_dependents import repo_holding

AWAIT = """package retrofit2

suspend fun <T : Any> Call<T>.await(): T {
  return suspendCancellableCoroutine { continuation ->
    enqueue(object : Callback<T> {
      override fun onResponse(call: Call<T>, response: Response<T>) {
        val body = response.body()
        if (body == null) {
          val e = KotlinNullPointerException(
            "Response body was null but response body type was declared as non-null",
          )
          continuation.resumeWithException(e)
        }
      }
    })
  }
}
""".splitlines()


def sym(fq: str, kind: str, start: int, end: int) -> SymbolRow:
    name = fq.rpartition(".")[2]
    return SymbolRow("r", "KotlinExtensions.kt", fq, name, kind, start, end, "xx", name)


SYMBOLS = [
    sym("retrofit2.await", "Function", 3, 17),
    sym("retrofit2.await.onResponse", "Function", 6, 14),
    sym("retrofit2.await.onResponse.body", "Property", 7, 7),
    sym("retrofit2.await.onResponse.e", "Property", 9, 11),
]


def test_a_kotlin_local_is_no_span_of_its_own() -> None:
    stems = task_stems("response body was null but declared non-null KotlinNullPointerException")
    spans = select_spans(SYMBOLS, len(AWAIT), stems, max_lines=8, lines=AWAIT, max_spans=1)
    assert [fq for _, _, fq in spans] == ["retrofit2.await.onResponse"], spans


def test_a_bundle_outline_of_a_kotlin_file_leaves_its_locals_out(tmp_path: Path) -> None:
    """The outline level listed KotlinExtensions.kt's `val body = response.body()`, `val
    invocation = ...`, `val service = ...`, `val method = ...` and `val e = ...` beside its
    functions: five of its 17 lines, each a unit with a receipt, saying nothing of the file."""
    body = "\n".join(AWAIT) + "\n"
    with repo_holding(tmp_path, {"src/retrofit2/KotlinExtensions.kt": body}) as repo:
        renderer = EntryRenderer(repo.store, CountMemo(len))
        lines, units = renderer.outline("r", "src/retrofit2/KotlinExtensions.kt")
    assert [fq for _, fq in units] == ["retrofit2.await", "retrofit2.await.onResponse"], units
    assert not any(line.startswith("val ") for line in lines), lines
