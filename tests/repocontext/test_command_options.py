"""Each command lists the options it reads, and only those (a QA pass found `status --help`
offering --repo-id, --embedder and --tool-profile, which status ignores)."""

from __future__ import annotations

import pytest

from repocontext.cli import main

SHARED = ("--repo-id", "--embedder", "--tool-profile")
EXPECTED = {
    ("serve",): SHARED,
    ("mcp",): SHARED,
    ("index",): ("--repo-id", "--embedder"),
    ("eval",): ("--repo-id", "--embedder"),
    ("status",): (),
    ("topics",): (),
    ("replay",): ("--embedder",),
    ("query",): ("--embedder", "--tool-profile"),
    ("git-source",): ("--repo-id",),
    ("memory", "export"): ("--repo-id",),
}


@pytest.mark.parametrize("command", sorted(EXPECTED))
def test_a_command_offers_the_options_it_reads(
    command: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main([*command, "--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    shown = {option for option in SHARED if option in text}
    assert shown == set(EXPECTED[command]), command


def test_an_option_a_command_does_not_read_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as done:
        main(["status", "--repo-id", "x"])
    assert done.value.code == 2
    assert "unrecognized arguments: --repo-id x" in capsys.readouterr().err
