"""A Python module written as the path, and the indexed file it names.

related lists a Python file's imports as modules (`typer._click.core`), and an agent passes
one on to outline or related, or writes a module's path without `.py` (`typer/core`); on
fastapi/typer both answered "not indexed" with no note, which reads as a file the index left
out. The module is `a/b.py`, `a/b.pyi` or the package `a/b/__init__.py`, from the repository
root or below a folder that is no package (`src/`), as an import leaves it out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_INITS = ("__init__.py", "__init__.pyi")
_NAME = re.compile(r"[A-Za-z_]\w*")
_DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+")
_SLASHED = re.compile(r"[A-Za-z_]\w*(/[A-Za-z_]\w*)+")


def module_file_names(path: str) -> tuple[str, ...]:
    """The repo-relative file names a module written as `path` may have; none for a path
    that is no module name (`setup.py` is a file's, `a.b.js` no identifier's)."""
    if _NAME.fullmatch(path):  # a top-level module: `typer`
        return f"{path}.py", f"{path}.pyi", f"{path}/__init__.py"
    if _DOTTED.fullmatch(path):
        base = path.replace(".", "/")
    elif _SLASHED.fullmatch(path):
        base = path
    else:
        return ()
    return f"{base}.py", f"{base}.pyi", f"{base}/__init__.py"


def python_module_files(path: str, indexed: Iterable[str]) -> list[str]:
    """The indexed files of the module `path`: those at the repository root if any, else
    those below other folders, in path order."""
    names = module_file_names(path)
    if not names:
        return []
    if _NAME.fullmatch(path):  # a top-level one below `src/` at most: `main` is no x/main.py
        under_src = {f"src/{name}" for name in names}
        found = sorted(p for p in indexed if p in names or p in under_src)
    else:
        tails = tuple("/" + name for name in names)
        found = sorted(p for p in indexed if p in names or p.endswith(tails))
    at_root = [p for p in found if p in names]
    return at_root or found


def python_module_note(path: str, files: list[str], examples: int) -> str | None:
    """The note for a module written as `path` whose files are `files`, if any."""
    if not files:
        return None
    named = ", ".join(files[:examples])
    more = f" and {len(files) - examples} more" if len(files) > examples else ""
    verb = "name that file" if len(files) == 1 else "name one"
    return f"{path} is no file; as a Python module it is {named}{more}: {verb}"


def is_package_init(path: str) -> bool:
    """Whether `path` is a Python package's `__init__.py`."""
    return path.rpartition("/")[2] in _INITS
