"""A query about documentation gets the documentation first.

Docs are pushed down (search.role_prior) and never embedded (processors/vectors.py), and a
request that merely names them (`fix docs`, `document X`) changes the source as often. A
question whose subject is documentation (`where is --reload-delay documented`, `docs for the
reload delay`: path_roles.roles_about) looks for the pages: on encode/uvicorn it never found
docs/settings.md in the top 10, below every file holding `reload` and `delay`. So when the
query is about docs, the doc files of the ranking come first, in their order, the code after.
"""

from __future__ import annotations

from processors.path_roles import Role, role_of
from schemas import tools as t


def docs_first(hits: list[t.SearchHit]) -> list[t.SearchHit]:
    """`hits` with its doc files first, each list in its own order."""

    def is_doc(hit: t.SearchHit) -> bool:
        return hit.entry.kind == "File" and role_of(hit.entry.path or "") == Role.DOC

    return [hit for hit in hits if is_doc(hit)] + [hit for hit in hits if not is_doc(hit)]
