"""What an answer says when the name a definition or users query asks about is declared
nowhere, but a name one or two characters longer is: the asker misremembered it.

`where is NOQA_INLINE_REGEX used` (PyCQA/flake8 declares NOQA_INLINE_REGEXP) answered the right
files, those using NOQA_INLINE_REGEXP, with the note `none of these hits uses NOQA_INLINE_REGEX
outside its declarations and comments`: true of the misspelling, and read as no file using
the constant. The note now names the declaration meant instead.
"""

from __future__ import annotations

from functools import partial

from processors.symbols.reference_sites import MACRO_BANG
from query_api.retrieval.definition_sites import defined_name
from query_api.retrieval.users_first import distinctive, used_name
from streams.stores import ViewStore
from streams.stores.views.symbol_decls import names_alike, names_extending
from streams.stores.views.symbols import symbols_named

LONGER = 2  # characters a declared name may add to the one asked about (`REGEX` -> `REGEXP`)
MIN_NAME = 6  # characters of a name asked about: a shorter one begins too many others
SHOWN = 2  # declared names the note offers


def near_name_note(views: ViewStore, repo_id: str, query: str) -> str | None:
    """`X is declared nowhere in <repo>; Y (path) is` for a definition or users query whose
    name (one part, written as code) no file declares, in any case nor as a macro, when names
    at most LONGER characters longer are declared; None otherwise."""
    asked = defined_name(query) or used_name(query)
    if asked is None or len(asked) < MIN_NAME or not distinctive(asked):
        return None
    if any(mark in asked for mark in ".:#!"):
        return None  # a qualified name: its qualifier is search's to read
    # a Rust macro is declared as `name!`: the name asked about is the macro's, not a near one
    declared_as = [asked, asked + MACRO_BANG]
    if views.read(partial(symbols_named, repo_id=repo_id, names=declared_as, limit=1, total=1)):
        return None
    if views.read(partial(names_alike, repo_id=repo_id, name=asked, limit=1)):
        return None  # declared in another case: unheld_words reads it so
    found = views.read(
        partial(names_extending, repo_id=repo_id, name=asked, longer=LONGER, limit=SHOWN)
    )
    if not found:
        return None
    named = ", ".join(f"{name} ({path})" for name, path in found)
    verb = "is" if len(found) == 1 else "are"
    return f"{asked} is declared nowhere in {repo_id}; {named} {verb}"
