"""A release request (`Release 5.0.4`) points each file declaring the project's version at
that declaration: the line the release commit changes.

release_files names the files (a module's `__version__`, a manifest's `version`), but the
request's words are on none of their lines, so a hit's lines were the file's first: QA on
PyCQA/flake8 pointed src/flake8/__init__.py at its docstring (lines 1-28), not at
`__version__ = "7.3.0"` (line 20). A request to update a dependency points the files
declaring it at their declaration the same way (dependency_lines.py).
"""

from __future__ import annotations

import re

from query_api.retrieval.dependency_lines import at_dependency_lines
from query_api.retrieval.hit_details import LINE_CHARS, HitLocator
from schemas import tools as t
from streams.stores.views.release_files import released_version

# a version declared as a literal: `__version__ = "7.3.0"`, `version = "1.2.3"`, `"version":`
_VERSION_LINE = re.compile(r"""^\s*["']?(?:__version__|version)["']?\s*[:=]\s*["']?v?\d""")


def at_version_lines(
    locator: HitLocator, repo_id: str, query: str, hits: list[t.SearchHit]
) -> list[t.SearchHit]:
    """`hits` with each file hit declaring a version as a literal pointed at the first line
    declaring it, when the query is a release request; at the package's declaration, when it
    is a request to update a dependency; `hits` as they are otherwise."""
    if released_version(query) is None:
        return at_dependency_lines(locator, repo_id, query, hits)
    out = []
    for hit in hits:
        path = hit.entry.path
        body = locator.body(repo_id, path) if hit.entry.kind == "File" and path else None
        lines = body.split("\n") if body else []
        at = next((n for n, line in enumerate(lines, 1) if _VERSION_LINE.match(line)), None)
        if at is not None:
            text = lines[at - 1].strip()
            text = text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 1] + "…"
            update = {"startLine": at, "endLine": at, "snippet": f"{at}: {text}"}
            hit = hit.model_copy(update=update)
        out.append(hit)
    return out
