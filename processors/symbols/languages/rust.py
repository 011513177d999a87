"""Rust: a `use` tree names declarations by path, one import per leaf, and the module tree
is laid out in files, so a path resolves to a file by the module rules below.

Extraction (pure, per file): `use crate::{a::X, b::{self, Y as Z}, c::*}` is the imports
`crate.a.X`, `crate.b`, `crate.b.Y` and `crate.c.*`, binding the local names `X`, `b` and
`Z` (use_leaves). A `use` inside an inline `mod tests { ... }` is written relative to that
module: its leading `super`/`self` are rewritten relative to the file, so `use super::*`
there is the file itself (`self.*`), not the file's parent module.

Resolution (module_dir, child_candidates, parent_candidates): where a module's children
live and which files a child or parent module may be; what a Cargo.toml says (parsed_manifest,
declared_roots, declared_library, manifest_path). The query side
(query_api/symbols/rust_modules.py) asks the views which of the candidates exist and where
the crate roots are (Cargo.toml, lib.rs/main.rs).
"""

from __future__ import annotations

import functools
import posixpath
import re
import tomllib
from typing import Any

from tree_sitter import Node

from processors.symbols.languages.base import LanguageRules

_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_TOKEN = re.compile(r"::|[{},*]|(?:r#)?\w+")
ANCHORS = frozenset({"crate", "self", "super"})
CRATE_ROOT_NAMES = ("lib.rs", "main.rs")
_MOD_FILE = "mod.rs"
ALIAS_MARK = " as "  # in an import entry: the path, then the name it is bound to


# Cargo.toml: where a package's crates and its path dependencies are
DEPENDENCY_TABLES = ("dependencies", "dev-dependencies", "build-dependencies")


@functools.lru_cache(maxsize=256)
def parsed_manifest(text: str) -> dict[str, Any] | None:
    """A Cargo.toml's tables, parsed once per text (each answer reads the manifests again;
    they seldom change). Read only."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None


def manifest_path(folder: str, relative: str) -> str:
    """A manifest's relative path as a repository path: `clap_complete/..` is the root,
    "", not `.`."""
    joined = posixpath.normpath(posixpath.join(folder, relative))
    return "" if joined == "." else joined


def declared_roots(manifest: dict[str, Any], package: str) -> list[str]:
    """The crate roots a package's Cargo.toml names by path: `[lib]`, `[[bin]]`, `[[test]]`,
    ..."""
    targets: list[Any] = [manifest.get("lib") or {}]
    for kind in ("bin", "test", "example", "bench"):
        targets += manifest.get(kind) or []
    paths = [t.get("path") for t in targets if isinstance(t, dict)]
    return [manifest_path(package, p) for p in paths if isinstance(p, str)]


def declared_library(manifest: dict[str, Any], package: str) -> str | None:
    """The library root `[lib] path` names, or None (then `src/lib.rs`, if it exists)."""
    lib = manifest.get("lib")
    declared = lib.get("path") if isinstance(lib, dict) else None
    return manifest_path(package, declared) if isinstance(declared, str) else None


def use_leaves(text: str) -> list[tuple[str, str]]:
    """Each leaf of a use tree as (dotted path, the local name it binds; "" for a glob or
    `as _`). `self` in a list is the list's module (`b::{self}` is `b`)."""
    tokens = [t.removeprefix("r#") for t in _TOKEN.findall(_COMMENT.sub(" ", text))]
    out: list[tuple[str, str]] = []
    _subtree(tokens, 0, [], out)
    return out


def _subtree(tokens: list[str], i: int, prefix: list[str], out: list[tuple[str, str]]) -> int:
    """Reads one use tree from tokens[i] under `prefix`; returns where it ends."""
    path = list(prefix)
    while i < len(tokens):
        token = tokens[i]
        if token == "::":
            i += 1
        elif token == "{":
            i += 1
            while i < len(tokens) and tokens[i] != "}":
                i = i + 1 if tokens[i] == "," else _subtree(tokens, i, path, out)
            return i + 1
        elif token == "*":
            out.append((".".join([*path, "*"]), ""))
            return i + 1
        elif token == "as":
            alias = tokens[i + 1] if i + 1 < len(tokens) else ""
            _leaf(path, alias, out)
            return i + 2
        elif token in {",", "}"}:
            break
        else:
            path.append(token)
            i += 1
    _leaf(path, None, out)
    return i


def _leaf(path: list[str], alias: str | None, out: list[tuple[str, str]]) -> None:
    if path and path[-1] == "self" and len(path) > 1:
        path = path[:-1]
    if not path:
        return
    local = path[-1] if alias is None else alias
    out.append((".".join(path), "" if local in ANCHORS or local == "_" else local))


