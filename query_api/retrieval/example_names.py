"""Of the example programs a query asking for examples puts first, those named for its
subject lead.

An example program is named for what it shows (examples/long-spinner.rs, examples/download.rs),
while the word `example` and the subject's words fill the others' comments and templates: QA
on console-rs/indicatif, `example of a spinner` ranked examples/long-spinner.rs fifth, below
four examples whose templates hold `{spinner}` and whose comments say `example`, and `example
of a download progress bar` put examples/multi-tree-ext.rs above examples/download.rs. So the
examples whose file name holds the most of the subject's words (in either number) go first,
the others after them, each in the ranking's order; a program in a folder of its own
(examples/chat/client.go) is named by the folder too.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from processors.tokenizer import tokenize
from query_api.retrieval.doc_words import DOC_WORDS
from query_api.retrieval.word_forms import forms
from schemas import tools as t


def named_examples_first(
    hits: list[t.SearchHit], words: Collection[str], is_example: Callable[[t.SearchHit], bool]
) -> list[t.SearchHit]:
    """`hits` with the leading run of examples (`is_example`) ordered by how many of the
    subject's `words` their file names hold, most first, ties in their order."""
    subject = {w for w in words if w not in DOC_WORDS}
    wanted = subject | {form for word in subject for form in forms(word)}
    lead = 0
    while lead < len(hits) and is_example(hits[lead]):
        lead += 1
    if not wanted or lead < 2:
        return hits

    def named(hit: t.SearchHit) -> int:
        # its name and its folders below the first (examples/chat/client.go: `chat client`)
        below = (hit.entry.path or "").partition("/")[2] or (hit.entry.path or "")
        return -len(wanted.intersection(tokenize(below.rpartition(".")[0] or below)))

    return sorted(hits[:lead], key=named) + hits[lead:]
