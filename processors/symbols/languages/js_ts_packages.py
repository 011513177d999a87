"""TypeScript/JavaScript packages of the repository: what a bare specifier (`zod`, `zod/v3`,
`@acme/ui/button`) names when the package is one of the repository's own, so that a file
importing its library by the library's published name depends on the library's files.

Parsing package.json and workspace lists and mapping a specifier to the repository paths it
may name are pure; RepositoryPackages finds the packages through the reads the caller passes
(query_api.symbols.js_specifiers, which keeps the first path that is an indexed module). The
rules, as TypeScript's `node16`/`nodenext`/`bundler` resolution applies them:
- the package is the nearest package.json above the importing file when it carries the
  name and an `exports` map (a self-reference), else the workspace package of that name
  (package.json `workspaces`, or pnpm-workspace.yaml `packages`, of the repository root:
  node_modules links each one under its name);
- with `exports`, the subpath (`.` or `./v3`) is looked up exactly, else by the `*` pattern
  with the longest prefix; its conditions are tried in the order written. Which conditions a
  build turns on (`types`, `import`, a custom `@zod/source`) is the build's: every target is
  a candidate, in order, and the caller keeps the first one that is a repository file (a
  `types` target in `dist/`, not committed, names none);
- without `exports`: `types`/`typings`, `main`, `module`, then `index` for the package itself,
  and the path under the package's folder for a subpath;
- a target's extension is the build's (`./index.js` for `index.ts`, `.d.cts` for `.cts`):
  the caller matches a module, the path without its extension, as for relative imports.
"""

from __future__ import annotations

import functools
import json
import posixpath
from dataclasses import dataclass
from typing import Any

import yaml  # type: ignore[import-untyped]

from processors.symbols.languages.js_ts import longest_star_match, strip_js_extension

MANIFEST = "package.json"
PNPM_WORKSPACE = "pnpm-workspace.yaml"
ENTRY_FIELDS = ("types", "typings", "main", "module")  # the package itself, without `exports`
_DECLARATION_SUFFIXES = (".d.ts", ".d.mts", ".d.cts")


def split_specifier(specifier: str) -> tuple[str, str] | None:
    """`@scope/pkg/sub/x` -> (`@scope/pkg`, `./sub/x`), `zod` -> (`zod`, `.`); None for what
    names no package (a relative or absolute path, `node:fs`, an empty name)."""
    if not specifier or specifier[0] in "./#" or ":" in specifier:
        return None
    parts = specifier.split("/")
    size = 2 if specifier.startswith("@") else 1
    if len(parts) < size or not all(parts[:size]):
        return None
    name = "/".join(parts[:size])
    rest = "/".join(parts[size:])
    return name, f"./{rest}" if rest else "."


def module_of(path: str) -> str:
    """A target's repository path as a module (the form imports are matched in):
    `pkg/index.d.cts` and `pkg/index.cjs` are both `pkg/index`."""
    for suffix in _DECLARATION_SUFFIXES:
        if path.endswith(suffix):
            return path[: -len(suffix)]
    return strip_js_extension(path)


def _join(directory: str, relative: str) -> str | None:
    """`relative` (`./src/index.ts`) under the package folder; None when it leaves it."""
    joined = posixpath.normpath(posixpath.join(directory, relative))
    if joined == ".":
        return ""
    if joined == ".." or joined.startswith(("../", "/")):
        return None
    return joined


def _targets(value: object, star: str | None) -> list[str]:
    """The targets of an `exports` value, conditions in their written order (see module doc)."""
    if isinstance(value, str):
        if not value.startswith("./"):
            return []  # a target must be relative to the package (Node rejects others)
        return [value.replace("*", star) if star is not None else value]
    if isinstance(value, list):
        return [t for item in value for t in _targets(item, star)]
    if isinstance(value, dict):
        return [
            t
            for key, item in value.items()
            if not key.startswith(".")
            for t in _targets(item, star)
        ]
    return []  # `null`: the subpath is not exported