def inline_modules(node: Node) -> list[str]:
    """The names of the inline modules (`mod tests { ... }`) around a node, outermost first."""
    names: list[str] = []
    parent = node.parent
    while parent is not None:
        if parent.type == "mod_item":
            name = parent.child_by_field_name("name")
            if name is not None:
                names.append(_text(name))
        parent = parent.parent
    return names[::-1]


def relative_to_file(path: str, inline: list[str]) -> str:
    """A use path written inside the inline modules `inline` as a path from the file's own
    module: `super.X` inside `mod tests` is `self.X`, `self.X` there is `self.tests.X`."""
    if not inline:
        return path
    parts = path.split(".")
    if parts[0] == "self":
        return ".".join(["self", *inline, *parts[1:]])
    if parts[0] != "super":
        return path
    supers = len(parts) - len(list(_drop_supers(parts)))
    if supers <= len(inline):
        return ".".join(["self", *inline[: len(inline) - supers], *parts[supers:]])
    return ".".join(["super"] * (supers - len(inline)) + parts[supers:])


def _drop_supers(parts: list[str]) -> list[str]:
    i = 0
    while i < len(parts) and parts[i] == "super":
        i += 1
    return parts[i:]


def module_dir(path: str, is_crate_root: bool) -> str:
    """The folder a file's child modules live in: a crate root's or `mod.rs`'s own folder,
    `a/b/` for `a/b.rs`."""
    directory, _, base = path.rpartition("/")
    if is_crate_root or base == _MOD_FILE:
        return directory
    return posixpath.join(directory, base.removesuffix(".rs"))


def child_candidates(moddir: str, name: str) -> list[str]:
    """The files child module `name` may be, in the order Rust looks."""
    return [posixpath.join(moddir, f"{name}.rs"), posixpath.join(moddir, name, _MOD_FILE)]


def parent_dir(path: str) -> str:
    """The folder holding the parent module's children: `a/` for `a/b.rs` and `a/b/mod.rs`."""
    directory, _, base = path.rpartition("/")
    return directory.rpartition("/")[0] if base == _MOD_FILE else directory


def parent_candidates(pdir: str) -> list[str]:
    """The files a module whose children live in `pdir` may be (a crate root in `pdir` not
    named lib.rs/main.rs, such as tests/tests.rs, the caller knows from Cargo.toml)."""
    inside = [posixpath.join(pdir, name) for name in (_MOD_FILE, *CRATE_ROOT_NAMES)]
    return [*inside, f"{pdir}.rs"] if pdir else inside


def crate_ident(package: str) -> str:
    """The name code uses for a package (`grep-matcher` is `grep_matcher`)."""
    return package.replace("-", "_")


def use_imports(node: Node, text: str) -> list[tuple[str, str]]:
    """A use declaration's leaves, written from the file's module (relative_to_file); an
    `extern crate grep_cli as cli` binds `cli` to the crate; a `mod kv;` is the child module
    it loads (`self.kv`, inside an inline module `self.tests.kv`), which the query side
    resolves to kv.rs or kv/mod.rs as a use path, binding no name (the module's name is its
    own declaration, a Namespace)."""
    if node.type == "mod_item":
        module = _text(node.child_by_field_name("name")).removeprefix("r#")
        return [(".".join(["self", *inline_modules(node), module]), "")] if module else []
    if node.type == "extern_crate_declaration":
        name, alias = node.child_by_field_name("name"), node.child_by_field_name("alias")
        crate = _text(name)
        return [(crate, _text(alias) or crate)] if crate and crate != "self" else []
    inline = inline_modules(node)
    return [(relative_to_file(path, inline), local) for path, local in use_leaves(text)]


def path_from_file(node: Node, path: str) -> str:
    """A path written in code (`super.helper` of `super::helper()`) from the file's module:
    inside an inline module its leading `super`/`self` are that module's."""
    if not path.startswith(("super", "self")):
        return path
    return relative_to_file(path, inline_modules(node))


def import_entry(path: str, local: str) -> str:
    """The import a leaf is stored as: its path, with the name it is bound to when that is
    another (`grep_printer as printer`), so a crate root's renamed re-export is followed."""
    if local and local != path.rpartition(".")[2]:
        return f"{path}{ALIAS_MARK}{local}"
    return path


def _text(node: Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text else ""


RULES = {
    "rust": LanguageRules(
        import_binds_declaration=True,
        import_tree=use_imports,
        import_entry=import_entry,
        qualified_paths=True,
        path_from_file=path_from_file,
    )
}
