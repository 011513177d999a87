"""jedi's file-level imports and dependents of Python files: run with jedi on PYTHONPATH
(installed under the benchmark's cache), `python jedi_xrefs.py ROOT < paths`; prints one JSON
line per file: {"path", "imports": [repo files], "dependents": [repo files]}.

imports: each import statement's module, resolved by jedi (`goto` on the module's last name,
following imports to the module file); `from pkg import sub` adds `sub` when it is a module.
dependents (of files that are not tests): the files other than this one where jedi finds a
reference to one of its top-level classes, functions or variables (`get_references`,
project scope).
"""

from __future__ import annotations

import ast
import json
import sys
import sysconfig
from pathlib import Path

import jedi  # type: ignore[import-not-found]  # installed under the cache, not in .venv


def _in_repo(root: Path, path: Path | None) -> str | None:
    if path is None:
        return None
    try:
        return path.resolve().relative_to(root).as_posix()
    except ValueError:
        return None


def _name_positions(
    node: ast.Import | ast.ImportFrom, source_lines: list[str]
) -> list[tuple[int, int]]:
    """(line, column) of each name a module-level import statement names as a module."""
    out = []
    line = source_lines[node.lineno - 1] if node.lineno <= len(source_lines) else ""
    if isinstance(node, ast.Import):
        for alias in node.names:
            last = alias.name.split(".")[-1]
            col = line.find(last, node.col_offset)
            if col >= 0:
                out.append((node.lineno, col))
    elif isinstance(node, ast.ImportFrom):
        module = node.module or ""
        if module:
            last = module.split(".")[-1]
            col = line.find(last, node.col_offset)
            if col >= 0:
                out.append((node.lineno, col))
        for alias in node.names:  # `from pkg import sub`: sub may be a module
            if alias.name == "*":
                continue
            col = line.find(alias.name, node.col_offset + 5)
            if col >= 0:
                out.append((node.lineno, col))
    return out


def _declarations(tree: ast.Module) -> list[tuple[int, int]]:
    """(line, column) of each top-level class, function and simply named variable."""
    out = []
    for stmt in tree.body:
        if isinstance(stmt, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            keyword = "class " if isinstance(stmt, ast.ClassDef) else "def "
            if isinstance(stmt, ast.AsyncFunctionDef):
                keyword = "async def "
            out.append((stmt.lineno, stmt.col_offset + len(keyword)))
        elif isinstance(stmt, ast.Assign | ast.AnnAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                if isinstance(target, ast.Name) and not target.id.startswith("__"):
                    out.append((target.lineno, target.col_offset))
    return out


def _library(path: str) -> bool:
    """Not a test (nothing depends on a test; xrefs.py compares no test's dependents)."""
    name = path.rsplit("/", 1)[-1]
    return "/tests/" not in f"/{path}" and not name.startswith("test_")


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    # the repository's own packages (a src layout's by their names, `click`, as installed) and
    # the standard library; not this interpreter's site-packages, where an installed copy of
    # the same package would answer instead of the repository's files
    paths = sysconfig.get_paths()
    stdlib = [paths["stdlib"], paths["platstdlib"], str(Path(paths["stdlib"]) / "lib-dynload")]
    src = [str(root / "src")] if (root / "src").is_dir() else []
    project = jedi.Project(root, sys_path=[*src, str(root), *stdlib], smart_sys_path=False)
    for raw in sys.stdin.read().split():
        full = root / raw
        source = full.read_text(encoding="utf-8", errors="replace")
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        script = jedi.Script(source, path=full, project=project)
        lines = source.splitlines()
        imports: set[str] = set()
        for stmt in ast.walk(tree):
            if not isinstance(stmt, ast.Import | ast.ImportFrom):
                continue
            for line, col in _name_positions(stmt, lines):
                for found in script.goto(line, col, follow_imports=True):
                    if found.type == "module":
                        target = _in_repo(root, found.module_path)
                        if target and target != raw:
                            imports.add(target)
        dependents: set[str] = set()
        for line, col in _declarations(tree) if _library(raw) else []:
            for ref in script.get_references(line, col, scope="project"):
                where = _in_repo(root, ref.module_path)
                if where and where != raw:
                    dependents.add(where)
        print(
            json.dumps({"path": raw, "imports": sorted(imports), "dependents": sorted(dependents)})
        )
        sys.stdout.flush()


if __name__ == "__main__":
    main()
