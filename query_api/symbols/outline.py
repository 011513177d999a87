"""repocontext_outline's answer (spec §3.6): the declared-symbol skeleton of one stored file,
sorted by start line, and its whole-file token cost; never reads disk.

A file longer than the stored body (64 Ki characters, the reference's cap on what the tools
return) is outlined as far as its symbols were extracted: as far as keyword search indexes
it (processors/symbols/processor.py), past that body. The answer says so with `truncated`
and names the line the stored body stops in (`truncatedAtLine`), so an agent knows that
declarations after it are listed but their text is not returned; `indexedChars` says where
both search and the outline stop, for a file longer than the indexed limit. `lineCount` and
`sizeBytes` say how long the file is (only its size for a truncated one: the views count the
lines of the stored text alone).

One answer lists at most MAX_OUTLINE_SYMBOLS declarations from the caller's `offset`; a longer
list says how many there are (`symbolCount`) and where the next page starts (`nextOffset`),
so a generated module's outline is bounded and still reaches its last declaration.

A Markdown file, which declares nothing, is outlined by its headings (markdown_outline.py), and
a JavaScript or TypeScript test file lists its describe/it blocks too (js_test_blocks.py), and
a TS/JS module the names it exports without declaring them (export_outline.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from processors.path_roles import Role, role_of
from query_api.symbols.export_outline import exported_rows
from query_api.symbols.import_names import ImportNames
from query_api.symbols.js_test_blocks import is_js, outlined_test_blocks
from query_api.symbols.markdown_outline import is_markdown, markdown_headings
from query_api.symbols.shown_signatures import shown_signature
from schemas.symbols import MAX_OUTLINE_SYMBOLS, OutlineResult, OutlineSymbol
from streams.stores.views.store import ViewStore
from streams.stores.views.symbols import SymbolViews

# a TS/JS module's default export written as an expression (`export default (config) => {`,
# `module.exports = cond && function () {`), which declares no name; `export default app;`
# hands on a name declared elsewhere
_DEFAULT_EXPRESSION = re.compile(
    r"^(?:export\s+default|module\.exports\s*=)\s*(?![\w$]+\s*;?\s*$)\S", re.MULTILINE
)


def stored_end_line(body: str) -> int:
    """The 1-based line a truncated stored body stops in (the cut may fall inside it)."""
    return body.count("\n") + 1


def default_expression_line(body: str) -> int | None:
    """The 1-based line a TS/JS file's default export expression starts on, None when it
    has none: a file declaring nothing may still hold its code there, no barrel."""
    found = _DEFAULT_EXPRESSION.search(body)
    return body.count("\n", 0, found.start()) + 1 if found else None


def outline_of(
    views: ViewStore,
    symbols: SymbolViews,
    count: Callable[[str], int],
    repo_id: str,
    path: str,
    offset: int = 0,
) -> OutlineResult:
    file = views.get_file(repo_id, path)
    if file is None:
        return OutlineResult(repoId=repo_id, path=path, exists=False)
    content = views.get_content(repo_id, path)
    tokens: int | None = None
    names = ImportNames(symbols, repo_id)
    cut_at: int | None = None
    if content is not None:
        tokens = content.token_count
        if tokens is None:  # counted on read: exact BPE (token_encoding) of the body
            tokens = count(content.body)
        if content.truncated:
            cut_at = stored_end_line(content.body)
    declared = symbols.symbols_of_file(repo_id, path)
    if not declared and content is not None and is_markdown(path):
        declared = markdown_headings(repo_id, path, content.body)
    elif content is not None and is_js(path):
        extra = exported_rows(repo_id, path, content.body, declared)
        if role_of(path) is Role.TEST:
            extra += outlined_test_blocks(repo_id, path, content.body)
        if extra:
            declared = sorted([*declared, *extra], key=lambda s: (s.start_line, -s.end_line))
    page = declared[offset : offset + MAX_OUTLINE_SYMBOLS]
    paged = offset > 0 or len(page) < len(declared)
    after = offset + len(page)
    return OutlineResult(
        repoId=repo_id,
        path=path,
        exists=True,
        fullReadTokenCount=tokens,
        symbols=[
            OutlineSymbol(
                fullyQualifiedName=names.shown(s.fq_name, path),
                kind=s.kind,
                signature=shown_signature(s.signature),
                startLine=s.start_line,
                endLine=s.end_line,
            )
            for s in page
        ],
        truncated=file.truncated or None,
        truncatedAtLine=cut_at,
        indexedChars=file.indexed_chars,
        # the stored line count is the whole file's only when nothing was cut
        lineCount=None if file.truncated or file.binary else file.line_count,
        sizeBytes=file.size,
        symbolCount=len(declared) if paged else None,
        nextOffset=after if after < len(declared) else None,
        # a caller paging past the end was answered no symbols and no word of why
        note=(
            f"offset {offset} is past the file's {len(declared):,} declarations"
            if declared and offset >= len(declared)
            else None
        ),
    )
