"""A pasted error message (`[fd error]: The search pattern 'foo/bar' contains a path-separation
character ...`) ranks first the source file that writes the message: its words in a row, as a
string literal holds them, in at most a few files. QA on sharkdp/fd: main.rs, the one file
writing the message, came second below cli.rs, whose help text holds the same words apart;
BM25 weighs words, not their order, and the message is the most exact thing the query holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.pasted_message import message_queries
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

MESSAGE = (
    "The search pattern '{pattern}' contains a path-separation character "
    "and will not lead to any search results."
)
HELP = (
    "    /// the search pattern is matched against each path; a pattern that contains a\n"
    "    /// path separation character searches the full path, and the results of a search\n"
    "    /// pattern lead to any path whose character matches the search pattern\n"
)
FILES = {
    "src/main.rs": (
        "use anyhow::{Result, anyhow};\n\n"
        "fn ensure_ok(pattern: &str) -> Result<()> {\n"
        "    if pattern.contains('/') {\n"
        f'        return Err(anyhow!("{MESSAGE}"));\n'
        "    }\n"
        "    Ok(())\n"
        "}\n"
        + "".join(
            f"\nfn helper_{n}(value: u64) -> u64 {{\n    value * {n} + 1\n}}\n" for n in range(40)
        )
    ),
    "src/cli.rs": "pub struct Opts {\n" + HELP * 2 + "    pub pattern: String,\n}\n",
    # a test asserting the message: not where it is written
    "tests/tests.rs": (
        "#[test]\nfn test_pattern_with_separator() {\n"
        f'    let expected = "{MESSAGE}";\n'
        "    assert!(!expected.is_empty());\n}\n"
    ),
}
QUERY = (
    "[fd error]: The search pattern 'foo/bar' contains a path-separation character and will "
    "not lead to any search results."
)


async def test_a_pasted_error_message_ranks_the_file_writing_it_first(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": QUERY})
        paths = [h["entry"]["path"] for h in found["hits"]]
        assert paths[0] == "src/main.rs", found["hits"]
        # the same words, not pasted as an error, keep the ranking's order
        plain = QUERY.removeprefix("[fd error]: ")
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": plain})
        assert found["hits"][0]["entry"]["path"] == "src/cli.rs", found["hits"]


def test_the_queries_of_a_message_are_its_segments_after_an_error_marker() -> None:
    near, phrase, *_ = message_queries(QUERY)
    # a quoted path is a value formatted in ('{pattern}' in the source), never its words
    assert near.startswith('body_terms : NEAR("the search pattern" "contains a path')
    assert "foo" not in near
    spaced = "error: The search pattern 'foo bar' contains a path-separation character"
    with_quoted, without = message_queries(spaced)[:2]
    assert '"foo bar"' in with_quoted and '"foo bar"' not in without  # a value, quoted
    assert phrase.startswith('body_terms : "contains a path separation character')
    assert message_queries("fix the search pattern when it contains a path separator") == []
    traceback = (
        "Traceback (most recent call last):\n"
        '  File "app.py", line 3, in <module>\n'
        "ValueError: could not convert the given value to a float"
    )
    assert message_queries(traceback) == [
        'body_terms : "could not convert the given value to a float"',
        # without its first word: a subject formatted in unquoted (79f5689)
        'body_terms : "not convert the given value to a float"',
        # and without a few more: a subject after a prefix of its own (typestack/class-validator)
        'body_terms : "convert the given value to a float"',
        'body_terms : "the given value to a float"',
        'body_terms : "given value to a float"',
    ]
    # a quoted literal of the source and a value the source formats in
    based = message_queries("[fd error]: The '--base-directory' path 'foo' is not a directory.")
    assert based == [
        # its one-word value first: a message written once per value (14f99ac)
        'body_terms : NEAR("base directory" "foo" "is not a directory", 3)',
        'body_terms : NEAR("base directory" "is not a directory", 3)',
        'body_terms : "is not a directory"',
    ]
    # after the program's name, as CLIs print it; a path value left out
    assert (
        message_queries("fd: error: The '--base-directory' path '/tmp/x' is not a directory.")
        == based[1:]
    )
    argparse = "usage: prog [-h] --name NAME\nprog: error: the following arguments are required"
    assert message_queries(argparse) == [
        'body_terms : "the following arguments are required"',
        'body_terms : "following arguments are required"',
    ]
    # a change request's scope before a name holding `Error` is no message
    assert message_queries("logger: WithError: wrap logger.WithError for consistency") == []


async def test_a_message_is_found_by_its_segments_near_each_other(tmp_path: Path) -> None:
    """`The '--base-directory' path '{}' is not a directory.` has no run of five words; its
    segments are near each other in the one file writing it. `Malformed pattern in custom
    ignore file. {err}.` is followed by another library's error, no word of the source."""
    files = {
        "src/main.rs": (
            "fn set_dir(p: &str) -> Result<()> {\n"
            "    bail!(\"The '--base-directory' path '{}' is not a directory.\", p)\n}\n"
            + "".join(
                f"\nfn helper_{n}(value: u64) -> u64 {{\n    value * {n}\n}}\n" for n in range(30)
            )
        ),
        "src/walk.rs": (
            "fn ignore(err: Error) {\n"
            '    print_error(format!("Malformed pattern in custom ignore file. {err}."));\n}\n'
            + "".join(
                f"\nfn walk_{n}(value: u64) -> u64 {{\n    value + {n}\n}}\n" for n in range(30)
            )
        ),
        # the same words, not near each other
        "src/cli.rs": (
            "pub struct Opts {\n"
            + "    /// the base directory of a search: a path which is not a directory is refused\n"
            "    /// by fd at once, as a malformed pattern in a custom ignore file is reported\n"
            * 3
            + "    pub base_directory: String,\n}\n"
        ),
    }
    write_files(tmp_path / "ws" / "repo", files)
    async with memory_rig(tmp_path, index=True) as (_, s):
        for query, path in (
            ("[fd error]: The '--base-directory' path 'foo' is not a directory.", "src/main.rs"),
            (
                "[fd error]: Malformed pattern in custom ignore file. error parsing glob '[': "
                "unclosed character class",
                "src/walk.rs",
            ),
        ):
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            assert found["hits"][0]["entry"]["path"] == path, (query, found["hits"])


