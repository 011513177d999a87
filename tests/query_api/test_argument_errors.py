"""An unknown tool argument's error says what the caller meant, or what the tool takes
(query_api.server.mcp_server.describe_validation_error), so an agent that guessed a name from
a description gets it right on the next call."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

from query_api.server.mcp_server import describe_validation_error
from schemas import memory_tools as m
from schemas import tools as t


def error_of(tool: str, model: type[BaseModel], arguments: dict[str, Any]) -> str:
    try:
        model.model_validate(arguments)
    except ValidationError as exc:
        return describe_validation_error(tool, exc, model)
    raise AssertionError("the arguments were accepted")


def test_a_near_miss_names_the_argument_meant() -> None:
    text = error_of(
        "repocontext_remember",
        m.RememberArgs,
        {"repoId": "r", "topic": "gotchas", "links": {"about": ["repo/r/file/a.py"]}},
    )
    assert text == (
        "invalid arguments for repocontext_remember: `links`: unknown argument "
        "(did you mean `addLinks`?)"
    )


def test_an_unrelated_name_lists_what_the_tool_takes() -> None:
    text = error_of("repocontext_search", t.SearchArgs, {"query": "x", "limit": 3})
    assert text == (
        "invalid arguments for repocontext_search: `limit`: unknown argument "
        "(it takes repoId, query, k)"
    )


def test_a_tool_without_arguments_says_so() -> None:
    text = error_of("repocontext_health", t.NoArgs, {"repoId": "r"})
    assert (
        text
        == "invalid arguments for repocontext_health: `repoId`: unknown argument (it takes none)"
    )


def test_a_value_of_the_wrong_shape_says_the_shape_wanted_and_what_came() -> None:
    """QA on jinja: links written as a list of {target, relation} drew `addLinks`: "Input
    should be a valid dictionary", which says neither what the object holds nor what was
    wrong with the list."""
    links = [{"target": "repo/r/file/a.py", "relation": "about"}]
    text = error_of(
        "repocontext_remember", m.RememberArgs, {"repoId": "r", "topic": "t", "addLinks": links}
    )
    assert text == (
        "invalid arguments for repocontext_remember: `addLinks` must be an object, got an "
        "array: relation -> target keys (files, symbols, memory entries)"
    )
    text = error_of(
        "repocontext_remember",
        m.RememberArgs,
        {"repoId": "r", "topic": "t", "addLinks": {"about": "repo/r/file/a.py"}, "tags": "x"},
    )
    assert text == (
        "invalid arguments for repocontext_remember: `tags` must be an array, got a string; "
        "`addLinks.about` must be an array, got a string"
    )


def test_a_missing_argument_says_what_it_is() -> None:
    """QA on jinja: `changed` is described as "optionally scoped to a directory", and a call
    without `path` answered "`path`: Field required", not what the path is."""
    from schemas import symbols as sy

    text = error_of("repocontext_changed", sy.ChangedArgs, {"repoId": "jinja"})
    assert text == (
        "invalid arguments for repocontext_changed: `path` is required: the repository root, "
        "or a directory inside it to scope the answer"
    )
