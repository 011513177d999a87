"""A request to update a dependency (dependency_updates.py) points each file declaring it at
the lines declaring it: the lines the update changes.

The request's words are the package's name and two versions, and the lines holding most of
them were others: QA on apache/commons-collections pointed .github/workflows/codeql-analysis.yml
at `actions: read` for `Bump github/codeql-action from 4.32.6 to 4.34.0` (the step's
`uses: github/codeql-action/init@...` holds the name as one path), maven.yml at three steps'
`uses:` for `Bump actions/cache from 6.0.0 to 6.1.0`, and pom.xml at another dependency's
`<version>` above commons-lang3's `<artifactId>` for `Bump commons-lang3 to 3.18.0`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from query_api.retrieval.dependency_updates import declaring_file, updated_package
from query_api.retrieval.hit_details import LINE_CHARS, HitLocator
from schemas import tools as t

_VERSION_AFTER = 3  # lines below a pom.xml's artifactId its `<version>` may stand on
_POM_VERSION = re.compile(r"^\s*<version>[^<]*</version>")


def at_dependency_lines(
    locator: HitLocator, repo_id: str, query: str, hits: list[t.SearchHit]
) -> list[t.SearchHit]:
    """`hits` with each file hit declaring the package a dependency update names pointed at
    its declaration (declaration_lines), when the query is such a request; else as they are."""
    package = updated_package(query)
    if package is None:
        return hits
    out = []
    for hit in hits:
        path = hit.entry.path
        body = locator.body(repo_id, path) if hit.entry.kind == "File" and path else None
        span = None
        if path and body and declaring_file(path, body, package):
            span = declaration_lines(body.split("\n"), package)
        if span is not None:
            hit = hit.model_copy(update=_located(body.split("\n") if body else [], span))
        out.append(hit)
    return out


def declaration_lines(lines: Sequence[str], package: str) -> tuple[int, int] | None:
    """The first line (1-based) declaring `package`, as a workflow step's `uses:` or a line
    naming it whole (a manifest's entry, a pom.xml's `<artifactId>`), and the last: a
    pom.xml's `<version>` just below its artifactId, else that line again."""
    name = re.escape(package)
    step = re.compile(rf"^\s*-?\s*uses:\s*['\"]?{name}(?:/[\w./-]+)?@", re.IGNORECASE)
    whole = re.compile(rf"(?<![\w@/.-]){name}(?![\w/-])", re.IGNORECASE)
    at = next((n for n, line in enumerate(lines, 1) if step.match(line)), None)
    if at is None:
        at = next((n for n, line in enumerate(lines, 1) if whole.search(line)), None)
    if at is None:
        return None
    if "<artifactId>" in lines[at - 1]:
        below = range(at + 1, min(at + _VERSION_AFTER, len(lines)) + 1)
        end = next((n for n in below if _POM_VERSION.match(lines[n - 1])), at)
        return at, end
    return at, at


def _located(lines: Sequence[str], span: tuple[int, int]) -> dict[str, object]:
    start, end = span
    shown = []
    for n in range(start, end + 1):
        text = lines[n - 1].strip()
        text = text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 1] + "…"
        shown.append(f"{n}: {text}")
    return {"startLine": start, "endLine": end, "snippet": "\n".join(shown)}
