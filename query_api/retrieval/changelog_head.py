"""A query asking for the changelog and nothing else (`changelog`, `where is the changelog?`)
points the changelog's hit at its head: the latest release, and where a new entry goes.

The hit's lines were those holding the query's words, and a changelog names itself once,
in its oldest entry: QA on oakserver/oak, `changelog` pointed CHANGELOG.md at line 1021,
`- docs: add this CHANGELOG`, the last line of a file whose newest release opens it. A
query asking more (`changelog for 17.1.0`) keeps the lines its other words found.
"""

from __future__ import annotations

import re

from processors.tokenizer import STOP_WORDS, tokenize
from query_api.retrieval.hit_details import LINE_CHARS, SNIPPET_LINES, HitLocator
from query_api.retrieval.readme_title import title_lines
from schemas import tools as t
from streams.stores.views.changelog_files import (
    asks_for_changelog,
    is_changelog,
    without_changelog_words,
)
from streams.stores.views.entry_files import (
    ENTRY_MANIFEST,
    asks_whole_files,
    entry_package,
    is_entry_file,
    named_overview,
)

# the words of a request to be shown a file, which name nothing in it
_FORM_WORDS = frozenset(
    {"where", "find", "show", "open", "see", "read", "file", "files", "repo", "repository"}
)
_HEAD_LINES = 12  # lines of the file's head read for its first lines of text
_ROOT_README = re.compile(r"^readme(?:\.\w+)?$", re.IGNORECASE)
# a package.json's fields naming its entry files (`the ESM entry point`: entry_files._FORMAT)
_ENTRY_FIELDS = re.compile(r'^\s*"(?:main|module|exports|browser|types|typings)"\s*:')


def asks_changelog_alone(query: str) -> bool:
    """Whether the query asks for the changelog and names nothing else."""
    if not asks_for_changelog(query):
        return False
    rest = tokenize(without_changelog_words(query))
    return all(word in STOP_WORDS or word in _FORM_WORDS for word in rest)


def at_changelog_head(
    locator: HitLocator, repo_id: str, query: str, hits: list[t.SearchHit]
) -> list[t.SearchHit]:
    """`hits` with each changelog file's hit at its first lines of text, when the query
    asks for the changelog alone; each entry file's and the root README's, when it asks for
    the entry point or the project's overview (entry_files.py: src/lib.rs had pointed at
    its `//! # Crate Contents` line)."""
    if asks_changelog_alone(query):
        wanted = is_changelog
    elif asks_whole_files(query):  # `where is the entry point`: src/lib.rs from its head
        package = entry_package(query)  # `of the core package`: not util's index.js
        wanted = lambda path: is_entry_file(path, package) or path == ENTRY_MANIFEST  # noqa: E731
    elif _named_overview(locator, repo_id, query, hits):  # `what does eza do`: its README
        wanted = _is_root_readme
    else:
        return hits
    out = []
    for hit in hits:
        path = hit.entry.path
        body = locator.body(repo_id, path) if hit.entry.kind == "File" and path else None
        if path and body and wanted(path):
            lines = body.split("\n")
            # a root README from its title (readme_title.py), another file from its head
            shown = title_lines(lines, SNIPPET_LINES) if _is_root_readme(path) else []
            shown = shown or (_entry_fields(lines) if path == ENTRY_MANIFEST else [])
            shown = shown or _head_lines(lines)
            if shown:
                snippet = "\n".join(f"{n}: {_cut(lines[n - 1].strip())}" for n in shown)
                start = shown[0] if _is_root_readme(path) or path == ENTRY_MANIFEST else 1
                update = {"startLine": start, "endLine": shown[-1], "snippet": snippet}
                hit = hit.model_copy(update=update)
        out.append(hit)
    return out


def _head_lines(lines: list[str]) -> list[int]:
    """The 1-based numbers of the first lines of text of a file's head."""
    return [n for n, line in enumerate(lines[:_HEAD_LINES], start=1) if line.strip()][
        :SNIPPET_LINES
    ]


def _entry_fields(lines: list[str]) -> list[int]:
    """The 1-based numbers of a package.json's lines naming its entry files (`"main"`,
    `"exports"`, ...): QA on axios/axios pointed `where is the ESM entry point` at its
    `"@rollup/plugin-multi-entry"` dependency."""
    return [n for n, line in enumerate(lines, start=1) if _ENTRY_FIELDS.match(line)][:SNIPPET_LINES]


def _is_root_readme(path: str) -> bool:
    return _ROOT_README.match(path) is not None


def _named_overview(locator: HitLocator, repo_id: str, query: str, hits: list[t.SearchHit]) -> bool:
    """Whether the query asks what the project is by its name (entry_files.named_overview),
    read only when a root README is among the hits."""
    if not any(_is_root_readme(hit.entry.path or "") for hit in hits):
        return False
    return locator.views.read(lambda conn: named_overview(conn, repo_id, query))


def _cut(text: str) -> str:
    return text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 1] + "…"
