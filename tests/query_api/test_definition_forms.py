"""`which file defines the Opts struct`, `which module declares the ExitCode enum`, `show me
the definition of X` ask where a name is defined as `where is the Opts struct defined` does.
QA on sharkdp/fd: `which file defines the Opts struct` was no definition query (the kind was
read only before the name), and ranked main.rs, which builds a Config from opts, above
cli.rs, which declares `pub struct Opts`."""

from __future__ import annotations

from query_api.retrieval.definition_sites import defined_name
from query_api.retrieval.form_words import keyword_text


def test_a_kind_after_the_name_and_other_wordings_ask_for_a_definition() -> None:
    assert defined_name("which file defines the Opts struct") == "Opts"
    assert defined_name("which module declares the ExitCode enum?") == "ExitCode"
    assert defined_name("show me the definition of TimeFilter::from_str") == "TimeFilter::from_str"
    assert defined_name("the definition of the Opts struct") == "Opts"
    # as before
    assert defined_name("which file defines Opts") == "Opts"
    assert defined_name("where is the Opts struct defined") == "Opts"
    assert defined_name("which struct holds the options") is None


def test_a_symbol_is_a_kind_of_declaration() -> None:
    """QA on pmndrs/jotai: `where is RESET symbol defined` was no definition query (`symbol`
    was read as a word to search), and ranked atomWithDefault.ts (its `Symbol()`) above
    constants.ts, declaring `export const RESET: unique symbol`."""
    assert defined_name("where is RESET symbol defined") == "RESET"
    assert defined_name("where is the RESET symbol declared?") == "RESET"
    assert defined_name("where is the symbol table defined") is None
    assert keyword_text("where is RESET symbol defined").split() == ["where", "is", "RESET"]
