"""Where a Rust function declared without `pub` can be used: its own module and the modules
below it. QA on seanmonstar/warp: `what calls path_and_query` (a private `fn
path_and_query(route: &Route)` in src/filters/path.rs) marked tests/path.rs, another crate,
`uses:path_and_query` for `request.uri().path_and_query()`, the http crate's method."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

from streams.stores.views.symbols import SymbolRow

_CALLED = frozenset({"Function", "Method"})
_PUB = re.compile(r"(?:^|\s)pub\b")  # before `fn`: `pub fn`, `pub(crate) fn`
_MODULE_FILES = frozenset({"mod.rs", "lib.rs", "main.rs"})  # a folder's own module


def is_private_fn(row: SymbolRow) -> bool:
    """Whether `row` is a Rust function or method declared without `pub`."""
    if not row.path.endswith(".rs") or row.kind not in _CALLED or "fn " not in row.signature:
        return False
    return _PUB.search(row.signature.partition("fn ")[0]) is None


def module_folder(path: str) -> str:
    """The folder of the modules below the module of the file `path`: src/filters/ for
    src/filters/mod.rs, src/filters/path/ for src/filters/path.rs."""
    folder, name = posixpath.split(path)
    if name in _MODULE_FILES:
        return f"{folder}/" if folder else ""
    return path.removesuffix(".rs") + "/"


def seen_in(declared: Sequence[SymbolRow]) -> tuple[set[str], set[str]] | None:
    """The files and folders that can see `declared` when each of them is a private Rust
    function (their own files, the folders of the modules below them), else None."""
    if not declared or not all(is_private_fn(row) for row in declared):
        return None
    own = {row.path for row in declared}
    return own, {module_folder(path) for path in own}
