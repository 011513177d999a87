"""A question asking for a thing's type declarations gets its declarations files first.

A TypeScript package often ships its types beside its JavaScript (`index.d.ts` by `index.js`),
and the code holds every word of the question too (`type: "object"` in an options schema):
QA on middyjs/middy, `where are the type definitions for http-cors` ranked
packages/http-cors/index.js first and its index.d.ts second. So a question of that form
(`where are the type definitions for X`, `show me the typings of X`, `find the .d.ts for X`)
puts the declarations files of the ranking holding its subject first (path_roles.
is_type_declarations: `.d.ts`, `types.ts`, a `types/` folder, `.pyi`), those whose path names
the subject leading. A request to change types (`fix types for X`) is no such question.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from processors.path_roles import is_type_declarations
from query_api.retrieval.example_names import named_pages_first
from query_api.retrieval.hit_details import QueryTerms, query_terms
from schemas import tools as t

_ASKING = r"(?:where\s+(?:are|is)|which\s+files?\s+(?:holds?|has|have)|show(?:\s+me)?|find|open)"
_DECLARATIONS = (
    r"(?:typescript\s+)?(?:type\s+(?:definitions?|declarations?|defs?)|typings?|types"
    r"|typedefs?|\.?d\.ts(?:\s+files?)?)"
)
_TYPES_QUESTION = re.compile(
    rf"^\s*{_ASKING}\s+(?:the\s+)?{_DECLARATIONS}\s+(?:files?\s+)?(?:for|of)\s+(?:the\s+)?"
    r"(?P<subject>[^?]+?)\s*\??\s*$",
    re.IGNORECASE,
)


def declarations_subject(query: str) -> str | None:
    """What a question asking for type declarations asks them for (`http-cors` for `where
    are the type definitions for http-cors`), else None."""
    found = _TYPES_QUESTION.match(query)
    return None if found is None else found["subject"]


def declarations_first(
    query: str, hits: list[t.SearchHit], holds: Callable[[str, QueryTerms], bool]
) -> list[t.SearchHit]:
    """`hits` with the declarations files holding the subject (`holds`: a path, terms; each of
    its words) first, those whose paths hold most of its words leading, scored as the first hit
    at least; `hits` as they are for another query or when none holds it."""
    subject = declarations_subject(query)
    if subject is None:
        return hits
    terms = query_terms(subject)
    # each of its words (`http cors`: any declarations file holds `http`), a name whole
    each = [terms] if terms.identifiers else [query_terms(word) for word in sorted(terms.words)]

    def declares(hit: t.SearchHit) -> bool:
        path = hit.entry.path or ""
        if hit.entry.kind != "File" or not is_type_declarations(path):
            return False
        return all(holds(path, word) for word in each)

    head = [hit for hit in hits if declares(hit)]
    if not head:
        return hits
    top = max((hit.score for hit in hits), default=0.0)
    lifted = [hit.model_copy(update={"score": max(hit.score, top)}) for hit in head]
    ordered = named_pages_first(lifted, terms.words, declares)
    return ordered + [hit for hit in hits if hit not in head]
