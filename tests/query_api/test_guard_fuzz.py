"""Generated hostile paths never escape the workspace root (spec §4.5)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from query_api.access.guard import WorkspaceGuard
from query_api.errors import GuardError

SEGMENTS = [
    "..",
    ".",
    "",
    "repo",
    "src",
    "out-link",
    "in-link",
    "chain-1",
    "loop",
    "ws-other",
    "ws",
    "a\x00b",
    "new\nline",
    "..\\..",
    "%2e%2e",
    "repo/../..",
    "…",
    "ü",
    " ",
]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("guard")
    root = base / "ws"
    (root / "repo" / "src").mkdir(parents=True)
    (base / "ws-other").mkdir()
    (base / "outside").mkdir()
    os.symlink(base / "outside", root / "out-link")
    os.symlink(root / "repo", root / "in-link")
    os.symlink(root / "chain-2", root / "chain-1")  # a chain that ends outside
    os.symlink(base / "outside", root / "chain-2")
    os.symlink(root / "loop", root / "loop")  # a cycle
    os.symlink("../../outside", root / "repo" / "rel-out")  # relative target
    return root, base


paths = st.tuples(
    st.sampled_from(["", "/", "../", "./", "{root}/", "{base}/", "{root}"]),
    st.lists(st.sampled_from([*SEGMENTS, "rel-out"]), min_size=0, max_size=6),
    st.sampled_from(["", "/", "/."]),
)


@pytest.mark.slow  # 1500 generated paths against the real filesystem
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(parts=paths)
def test_no_generated_path_escapes(workspace: tuple[Path, Path], parts: tuple) -> None:  # type: ignore[type-arg]
    root, base = workspace
    prefix, segments, suffix = parts
    raw = prefix.format(root=root, base=base) + "/".join(segments) + suffix
    guard = WorkspaceGuard(root)
    try:
        resolved = guard.resolve(raw)
    except GuardError:
        return
    real = os.path.realpath(resolved)
    real_root = os.path.realpath(root)
    assert real == real_root or real.startswith(real_root + os.sep), (raw, real)


def test_a_link_out_of_the_root_is_refused_without_naming_its_target(
    workspace: tuple[Path, Path],
) -> None:
    """A QA pass: a reader asking `changed` about `etclink/shadow` was told the link led to
    /etc/shadow; the refusal names the path asked and the root, not where the link points."""
    root, base = workspace
    for raw in ("out-link", "out-link/x", "chain-1", "repo/rel-out"):
        with pytest.raises(GuardError) as refused:
            WorkspaceGuard(root).resolve(raw)
        message = str(refused.value)
        assert "symbolic link" in message and str(base / "outside") not in message, message
