"""`show me all implementations of fmt::Display`, `give me the callers of X`: a users query
asked of the tool in the imperative with `me`. QA on console-rs/indicatif: the first matched no
users form (`show me all` was not read) and ranked iter.rs's `with_message` third among
files holding `display` words, though `what implements fmt::Display` placed format.rs and
style.rs."""

from __future__ import annotations

import pytest

from query_api.retrieval.users_first import used_name


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("show me all implementations of fmt::Display", "fmt::Display"),
        ("show me the callers of ProgressBar::inc", "ProgressBar::inc"),
        ("give me all usages of set_message", "set_message"),
        ("show all callers of tick", "tick"),
    ],
)
def test_an_imperative_with_me_is_a_users_query(query: str, name: str) -> None:
    assert used_name(query) == name
