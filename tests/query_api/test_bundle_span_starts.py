"""A span no shift can start after a blank line gives up the lines above the next one
(query_api/context/spans.py, _trimmed). QA on unjs/ofetch: a span of utils.ts grown up from
`callHooks`, the file's last function, opened on `    Headers` and `  );`, the end of a call
(its end held at the file's end, no blank line within reach above); a window of fetch.ts
held at `createFetch`'s end opened on `"function") ||`. Both read as broken code."""

from __future__ import annotations

from query_api.context.spans import select_spans, task_stems
from streams.stores.views.symbols import SymbolRow


def sym(fq: str, kind: str, start: int, end: int) -> SymbolRow:
    return SymbolRow("r", "src/utils.ts", fq, fq, kind, start, end, "xx", fq)


def test_a_span_grown_up_from_a_files_last_function_starts_at_a_statement() -> None:
    body = ["export function resolveOptions(", *[f"  option{n}: number," for n in range(2, 40)]]
    body += [") {", "  const merged = mergeAll("]
    body += [*[f"    part{n}," for n in range(42, 70)], "  );", "", "  return merged;", "}", ""]
    start = len(body) + 1
    body += ["export async function callHooks(context, hooks) {"]
    body += [*[f"  await hooks[{n}](context);" for n in range(12)], "}"]
    symbols = [
        sym("resolveOptions", "Function", 1, start - 2),
        sym("callHooks", "Function", start, len(body)),
    ]
    stems = task_stems("call hooks")
    [(a, z, fq)] = select_spans(symbols, len(body), stems, 25, 25, lines=body)
    assert fq == "callHooks" and a <= start and z == len(body)
    assert body[a - 2] == "", (a, body[a - 2])  # was line 64, `    part63,` above it


def test_a_window_held_at_its_declarations_end_starts_at_a_statement() -> None:
    body = ["export function createFetch() {"]
    body += [("" if n % 30 == 0 else f"    step{n}(") for n in range(2, 200)] + ["}"]
    body[149] = "    step150("  # no blank line within reach above the window's start
    body[157] = ""  # line 158: the one below it
    body[189] = "    frobnicate(order);"  # line 190: what the task names
    stems = task_stems("frobnicate in createFetch")
    [(a, z, fq)] = select_spans(
        [sym("createFetch", "Function", 1, 200)], 200, stems, 50, lines=body
    )
    assert fq == "createFetch" and a <= 190 <= z == 200
    assert body[a - 2] == "", (a, body[a - 2])  # was line 151, `    step150(` above it


def test_lines_the_tasks_words_match_are_not_given_up() -> None:
    body = ["export function createFetch() {"]
    body += [("" if n % 30 == 0 else f"    step{n}(") for n in range(2, 200)] + ["}"]
    body[149] = "    step150("
    body[153] = "    frobnicate(first);"  # line 154: the window's matched line, placed at it
    body[155] = ""  # line 156: the only blank line in reach below the window's start (146)
    body[189] = "    frobnicate(order);"
    stems = task_stems("frobnicate in createFetch")
    [(a, _, _)] = select_spans([sym("createFetch", "Function", 1, 200)], 200, stems, 50, lines=body)
    assert a <= 154


def test_a_window_just_below_a_declarations_head_opens_on_it() -> None:
    # QA on apache/commons-text: `WordUtils.wrap` (751-840) with its context lines was longer
    # than the share, and its window opened on 752, the line below the signature
    body = [f"     * doc line {n}" for n in range(1, 10)] + ["     */"]
    start = len(body) + 1
    body += ["    public static String wrap(String str, int wrapLength, String wrapOn) {"]
    body += [f"        step{n}(str);" for n in range(1, 89)]
    body[60] = "        keepSurrogatePairWhole(str);"  # line 61: what the task names
    body += ["    }", "", "    public static String other() {", "        return null;", "    }"]
    end = start + 89
    symbols = [
        sym("WordUtils.wrap", "Method", start, end),
        sym("WordUtils.other", "Method", end + 2, end + 4),
    ]
    stems = task_stems("keep surrogate pair whole in wrap")
    [(a, z, fq)] = select_spans(symbols, len(body), stems, 92, lines=body)
    assert fq == "WordUtils.wrap" and a == start, (a, z)  # the signature is sent
    assert a <= 61 <= z


def test_a_task_word_in_an_import_list_keeps_no_line_of_it() -> None:
    """QA on vuejs/pinia: storeToRefs.ts, its span grown up to the file's imports, opened
    on `  PiniaCustomStateProperties,` inside an `import type {` list, kept for the `Store,`
    line that shares a word of `Fix storeToRefs losing reactivity after HMR`."""
    body = ["import {", *[f"  helper{n}," for n in range(2, 14)], "} from 'vue'", "import type {"]
    body += ["  PiniaCustomStateProperties,", "  StateTree,", "  Store,", "  StoreGeneric,"]
    body += ["} from './types'", ""]
    start = len(body) + 1
    body += ["export function storeToRefs(store) {"]
    body += [*[f"  const ref{n} = toRef(store, {n})" for n in range(60)], "}"]
    symbols = [sym("storeToRefs", "Function", start, len(body))]
    stems = task_stems("Fix storeToRefs losing reactivity after HMR")
    [(a, z, fq)] = select_spans(symbols, len(body), stems, 72, 72, lines=body)
    assert fq == "storeToRefs" and z == len(body)
    assert a == start, (a, body[a - 1])  # was line 16, `  PiniaCustomStateProperties,`
