"""`repocontext eval --help` says what a run costs by default (a QA pass found only "1..500"
and "1..600", so a user could not tell that a plain run scores up to 200 cases for up to
five minutes)."""

from __future__ import annotations

import pytest

from repocontext.cli import main


def test_eval_help_names_the_defaults_of_its_bounds(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["eval", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "1..500, default 200" in text and "1..600, default 300" in text, text