async def test_a_short_message_is_found_by_its_one_segment(tmp_path: Path) -> None:
    """Click's `Error: No such command 'foo'.` is written `No such command {name!r}.`: one
    segment of three words and a value, under MIN_RUN. QA on fastapi/typer ranked the file
    declaring `NoSuchOption` (`No such option`, the words again in its docstrings) first and
    the one writing the message sixth."""
    files = {
        "pkg/group.py": (
            "def resolve(ctx, name):\n"
            "    cmd = ctx.command.get_command(ctx, name)\n"
            "    if cmd is None:\n"
            '        ctx.fail(_("No such command {name!r}.").format(name=name))\n'
            "    return cmd\n"
            + "".join(f"\n\ndef helper_{n}(value):\n    return value * {n}\n" for n in range(30))
        ),
        "pkg/exceptions.py": (
            "class NoSuchOption(UsageError):\n"
            '    """Raised when there is no such option: the command has no option of\n'
            '    that name, such as a typo, so no command runs."""\n\n'
            "    def format_message(self):\n"
            '        return f"No such option: {self.option_name}"\n'
        ),
    }
    write_files(tmp_path / "ws" / "repo", files)
    query = "Error: No such command 'foo'."
    assert message_queries(query) == ['body_terms : "no such command"']
    assert message_queries("Error: 'foo'") == []
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        assert found["hits"][0]["entry"]["path"] == "pkg/group.py", found["hits"]
