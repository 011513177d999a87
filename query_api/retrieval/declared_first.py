"""A file declaring the very declaration a query names by its qualified name ranks first.

`JsonParser.getNumberType` names one of the six `getNumberType`s jackson-core declares. Keyword
search already ranks the file declaring that one above the others (a tier of its own,
streams/stores/views/search.py), but the fusion with the vectors may not keep it there: the
parser that delegates to it reads more like the question to the encoder. A qualified name is as
exact as a path, and a file the query names by path ranks first, so the files declaring a
named declaration are moved to the head of the answer, in the order the ranking gave them.
"""

from __future__ import annotations

from schemas import tools as t


def declared_first(hits: list[t.SearchHit], declaring: set[str]) -> list[t.SearchHit]:
    """`hits` with the files in `declaring` moved to the head, each list keeping its order,
    a moved hit scored as the first hit was (scores stay in rank order); a hit that is not a
    file (memory, a package) stays with the rest."""
    if not declaring:
        return hits
    moved = [hit for hit in hits if hit.entry.kind == "File" and hit.entry.path in declaring]
    if not moved:
        return hits
    top = hits[0].score
    head = [hit.model_copy(update={"score": max(hit.score, top)}) for hit in moved]
    rest = {id(hit) for hit in moved}
    return [*head, *(hit for hit in hits if id(hit) not in rest)]
