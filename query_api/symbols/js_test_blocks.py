"""The test blocks of a JavaScript or TypeScript test file, for its outline.

A Jest, Vitest or Mocha file declares its tests as calls (`describe("storage", () => {`,
`it("mount/unmount", async () => {`), no declarations, so its outline listed its one `const`
(QA on unjs/unstorage: test/storage.test.ts, 296 lines, outlined as `7-10 Field data`), and an
agent read the whole file to find a test. The blocks are read from the stored body when the
outline is asked for, not stored as declarations: search's symbol-name field would weigh every
word of a test's title.

A block is a line opening with `describe`, `context`, `suite`, `it`, `test` or `bench` (and
their `.only`, `.skip`, `.each(...)` forms) called with a quoted title. It is named by its title
within the titles of the blocks around it (`storage > mount/unmount`, as Vitest reports it),
and its signature is its call (`it`, `describe.skip`: the title is its name already). It ends
on the first later line indented as it is that closes it (`});`), else where the next
block at its indent or a shallower one starts, else at the end of the file.
"""

from __future__ import annotations

import re

from streams.stores.views.symbols import SymbolRow

JS_SUFFIXES = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts")
BLOCK_KIND = "Function"  # a test block is a function passed to the runner
MAX_TITLE_CHARS = 120
MAX_BLOCKS = 5_000  # of one file: bounded as an outline's page is

_OPEN = re.compile(
    r"""^(?P<indent>[ \t]*)(?P<fn>describe|context|suite|it|test|bench)
    (?:\.(?:only|skip|todo|concurrent|sequential|fails|each\([^)]*\)))*\s*
    (?P<paren>\()\s*(?P<q>["'`])(?P<title>(?:\\.|(?!(?P=q)).)*)(?P=q)""",
    re.VERBOSE,
)
_CLOSE = re.compile(r"^[ \t]*[})]")


def is_js(path: str) -> bool:
    return path.lower().endswith(JS_SUFFIXES)


def outlined_test_blocks(repo_id: str, path: str, body: str) -> list[SymbolRow]:
    """The describe/it/test blocks of `body` as outline rows, in line order."""
    lines = body.split("\n")
    if body.endswith("\n"):
        lines.pop()
    opened: list[tuple[int, int, str]] = []  # line, indent, title
    calls: list[str] = []  # each block's call: `it`, `describe.skip`, `test.each([...])`
    for number, line in enumerate(lines, start=1):
        found = _OPEN.match(line)
        if found is not None and found.group("title").strip():
            indent = _indent(line)
            opened.append((number, indent, found.group("title").strip()[:MAX_TITLE_CHARS]))
            calls.append(line[found.start("fn") : found.start("paren")].strip())
            if len(opened) >= MAX_BLOCKS:
                break
    rows: list[SymbolRow] = []
    outer: list[tuple[int, int, str]] = []  # (indent, end, title) of the blocks around one
    for i, (number, indent, title) in enumerate(opened):
        end = _end_of(lines, number, indent, opened[i + 1 :])
        while outer and (outer[-1][0] >= indent or outer[-1][1] < number):
            outer.pop()
        name = " > ".join([*(t for _, _, t in outer), title])
        rows.append(SymbolRow(repo_id, path, name, title, BLOCK_KIND, number, end, "", calls[i]))
        outer.append((indent, end, title))
    return rows


def _end_of(lines: list[str], start: int, indent: int, later: list[tuple[int, int, str]]) -> int:
    """The last line of the block opening on line `start` at `indent`."""
    if lines[start - 1].rstrip().endswith(");"):
        return start  # `it("adds", () => expect(add(1, 1)).toBe(2));`
    limit = next((n - 1 for n, i, _ in later if i <= indent), len(lines))
    for number in range(start + 1, limit + 1):
        line = lines[number - 1]
        if _CLOSE.match(line) and _indent(line) <= indent:
            return number
    return limit


def _indent(line: str) -> int:
    expanded = line.expandtabs(4)
    return len(expanded) - len(expanded.lstrip())
