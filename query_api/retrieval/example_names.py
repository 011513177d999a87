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

A doc page is named for what it documents the same way, by its file or its folder
(docs/middlewares/http-json-body-parser/+page.md, packages/http-cors/README.md), while pages
listing every package (upgrade notes, an index) hold the subject's words in their text: QA on
middyjs/middy, `docs for the http-json-body-parser middleware` ranked that middleware's page
seventh, below five upgrade guides and a neighbour's page linking to it.
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
    return named_pages_first(hits, words, is_example, below_first_folder=True)


def named_pages_first(
    hits: list[t.SearchHit],
    words: Collection[str],
    is_page: Callable[[t.SearchHit], bool],
    *,
    below_first_folder: bool = False,
) -> list[t.SearchHit]:
    """`hits` with the leading run of pages (`is_page`) ordered by how many of the subject's
    `words` their paths hold (less the first folder, `examples/`, when `below_first_folder`),
    most first, ties in their order."""
    subject = {w for w in words if w not in DOC_WORDS}
    wanted = subject | {form for word in subject for form in forms(word)}
    lead = 0
    while lead < len(hits) and is_page(hits[lead]):
        lead += 1
    if not wanted or lead < 2:
        return hits

    def named(hit: t.SearchHit) -> int:
        # its name and its folders below the first (examples/chat/client.go: `chat client`)
        path = hit.entry.path or ""
        below = (path.partition("/")[2] or path) if below_first_folder else path
        return -len(wanted.intersection(tokenize(below.rpartition(".")[0] or below)))

    return sorted(hits[:lead], key=named) + hits[lead:]
