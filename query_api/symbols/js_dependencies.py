"""Which npm packages a TS/JS file's package.json files declare as dependencies, so that a name
imported from one (`import { Router } from 'express'`) is not taken for a repository
declaration of that name.

A bare specifier that names no repository module was matched by name (js_modules): the
repository may be the package itself under a layout the resolver does not follow. A package
that a package.json at or above the importing file lists under `dependencies`,
`devDependencies`, `peerDependencies` or `optionalDependencies`, or a Deno config's import map
maps to a URL or a registry (import_map_packages), is installed from the registry
(node_modules) or fetched, unless it is one of the repository's own workspace packages: on
feathersjs/feathers, express's `Router` and socket.io's `Server` matched transport-commons'
class Router and every `Server`. Every read goes through the caller's bounded, cached reads.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable

import json5

from processors.symbols.languages.js_ts_packages import MANIFEST, split_specifier

DEPENDENCY_FIELDS = ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies")
MAX_NAMES_AFTER_SPECIFIER = 3  # `module.name`, `module.ns.name`, `module.ns.ns.name`
# `node:fs/promises.readFile`, `bun:sqlite.Database`, `cloudflare:workers.env`: a runtime's
# built-in module. A package name holds no colon, so such a specifier is never the repository's
_RUNTIME_SCHEME = re.compile(r"[a-z][a-z0-9+-]*:")
DENO_CONFIGS = ("deno.json", "deno.jsonc")  # their import maps name packages as package.json does
# an import map's target that is another package: a URL or a registry's specifier
_PACKAGE_TARGET = re.compile(r"(?:https?|npm|jsr|node):")


def declared_in(text: str) -> frozenset[str]:
    """The package names a package.json's text declares as dependencies (none when it is no
    JSON object)."""
    try:
        data = json.loads(text)
    except ValueError:
        return frozenset()
    if not isinstance(data, dict):
        return frozenset()
    fields = (data.get(field) for field in DEPENDENCY_FIELDS)
    return frozenset(name for f in fields if isinstance(f, dict) for name in f)


def specifier_packages(qualified: str) -> list[str]:
    """The package names a qualified reference may start with (`socket.io.Server`: `socket.io`,
    then `socket`), its specifier being the part before one of its last dots."""
    names = []
    head = qualified
    for _ in range(MAX_NAMES_AFTER_SPECIFIER):
        head, dot, _name = head.rpartition(".")
        if not dot:
            break
        split = split_specifier(head)
        if split is not None:
            names.append(split[0])
    return names


def import_map_packages(text: str) -> frozenset[str]:
    """The bare specifiers a Deno config's import map (deno.json or deno.jsonc: JSONC) maps
    to another package, remote or from a registry (`"parsebox": "https://...ts"`,
    `"react": "npm:react@19"`, `"std/": "jsr:@std/"`); one it maps to a repository path
    (`"test": "./test/common/index.ts"`) is none. QA on sinclairzx81/typebox: design/syntax's
    `Runtime.Ref(...)`, parsebox's, was a caller of TypeBox's `Type.Ref`."""
    try:
        data = json5.loads(text)
    except ValueError:
        return frozenset()
    imports = data.get("imports") if isinstance(data, dict) else None
    if not isinstance(imports, dict):
        return frozenset()
    return frozenset(
        key.rstrip("/")
        for key, target in imports.items()
        if isinstance(key, str) and isinstance(target, str) and _PACKAGE_TARGET.match(target)
    )


class DeclaredDependencies:
    """For one answer: the dependencies the package.json files above a directory declare,
    read through `read` (a repository file's text or None), less the workspace packages'
    names `workspace()` gives."""

    def __init__(
        self, read: Callable[[str], str | None], workspace: Callable[[], frozenset[str]]
    ) -> None:
        self.read = read
        self.workspace = workspace
        self._above: dict[str, frozenset[str]] = {}  # directory -> names declared at or above

    def external(self, path: str, qualified: str) -> bool:
        """Whether the reference in `path` qualified `qualified` names an installed package:
        one a package.json at or above `path` declares that is no workspace package, or a
        runtime's built-in module (`node:fs/promises`), which no package.json declares: on
        unjs/unstorage its readFile and readdir were taken for src/drivers/utils/node-fs.ts's."""
        if _RUNTIME_SCHEME.match(qualified):
            return True
        names = specifier_packages(qualified)
        if not names:
            return False
        declared = self._declared_above(posixpath.dirname(path))
        if not any(n in declared for n in names):
            return False
        workspace = self.workspace()
        return not any(n in workspace for n in names)

    def _declared_above(self, directory: str) -> frozenset[str]:
        if directory not in self._above:
            text = self.read(posixpath.join(directory, MANIFEST))
            own = declared_in(text) if text is not None else frozenset()
            for name in DENO_CONFIGS:
                config = self.read(posixpath.join(directory, name))
                own |= import_map_packages(config) if config is not None else frozenset()
            parent = posixpath.dirname(directory) if directory else None
            above = self._declared_above(parent) if parent is not None else frozenset()
            self._above[directory] = own | above
        return self._above[directory]
