"""A worker's death names the likely cause when the main module is the caller's own script:
spawned workers import it again, and one that opens repocontext at its top level opens it in
every worker, each dying on the data directory's lock (QA on spf13/afero: the service said
only "step structural has failed 76 times in a row (BrokenProcessPool)")."""

from __future__ import annotations

import sys
import types

import pytest

from streams.runtime.pool import spawn_hint


def _main(monkeypatch: pytest.MonkeyPatch, **attrs: object) -> None:
    module = types.ModuleType("__main__")
    for name, value in attrs.items():
        setattr(module, name, value)
    monkeypatch.setitem(sys.modules, "__main__", module)


def test_a_script_of_the_callers_own_is_named_with_the_guard(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _main(monkeypatch, __file__="/work/drive_index.py")
    hint = spawn_hint()
    assert "drive_index.py" in hint and 'if __name__ == "__main__":' in hint


def test_no_hint_for_our_own_entry_point_or_an_interactive_main(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _main(monkeypatch, __file__="/venv/lib/repocontext/__main__.py", __package__="repocontext")
    assert spawn_hint() == ""
    _main(monkeypatch)  # `python -c`, a REPL: no file to import again
    assert spawn_hint() == ""
    from repocontext.cli import main  # the console script's wrapper imports it so

    _main(monkeypatch, __file__="/venv/bin/repocontext", main=main)
    assert spawn_hint() == ""