def _subpath_value(exports: dict[str, Any], subpath: str) -> tuple[object, str | None] | None:
    """The `exports` entry for `subpath` and what its `*` matched: an exact key wins, else
    the pattern with the longest prefix."""
    if subpath in exports:
        return exports[subpath], None
    return longest_star_match(exports.items(), subpath)


@dataclass(frozen=True, slots=True)
class PackageManifest:
    """One package.json: the package's name, its folder (a repository path, "" the root) and
    what TypeScript reads to resolve an import of it."""

    name: str
    directory: str
    exports: object = None  # the `exports` field as written; None when absent
    entries: tuple[str, ...] = ()  # ENTRY_FIELDS' values, in that order

    def candidates(self, subpath: str) -> list[str]:
        """The repository paths `name` + `subpath` may name, in the order they are tried."""
        if self.exports is not None:
            relative = self._exported(subpath)
        elif subpath == ".":
            relative = [*self.entries, "./index"]
        else:
            relative = [subpath]
        paths = (_join(self.directory, r) for r in relative)
        return list(dict.fromkeys(p for p in paths if p is not None))

    def _exported(self, subpath: str) -> list[str]:
        exports = self.exports
        if not isinstance(exports, dict) or not any(k.startswith(".") for k in exports):
            exports = {".": exports}  # sugar: the package's own entry, or its conditions
        found = _subpath_value(exports, subpath)
        return [] if found is None else _targets(*found)


@functools.lru_cache(maxsize=512)
def _parsed(text: str) -> dict[str, Any] | None:
    """A JSON object's text parsed (shared: read it, do not change it), None when not one.
    Cached by text: every answer reads the same few manifests."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def parse_manifest(text: str, directory: str) -> PackageManifest | None:
    """The package.json in `directory` (its text), or None when it is not one or has no name."""
    data = _parsed(text)
    name = data.get("name") if data is not None else None
    if data is None or not isinstance(name, str) or not name:
        return None
    entries = tuple(v for v in (data.get(f) for f in ENTRY_FIELDS) if isinstance(v, str))
    entries = tuple(e if e.startswith(("./", "../")) else f"./{e}" for e in entries)
    return PackageManifest(name, directory, data.get("exports"), entries)


def directory_entries(text: str, directory: str) -> list[str]:
    """The repository paths a relative import of `directory` itself (`require('../..')`) may
    name through its package.json (`text`): `types`/`typings`, `main`, `module`, in that
    order (Node reads `main`, TypeScript the types first; `exports` is for imports by the
    package's name, not its path). The folder's `index` is the caller's to try."""
    data = _parsed(text)
    if data is None:
        return []
    entries = (v for v in (data.get(f) for f in ENTRY_FIELDS) if isinstance(v, str))
    paths = (_join(directory, e if e.startswith(("./", "../")) else f"./{e}") for e in entries)
    return list(dict.fromkeys(p for p in paths if p))


def has_exports(text: str) -> bool:
    data = _parsed(text)
    return data is not None and data.get("exports") is not None


def workspace_patterns(manifest_text: str | None, pnpm_text: str | None) -> list[str]:
    """The folders (globs, `packages/*`) the repository root declares as workspace packages:
    package.json `workspaces` (a list, or yarn's `{packages: [...]}`) and pnpm-workspace.yaml
    `packages`. Exclusions (`!**/test/**`) are left out: a folder is only ever a candidate."""
    found: list[object] = []
    data = _parsed(manifest_text) if manifest_text is not None else None
    workspaces = data.get("workspaces") if data is not None else None
    if isinstance(workspaces, dict):
        workspaces = workspaces.get("packages")
    if isinstance(workspaces, list):
        found += workspaces
    if pnpm_text is not None:
        try:
            pnpm = yaml.safe_load(pnpm_text)
        except yaml.YAMLError:
            pnpm = None
        packages = pnpm.get("packages") if isinstance(pnpm, dict) else None
        if isinstance(packages, list):
            found += packages
    out = (p.strip().removeprefix("./").rstrip("/") for p in found if isinstance(p, str))
    return list(dict.fromkeys(p for p in out if p and not p.startswith(("!", "/", ".."))))
