"""Go modules as their go.mod files say them: a module's path (`module example.com/kit/v3`)
and the folder of the repository that a Go import path names.

A Go package's import path is its module's path, then its folder under the go.mod's folder
(`github.com/go-kratos/kratos/v3/transport/http` is transport/http of the root module). The
dependents resolver (go_family) matches qualified references by it; outline and related take
an import path, as related's `imports` lists it, to the folder it names, whose files they
answer for (an import path is no file)."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable

_MODULE_LINE = re.compile(r'^\s*module\s+"?([^\s"]+)"?', re.MULTILINE)

GO_MOD = "go.mod"


def module_path(go_mod: str) -> str | None:
    """The module path a go.mod's text declares, None when it declares none."""
    line = _MODULE_LINE.search(go_mod)
    return line.group(1) if line is not None else None


def looks_like_import_path(path: str) -> bool:
    """Whether `path` may be a Go import path of a module (`example.com/kit/...`: its first
    element is a domain), so that reading the go.mod files for it is worth it."""
    first, slash, _ = path.partition("/")
    return bool(slash) and "." in first.strip(".")


def folder_of_import(path: str, modules: Iterable[tuple[str, str]]) -> str | None:
    """The repository folder the import path `path` names (`""` for the root), given each
    go.mod's (folder, module path); the longest module path that holds it decides (a
    sub-module's `example.com/kit/contrib/x` over its parent's `example.com/kit`); None for a
    folder inside another module's (a nested go.mod ends the outer module there)."""
    modules = list(modules)
    best: tuple[int, str, str] | None = None
    for folder, module in modules:
        if path == module or path.startswith(module + "/"):
            below = path[len(module) :].strip("/")
            if best is None or len(module) > best[0]:
                best = (len(module), folder, posixpath.join(folder, below).strip("/"))
    if best is None:
        return None
    _, home, named = best
    # a folder holding a go.mod of its own, or below one, is that module's, not this one's
    # (bubbletea's examples/ is `module examples`: no package of charm.land/bubbletea/v2)
    for folder, _module in modules:
        nested = folder != home and (not home or folder.startswith(home + "/"))
        if nested and (named == folder or named.startswith(folder + "/")):
            return None
    return named


def import_path_note(
    path: str,
    indexed: Iterable[str],
    read_text: Callable[[str], str | None],
    files_under: Callable[[str], list[str]],
    examples: int,
) -> str | None:
    """The note of an outline or related asked about a Go import path of one of the
    repository's modules (`indexed`: the text files' paths, whose go.mod files `read_text`
    reads; `files_under`: the indexed files under a folder prefix): the package's folder and
    a few of its own source files (not its sub-packages' or tests), None for any other path."""
    if not looks_like_import_path(path):
        return None
    modules = []
    for go_mod in indexed:
        if posixpath.basename(go_mod) != GO_MOD:
            continue
        text = read_text(go_mod)
        module = module_path(text) if text is not None else None
        if module is not None:
            modules.append((posixpath.dirname(go_mod), module))
    folder = folder_of_import(path, modules)
    if folder is None:
        return None
    under = files_under(folder + "/" if folder else "")
    own = sorted(
        (f for f in under if posixpath.dirname(f) == folder),
        key=lambda f: (not f.endswith(".go"), f.endswith("_test.go")),
    )  # its Go sources first (the root's README and go.sum are no package)
    own = own or under
    if not own:
        return None
    where = folder or "the repository root"
    named = ", ".join(own[:examples])
    return (
        f"{path} is a Go import path, no file; its package is in {where} (indexed files "
        f"there include {named}): name a file"
    )
