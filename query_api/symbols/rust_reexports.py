"""What a Rust crate root declaring only modules hands on: its `pub use` re-exports, by file.

A crate's lib.rs often declares nothing but its modules (`mod format;`) and re-exports the
names its API is from them (`pub use crate::format::{HumanBytes, HumanDuration};`). Its
outline listed the `mod` lines and the tests: QA on console-rs/indicatif, `outline src/lib.rs`
said nothing of the seventeen names the crate exports. The outline's note names them, each
with the file declaring its module (`crate::format` -> src/format.rs, beside the root), so
the agent outlines those files.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from query_api.symbols.rust_paths import module_files, rust_segments
from query_api.symbols.rust_tests import unit_tests
from streams.stores.views.symbols import SymbolRow

MODULE_KIND = "Namespace"  # a `mod x;` declaration
MAX_NAMES = 8  # names a note lists per file; the others are counted
# `pub use a::b::C;`, `pub(crate) use a::{B, C as D};` over lines
_PUB_USE = re.compile(r"^\s*pub(?:\([^)]*\))?\s+use\s+([^;]+);", re.MULTILINE)


def modules_only(declared: Sequence[SymbolRow]) -> bool:
    """Whether a Rust file declares nothing but modules, besides its unit tests."""
    tests = unit_tests(declared)
    code = [s for s, test in zip(declared, tests, strict=True) if not test]
    return bool(code) and all(s.kind == MODULE_KIND for s in code)


def reexports(body: str) -> list[tuple[str, str]]:
    """(the module path, the name handed on) of each name a file's `pub use` lines re-export,
    an alias as the name (`MultiProgress as Multi`: Multi), a glob as `*`."""
    out: list[tuple[str, str]] = []
    for found in _PUB_USE.finditer(body):
        written = " ".join(found.group(1).split())
        head, brace, listed = written.partition("::{")
        module, _, last = written.rpartition("::")
        items = [i.strip() for i in listed.rstrip("} ").split(",")] if brace else [last]
        module = head.strip() if brace else module
        for item in items:
            if not item or "{" in item or "}" in item:  # nested lists: left out
                continue
            named, _, alias = item.partition(" as ")
            sub, _, name = named.strip().rpartition("::")
            shown = (alias or name).strip()
            if shown and shown != "self":
                out.append(("::".join(p for p in (module, sub) if p), shown))
    return out


def reexports_note(path: str, body: str, indexed: Iterable[str]) -> str | None:
    """What the outline of a crate root declaring only modules says: the names its `pub
    use` lines re-export, by the file of their module beside it; None when it has none."""
    found = reexports(body)
    if not found:
        return None
    root = path.rpartition("/")[0]
    near = [p for p in indexed if not root or p.startswith(root + "/")]
    by_file: dict[str, list[str]] = {}
    for module, name in found:
        segments = rust_segments(module) if "::" in module else [module]
        files = module_files(segments, near) if segments else []
        by_file.setdefault(files[0] if files else module, []).append(name)
    listed = "; ".join(
        f"{file} ({', '.join(names[:MAX_NAMES])}"
        + (f" and {len(names) - MAX_NAMES} more" if len(names) > MAX_NAMES else "")
        + ")"
        for file, names in by_file.items()
    )
    return (
        f"{path} declares only modules; it re-exports {len(found)} names: {listed}: outline those"
    )
