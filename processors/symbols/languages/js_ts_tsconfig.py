"""TypeScript/JavaScript path aliases: what `compilerOptions.paths` and `baseUrl` of a
tsconfig.json / jsconfig.json make of a non-relative specifier, so that
`import { Button } from '@/components/ui/button'` names the repository file it means.

Pure: parsing a config's text and mapping specifiers (query_api.symbols.js_specifiers reads
the files).
TypeScript's rules, as `tsc` applies them:
- a config may `extends` others (a relative path, or a list of them, TS 5); options of the
  extending config win. A package base (`@tsconfig/strictest`) is not in the repository:
  skipped, as are bases past MAX_EXTENDS;
- `baseUrl` is relative to the config that declares it; `paths` substitutions are relative
  to the effective `baseUrl`, or without one to the config that declares `paths`;
- an exact pattern wins, else the `*` pattern with the longest prefix; its substitutions are
  tried in order (the caller keeps the first that names a file); with no pattern matching,
  `baseUrl` + specifier.
Config files are JSONC (comments, trailing commas): json5 reads them (a JSON5 parser reads
JSONC; the standard library's json does not).
"""

from __future__ import annotations

import functools
import posixpath
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import json5

from processors.symbols.languages.js_ts import longest_star_match

MAX_EXTENDS = 5  # configs extending configs
CONFIG_NAMES = ("tsconfig.json", "jsconfig.json")


@dataclass(frozen=True, slots=True)
class PathAliases:
    """One config's effective aliases, as repository paths (`""` is the repository root)."""

    patterns: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (pattern, substitutions)
    base_url: str | None = None

    def candidates(self, specifier: str) -> list[str]:
        """The repository paths `specifier` may name, in the order TypeScript tries them."""
        exact = [subs for pattern, subs in self.patterns if pattern == specifier]
        if exact:
            return [s for s in exact[0] if "*" not in s]
        found = longest_star_match(self.patterns, specifier)
        if found is not None:
            subs, matched = found
            return [s.replace("*", matched, 1) for s in subs]
        if self.base_url is not None:
            return [_join(self.base_url, specifier)]
        return []


def _join(directory: str, relative: str) -> str:
    joined = posixpath.normpath(posixpath.join(directory, relative))
    return "" if joined == "." else joined


def _inside(path: str) -> bool:
    return path != ".." and not path.startswith("../") and not path.startswith("/")


@dataclass(slots=True)
class _Options:
    base_url: str | None = None  # repository path
    paths: dict[str, list[str]] | None = None
    paths_dir: str = ""  # the directory of the config that declares `paths`


@functools.lru_cache(maxsize=256)
def parse_config(text: str) -> dict[str, Any] | None:
    """A config file's object (shared: read it, do not change it), or None when it is not
    one (a syntax error, not an object). Cached by text: json5 is pure Python and slow, and
    every answer reads the same few configs."""
    try:
        data = json5.loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def load_aliases(config_path: str, read: Callable[[str], str | None]) -> PathAliases | None:
    """The aliases the config at `config_path` (a repository path) declares, its `extends`
    chain followed through `read` (a repository path -> the file's text, or None). None when
    the config cannot be read or parsed."""
    options = _load(config_path, read, 0)
    if options is None:
        return None
    patterns: list[tuple[str, tuple[str, ...]]] = []
    if options.paths:
        base = options.base_url if options.base_url is not None else options.paths_dir
        for pattern, subs in options.paths.items():
            resolved = tuple(
                p for p in (_join(base, s) for s in subs if isinstance(s, str)) if _inside(p)
            )
            if isinstance(pattern, str) and pattern.count("*") <= 1 and resolved:
                patterns.append((pattern, resolved))
    return PathAliases(tuple(patterns), options.base_url)


def _load(config_path: str, read: Callable[[str], str | None], depth: int) -> _Options | None:
    text = read(config_path)
    data = parse_config(text) if text is not None else None
    if data is None:
        return None
    directory = posixpath.dirname(config_path)
    options = _Options(paths_dir=directory)
    extends = data.get("extends")
    bases = [extends] if isinstance(extends, str) else extends if isinstance(extends, list) else []
    if depth < MAX_EXTENDS:
        for base in bases:  # later bases win over earlier ones, the config over all
            inherited = _base_options(directory, base, read, depth)
            if inherited is not None and inherited.base_url is not None:
                options.base_url = inherited.base_url
            if inherited is not None and inherited.paths is not None:
                options.paths, options.paths_dir = inherited.paths, inherited.paths_dir
    compiler = data.get("compilerOptions")
    if isinstance(compiler, dict):
        _apply_compiler_options(options, directory, compiler)
    return options


def _base_options(
    directory: str, base: object, read: Callable[[str], str | None], depth: int
) -> _Options | None:
    """The options of a config that `extends` names, when it is a file in the repository
    (a package's config, `@tsconfig/node18`, is not)."""
    if not isinstance(base, str) or not base.startswith(("./", "../")):
        return None
    base_path = _join(directory, base if base.endswith(".json") else base + ".json")
    return _load(base_path, read, depth + 1) if _inside(base_path) else None


def _apply_compiler_options(options: _Options, directory: str, compiler: dict[str, Any]) -> None:
    """A config's own `baseUrl` and `paths`, which win over what it inherited."""
    base_url = compiler.get("baseUrl")
    if isinstance(base_url, str):
        resolved = _join(directory, base_url)
        options.base_url = resolved if _inside(resolved) else None
    paths = compiler.get("paths")
    if isinstance(paths, dict):
        options.paths = {k: v for k, v in paths.items() if isinstance(v, list)}
        options.paths_dir = directory
