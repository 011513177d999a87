"""The complexity gate: ruff's mccabe check (C90) at 20 with an exemption list that may only
shrink. It is empty, so no function may be exempted: not in pyproject.toml's per-file ignores,
not with a `noqa` on the function. `make lint` (ruff check) applies the gate itself."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ["schemas", "processors", "streams", "query_api", "repocontext", "tests"]
# the exemptions that may remain; add nothing here
EXEMPT: frozenset[str] = frozenset()


def _ruff() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        lint: dict[str, object] = tomllib.load(handle)["tool"]["ruff"]["lint"]
    return lint


def test_the_gate_is_on_at_20() -> None:
    lint = _ruff()
    assert "C90" in lint["select"]  # type: ignore[operator]
    assert lint["mccabe"] == {"max-complexity": 20}


def test_no_file_is_exempt_in_pyproject() -> None:
    ignores = _ruff().get("per-file-ignores", {})
    assert isinstance(ignores, dict)
    exempt = {path for path, codes in ignores.items() if any(c.startswith("C9") for c in codes)}
    assert exempt <= EXEMPT, f"new complexity exemptions: {sorted(exempt - EXEMPT)}"


def test_no_function_is_exempt_by_noqa() -> None:
    noqa = re.compile(r"#\s*noqa\b[^\n]*\bC9\d*|#\s*noqa\s*$", re.MULTILINE)
    found = [
        f"{path.relative_to(ROOT)}:{text[: m.start()].count(chr(10)) + 1}"
        for folder in FOLDERS
        for path in sorted((ROOT / folder).rglob("*.py"))
        if "corpus" not in path.parts
        for text in [path.read_text(encoding="utf-8", errors="replace")]
        for m in noqa.finditer(text)
    ]
    assert not found, f"complexity (or blanket) noqa: {found}"
