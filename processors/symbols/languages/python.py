"""Python: a file's module path is its declarations' prefix (`pkg/mod.py` -> `pkg.mod`),
relative imports name repository modules, and an import binds a module as often as a
declaration, so a call through one is not taken for a reference to it."""

from __future__ import annotations

from processors.symbols.languages.base import LanguageRules


def module_prefix(path: str) -> str:
    """Python's dotted module path from the file path (`pkg/mod.py` -> `pkg.mod`)."""
    parts = path.rsplit(".", 1)[0].split("/")
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(p for p in parts if p)


def import_name(fq: str, path: str, packages: set[str]) -> str:
    """A declaration's name as code imports it: `fq` (declared in `path`, keyed by the file's
    path) without the path's leading folders that are no package (`src` of
    src/flask/testing.py gives `flask.testing.FlaskClient`); `packages` holds the folders above
    `path` that have an `__init__.py`. Other languages' names are returned as they are."""
    if not path.endswith((".py", ".pyi")):
        return fq
    dirs = path.split("/")[:-1]
    keep = len(dirs)
    while keep > 0 and "/".join(dirs[:keep]) in packages:
        keep -= 1
    prefix = ".".join(dirs[:keep])
    if prefix and fq.startswith(prefix + "."):
        return fq[len(prefix) + 1 :]
    return fq


def resolve_relative(module: str, path: str) -> str:
    """A relative import as the repository module it names: in `pkg/sub/mod.py`, `.` is
    `pkg.sub`, `..x` is `pkg.x` (in `pkg/sub/__init__.py`, `.` is `pkg.sub` too). Beyond the
    repository root it stays relative (it names nothing we index)."""
    if not module.startswith("."):
        return module
    dots = len(module) - len(module.lstrip("."))
    parts = path.rsplit(".", 1)[0].split("/")[:-1]  # the file's package
    if dots - 1 > len(parts):
        return module
    base = parts[: len(parts) - (dots - 1)]
    rest = module[dots:]
    return ".".join([p for p in base if p] + ([rest] if rest else [])) or module


RULES = {
    "python": LanguageRules(
        module_prefix=module_prefix,
        resolve_module=resolve_relative,
        references_through_imports=False,
    )
}
