"""The workspace guard (spec §4.5)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from query_api.access.guard import WorkspaceGuard
from query_api.errors import GuardError


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "ws"
    (root / "repo" / "src").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (tmp_path / "ws-other").mkdir()
    os.symlink(outside, root / "escape")
    os.symlink(root / "repo", root / "inner-link")
    return root, outside


def test_root_itself_and_children_admitted(layout: tuple[Path, Path]) -> None:
    root, _ = layout
    guard = WorkspaceGuard(root)
    assert guard.resolve(str(root)) == root.resolve()
    assert guard.resolve(str(root / "repo")) == (root / "repo").resolve()
    assert guard.resolve("repo/src") == (root / "repo" / "src").resolve()


@pytest.mark.parametrize(
    "request_path",
    ["../outside", "repo/../../outside", "/etc", "/", "escape", "escape/x", "../ws-other"],
)
def test_escapes_refused(layout: tuple[Path, Path], request_path: str) -> None:
    root, _ = layout
    with pytest.raises(GuardError):
        WorkspaceGuard(root).resolve(request_path)


def test_prefix_sibling_refused(layout: tuple[Path, Path], tmp_path: Path) -> None:
    root, _ = layout
    with pytest.raises(GuardError, match="outside"):
        WorkspaceGuard(root).resolve(str(tmp_path / "ws-other"))


def test_symlink_inside_root_admitted(layout: tuple[Path, Path]) -> None:
    root, _ = layout
    assert WorkspaceGuard(root).resolve("inner-link") == (root / "repo").resolve()


@pytest.mark.parametrize("bad", ["", "   ", "repo\x00x", "repo\nx", "x" * 5000])
def test_malformed_requests_rejected(layout: tuple[Path, Path], bad: str) -> None:
    root, _ = layout
    with pytest.raises(GuardError):
        WorkspaceGuard(root).resolve(bad)


@pytest.mark.parametrize("root", [None, "", "   "])
def test_no_root_refuses_everything(root: str | None, tmp_path: Path) -> None:
    guard = WorkspaceGuard(root)
    assert not guard.enforcing
    with pytest.raises(GuardError, match="no workspace root"):
        guard.resolve(str(tmp_path))


def test_lexical_dotdot_through_symlink_is_normalised_first(layout: tuple[Path, Path]) -> None:
    root, _ = layout
    # `escape/..` is lexically the root itself, so it is admitted (normalise, then resolve).
    assert WorkspaceGuard(root).resolve("escape/..") == root.resolve()
