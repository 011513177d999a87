"""A Rust path written as outline's or related's `path`, as an agent copies it from code or
from related's `imports` (`crate::filter::TimeFilter`, `TimeFilter::from_str`,
`crate::filter::time`, `lscolors::LsColors`): which declaration or module file it names.
On sharkdp/fd each of these answered "... is not indexed" with no note, as for a typo.

The path is read by names, not resolved as the compiler would (rust_modules does that for
dependents, from a file that writes it): a module is the file its segments end
(`filter/time.rs`, `filter/time/mod.rs`; not the file declaring `mod time;`), else the
declaration is the longest tail of the path a file declares (a last name alone only in a
file under a module the path names, since `new` or `run` is declared everywhere)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from processors.symbols.languages.rust import ANCHORS


def rust_segments(path: str) -> list[str] | None:
    """The names of a Rust path (`crate::a::B` -> a, B), without its anchors; None for a path
    that is no Rust path (no `::`, or a file's path with a declaration after it)."""
    if "::" not in path or "/" in path:
        return None
    segments = [s.removeprefix("r#") for s in path.split("::") if s]
    names = [s for s in segments if s not in ANCHORS]
    return names if names and all(s.isidentifier() for s in names) else None


def module_names(file: str) -> frozenset[str]:
    """The module names a file's path holds: its folders and its stem (`mod.rs` none)."""
    *folders, name = file.split("/")
    stem = name.removesuffix(".rs")
    return frozenset([*folders, stem] if stem != "mod" else folders)


def declaring_files(
    segments: list[str], declared_in: Callable[[str], list[str]]
) -> tuple[str, list[str]] | None:
    """(the name, the files declaring it) for the longest tail of `segments` some file
    declares (`declared_in` of a dotted name); a last name alone counts only in files under
    a module the path names."""
    for start in range(len(segments)):
        name = ".".join(segments[start:])
        files = declared_in(name)
        if start and start == len(segments) - 1:
            above = set(segments[:start])
            files = [f for f in files if above & module_names(f)]
        if files:
            return name, files
    return None


def module_files(segments: list[str], indexed: Iterable[str]) -> list[str]:
    """The files of the module the path names: `a/b.rs` or `a/b/mod.rs` for `a::b`, its
    longest tail first; none when the path's last segment is no module's."""
    rust = {p for p in indexed if p.endswith(".rs")}
    for start in range(len(segments)):
        tail = "/".join(segments[start:])
        found = sorted(p for p in rust if p.endswith((f"/{tail}.rs", f"/{tail}/mod.rs")))
        found += [p for p in (f"{tail}.rs", f"{tail}/mod.rs") if p in rust]
        if found:
            return found
    return []


def outside_note(
    path: str, segments: list[str], indexed: Iterable[str], repo_id: str
) -> str | None:
    """A path whose first name is no module of the repository and that has no anchor
    (`std::path::Path`, `lscolors::LsColors`, as related lists another crate's imports)."""
    if path.lstrip(":").split("::", 1)[0] in ANCHORS:
        return None
    first = segments[0]
    if any(first in module_names(p) for p in indexed if p.endswith(".rs")):
        return None
    return (
        f"{path} names nothing in {repo_id}: `{first}` is none of its modules (a dependency's "
        "or the standard library's path)"
    )
