"""Where a command keeps its data when none is named (query_api/settings.default_data_dir)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from query_api.settings import cache_base, default_data_dir


def test_one_data_directory_per_workspace_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    base = tmp_path / "cache" / "repocontext"
    assert cache_base() == base
    click, chi = default_data_dir(Path("/w/click")), default_data_dir(Path("/w/chi"))
    assert click != chi and click.parent == chi.parent == base / "workspaces"
    assert click.name.startswith("click-") and default_data_dir(Path("/w/click")) == click
    assert default_data_dir(Path("/other/click")) != click  # same name, another project
    assert default_data_dir(None) == base


def test_an_earlier_versions_data_directory_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its memory lives there: a per-root directory would start without it."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    (tmp_path / "repocontext").mkdir()
    (tmp_path / "repocontext" / "log.db").write_bytes(b"")
    assert default_data_dir(Path("/w/click")) == tmp_path / "repocontext"


def test_without_a_home_it_is_never_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A QA pass: `./.repocontext` put the index's own files in the repository it indexed."""
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "missing"))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.chdir(tmp_path)
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # re-read TMPDIR
    base = cache_base()
    assert base == tmp_path / "tmp" / f"repocontext-{os.getuid()}"
    assert not base.is_relative_to(Path.cwd() / ".repocontext")
