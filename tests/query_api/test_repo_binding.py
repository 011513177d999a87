"""The add_repo binding rule (query_api/access/repo_binding.py) over every overlap shape."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.access.auth import LEVELS, LOCAL_USER, Principal
from query_api.access.repo_binding import check_binding
from query_api.errors import AccessDenied, ConflictError

WS = Path("/ws")
BOUND = {"alpha": WS / "alpha", "beta": WS / "beta"}
ALPHA_ADMIN = Principal("a", {"alpha": LEVELS["admin"]})
GHOST_ADMIN = Principal("g", {"ghost": LEVELS["admin"]})


def test_an_existing_id_is_never_re_pointed_by_a_tool() -> None:
    with pytest.raises(ConflictError, match="remove it first"):
        check_binding(ALPHA_ADMIN, "alpha", WS / "beta", BOUND)
    with pytest.raises(ConflictError, match="remove it first"):
        check_binding(LOCAL_USER, "alpha", WS / "elsewhere", BOUND)
    check_binding(ALPHA_ADMIN, "alpha", WS / "alpha", BOUND)  # re-adding in place: a re-walk
    check_binding(LOCAL_USER, "alpha", WS / "elsewhere", BOUND, repoint=True)  # the operator


@pytest.mark.parametrize("root", [WS / "beta", WS / "beta" / "src", WS, Path("/")], ids=str)
def test_a_directory_overlapping_an_unreadable_repository_is_refused(root: Path) -> None:
    with pytest.raises(AccessDenied, match="backs a repository you may not read") as refused:
        check_binding(GHOST_ADMIN, "ghost", root, BOUND)
    assert "beta" not in str(refused.value).replace(str(root), "")


def test_readable_overlaps_and_fresh_directories_are_allowed() -> None:
    check_binding(GHOST_ADMIN, "ghost", WS / "ghost", BOUND)
    check_binding(GHOST_ADMIN, "ghost", WS / "betamax", BOUND)  # a prefix is not a parent
    reader = Principal("r", {"ghost": LEVELS["admin"], "*": LEVELS["read"]})
    check_binding(reader, "ghost", WS / "beta", BOUND)  # it may read beta anyway


def test_admin_is_needed_on_the_id_actually_bound() -> None:
    with pytest.raises(AccessDenied, match="'admin' grant on repository 'beta'"):
        check_binding(GHOST_ADMIN, "beta", WS / "ghost", BOUND)
