"""`where is the render module`: a definition query for a module by its kind.

A Rust module is declared by `mod render;` in its parent's file and kept in a file of its own
(render.rs or render/mod.rs beside the parent module's), so both are what is asked: QA on
eza-community/eza, `where is the render module declared` matched no definition form and ranked
main.rs (`r.render(...)`) first, with neither src/output/mod.rs (`pub mod render;`) nor
src/output/render/mod.rs among the first three. A module of another language is a file, so
its file by name answers (defining_files.named_source_files).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import PurePosixPath

from streams.stores.views.symbols import SymbolRow, indexed_paths

MODULE_KIND = "Namespace"  # a Rust `mod x;` or `mod x { }`, a TS/C++ namespace
_PARENT_FILES = frozenset({"mod.rs", "lib.rs", "main.rs"})  # a module whose folder is its own


def asks_module(kinds: Iterable[str]) -> bool:
    """Whether the kinds a definition query asks for are a module's alone."""
    return set(kinds) == {MODULE_KIND}


def rust_module_files(
    conn: sqlite3.Connection, repo_id: str, declarations: Iterable[SymbolRow]
) -> set[str]:
    """The files keeping the Rust modules `declarations` declare without a body (`mod x;`):
    x.rs or x/mod.rs in the declaring module's folder (src/output/ for src/output/mod.rs,
    src/fs/ for src/fs.rs)."""
    candidates: list[str] = []
    for row in declarations:
        path = PurePosixPath(row.path)
        if row.kind != MODULE_KIND or path.suffix != ".rs" or row.start_line != row.end_line:
            continue
        folder = path.parent if path.name in _PARENT_FILES else path.parent / path.stem
        candidates += [str(folder / f"{row.name}.rs"), str(folder / row.name / "mod.rs")]
    return indexed_paths(conn, repo_id, candidates) if candidates else set()
