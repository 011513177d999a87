"""The one repository-path normalisation every path-taking tool shares (access/repo_paths)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from query_api.access.repo_paths import path_in_repo, repo_relative
from query_api.errors import ToolInputError
from schemas.events import RepoRegistration


@pytest.fixture
def root(tmp_path: Path) -> str:
    repo = tmp_path / "ws" / "repo"
    (repo / "src" / "pkg").mkdir(parents=True)
    return str(repo)


@pytest.mark.parametrize(
    "spelling",
    [
        "src/pkg/app.py",
        "./src/pkg/app.py",
        "src\\pkg\\app.py",
        "src/pkg/../pkg/app.py",
        " src/pkg/app.py ",
        "src//pkg/./app.py",
    ],
)
def test_relative_spellings_name_the_same_file(root: str, spelling: str) -> None:
    assert repo_relative(spelling, root) == "src/pkg/app.py"


def test_an_absolute_path_inside_the_root_becomes_root_relative(root: str) -> None:
    assert repo_relative(f"{root}/src/pkg/app.py", root) == "src/pkg/app.py"
    assert repo_relative(f"{root}/src/../src/pkg", root) == "src/pkg"
    assert repo_relative(root, root) == ""
    assert repo_relative(root + "/", root) == ""
    assert repo_relative(".", root) == ""


def test_an_absolute_path_through_a_symlink_to_the_root_is_inside(root: str) -> None:
    alias = Path(root).parent / "alias"
    os.symlink(root, alias)
    assert repo_relative(f"{alias}/src/pkg/app.py", root) == "src/pkg/app.py"


@pytest.mark.parametrize(
    "escaping",
    ["../../etc/passwd", "..", "src/../../x", "src/pkg/../../../x", "\\..\\..\\etc\\passwd"],
)
def test_a_path_that_leaves_the_repository_is_refused(root: str, escaping: str) -> None:
    with pytest.raises(ToolInputError, match="leaves the repository") as caught:
        repo_relative(escaping, root, "path")
    assert str(caught.value).startswith("`path`:")


def test_an_absolute_path_outside_the_root_is_refused_naming_the_root(root: str) -> None:
    for outside in ("/etc/passwd", str(Path(root).parent), root + "-sibling/x.py"):
        with pytest.raises(ToolInputError, match="leaves the repository") as caught:
            repo_relative(outside, root, "paths")
        assert f"outside the indexed root {root}" in str(caught.value)
        assert str(caught.value).startswith("`paths`:")


@pytest.mark.parametrize("bad", ["", "   ", "src/\x00app.py", "a\nb"])
def test_empty_or_control_characters_are_refused(root: str, bad: str) -> None:
    with pytest.raises(ToolInputError, match="`path`"):
        repo_relative(bad, root)


def test_a_repository_without_a_root_takes_relative_paths_only() -> None:
    git = RepoRegistration(repo_id="shop", source="git", url="file:///x", registered_at=1.0)
    assert path_in_repo("./docs/../docs", git) == "docs"
    assert path_in_repo("/", git) == ""
    with pytest.raises(ToolInputError, match="no root on disk"):
        path_in_repo("/etc", git)
    with pytest.raises(ToolInputError, match="leaves the repository"):
        path_in_repo("shop/../..", git)


def test_a_workspace_registration_resolves_against_its_indexed_root(root: str) -> None:
    workspace = RepoRegistration(repo_id="repo", root=root, registered_at=1.0)
    assert path_in_repo(f"{root}/src/pkg", workspace) == "src/pkg"


def test_a_name_the_os_cannot_encode_is_judged_lexically(root: str) -> None:
    assert repo_relative(f"{root}/src/\ud800.py", root) == "src/\ud800.py"
    with pytest.raises(ToolInputError, match="leaves the repository"):
        repo_relative("/elsewhere/\ud800.py", root)


def test_a_file_uri_inside_the_root_becomes_root_relative(root: str) -> None:
    """QA on sindresorhus/ky: outline of `file:///.../ky/source/core/constants.ts` (the form
    MCP gives roots and resources) answered `exists: false` for `file:/.../constants.ts`."""
    assert repo_relative(f"file://{root}/src/pkg/app.py", root) == "src/pkg/app.py"
    assert repo_relative(f"FILE://localhost{root}/src/pkg/app.py", root) == "src/pkg/app.py"
    assert repo_relative(f"file://{root}/src/my%20pkg/a.py#L3", root) == "src/my pkg/a.py"
    assert repo_relative(f"file://{root}", root) == ""


@pytest.mark.parametrize(
    ("uri", "message"),
    [
        ("file:///etc/passwd", "leaves the repository"),
        ("file://{root}/../../etc/passwd", "leaves the repository"),
        ("file://{root}/%2E%2E/%2E%2E/etc/passwd", "leaves the repository"),
        ("file://{root}/src%00/a.py", "control character"),
        ("file://otherhost{root}/src/a.py", "another host"),
    ],
)
def test_a_file_uri_is_held_to_the_same_rules(root: str, uri: str, message: str) -> None:
    with pytest.raises(ToolInputError, match=message):
        repo_relative(uri.format(root=root), root)
