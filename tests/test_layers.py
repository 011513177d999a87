"""The layer rule: schemas <- processors <- streams <- query_api <- repocontext, and processors
stay pure. `repocontext` is the composition root (the CLI and its process commands): it may
import every layer, and no layer imports it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ["schemas", "processors", "streams", "query_api", "repocontext"]
IMPURE = {
    "asyncio",
    "sqlite3",
    "socket",
    "subprocess",
    "threading",
    "faust",
    "aiokafka",
    "qdrant_client",
    "qdrant_edge",
    "httpx",
    "watchfiles",
    "uvicorn",
    "starlette",
    "mcp",
}


def imports_of(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


def sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("index", range(len(LAYERS)))
def test_no_layer_imports_a_later_layer(index: int) -> None:
    package, later = LAYERS[index], set(LAYERS[index + 1 :])
    bad = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in sources(package)
        for line, name in imports_of(path)
        if name.split(".")[0] in later
    ]
    assert not bad, "layer rule broken:\n" + "\n".join(bad)


def test_processors_are_pure() -> None:
    bad = []
    for path in sources("processors"):
        for line, name in imports_of(path):
            if name.split(".")[0] in IMPURE:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
        text = path.read_text(encoding="utf-8")
        for needle in ("os.environ", "os.getenv", "open("):
            if needle in text:
                bad.append(f"{path.relative_to(ROOT)} uses {needle}")
    assert not bad, "processors must be pure:\n" + "\n".join(bad)


def test_only_settings_reads_the_environment() -> None:
    readers = [
        str(path.relative_to(ROOT))
        for package in LAYERS
        for path in sources(package)
        if "os.environ" in path.read_text(encoding="utf-8")
        or "os.getenv" in path.read_text(encoding="utf-8")
    ]
    assert readers == ["query_api/settings.py"], readers


def test_each_package_has_a_short_readme() -> None:
    for package in LAYERS:
        readme = ROOT / package / "README.md"
        assert readme.is_file(), f"{package} has no README.md"
        assert 3 <= len(readme.read_text(encoding="utf-8").strip().splitlines()) <= 8
