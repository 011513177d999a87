"""A question for a manifest's list points a TOML manifest at the list it asks for.

`which python versions are supported` asks for pyproject.toml's `requires-python = ">=3.10"`
and `which dependencies does cattrs have` for its `[project]` table's `dependencies = [...]`:
both are keys of a table named otherwise, and the section whose header held the most of the
question's words answered instead. QA on python-attrs/cattrs pointed pyproject.toml at
`[tool.ruff.per-file-target-version]` (its `version`) and at `[project.optional-dependencies]`
(its `dependencies`). A table named for the list (Cargo's `[dependencies]`, Poetry's
`[tool.poetry.dependencies]`) still answers before any key.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

# the lists path_roles.manifest_list names, as a TOML manifest spells its key or table
MANIFEST_LISTS = frozenset(
    {"dependencies", "features", "rust-version", "requires-python", "engines"}
)
_HEADER = re.compile(r"^\s*\[\[?([^\]\n]+)\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"^\s*([\w.-]+)\s*=")


# the words a question asks for a manifest's list with, as path_roles' _MANIFEST_WORDS reads
# them: no subject a table's header could be named for
_ASKING_WORDS = """dependencies dependency deps depend depends on crates packages libraries
gems modules features feature flags flag have has there exist defined declared listed
available version versions use used using require required requires pinned msrv minimum
supported support set"""
ASKING = frozenset(_ASKING_WORDS.split())


def listed_in(subject: Collection[str]) -> str | None:
    """The manifest list among a config question's subject words (config_sections.
    subject_words adds it), else None."""
    return next((word for word in sorted(subject) if word in MANIFEST_LISTS), None)


def named_beside(subject: Collection[str], listed: str) -> frozenset[str]:
    """The words of `subject` naming something beside the list `listed` (the `dev` of `where
    are the dev dependencies`, a tool's name): not the list, its own words (`requires`,
    `python` of `requires-python`) nor the words asking for it."""
    own = set(re.split(r"[-_]", listed))
    return frozenset(word for word in subject if word != listed) - own - ASKING


def list_naming(lines: Sequence[str], listed: str) -> tuple[int, int] | None:
    """The first and last line (1-based) of the table named `listed` (its last dotted part:
    `[dependencies]`, `[tool.poetry.dependencies]`), else of the key setting it, a list or
    table written over several lines to its closing bracket: of a top-level table's
    (`[project]`, `[package]`) first, then the first; None when the file has neither."""
    keys: list[tuple[bool, int]] = []  # (set in a nested table, the key's line)
    nested = False
    for n, line in enumerate(lines, 1):
        if (header := _HEADER.match(line)) is not None:
            table = header.group(1).strip().strip("\"'")
            if table.rpartition(".")[2].strip("\"'").casefold() == listed:
                return n, _section_end(lines, n)
            nested = "." in table
            continue
        key = _KEY.match(line)
        if key is not None and key.group(1).casefold() == listed:
            keys.append((nested, n))
    if not keys:
        return None
    at = min(keys)[1]
    return at, _value_end(lines, at)


def _section_end(lines: Sequence[str], header: int) -> int:
    """The last line of the section opened at `header`, its trailing blank lines left out."""
    end = next((n - 1 for n in range(header + 1, len(lines) + 1) if _HEADER.match(lines[n - 1])),
               len(lines))  # fmt: skip
    while end > header and not lines[end - 1].strip():
        end -= 1
    return end


def _value_end(lines: Sequence[str], at: int) -> int:
    """The line closing the value the key at `at` opens (`dependencies = [` ... `]`), `at`
    for a value on one line."""
    depth = 0
    for n in range(at, len(lines) + 1):
        code = re.sub(r"\"(?:\\.|[^\"\\])*\"|'[^']*'|#.*", "", lines[n - 1])
        depth += code.count("[") + code.count("{") - code.count("]") - code.count("}")
        if depth <= 0:
            return n
    return at


# a dependency's key in a TOML dependency table (`serde = "1"`, `serde.workspace = true`,
# `"serde" = ...`) and a requirement string in a list (`"requests>=2.31",`)
_ENTRY_KEY = re.compile(r"""^\s*["']?([A-Za-z0-9][\w.-]*?)["']?\s*(?:\.\s*[\w-]+\s*)?=""")
_REQUIREMENT = re.compile(r"""["']([A-Za-z0-9][\w.-]*)""")
_NAME_JOINS = re.compile(r"[._-]")
# the tables whose keys hold lists of requirements: PEP 621's extras, PEP 735's groups
_REQUIREMENT_TABLES = frozenset({"optional-dependencies", "dependency-groups"})
# a word naming whose dependencies (`the insta dependencies`), not one dependency
_OWNER = re.compile(r"([\w.-]+)\s+(?:dev-|build-)?(?:dependencies|deps)\b", re.IGNORECASE)


def dependency_entry(lines: Sequence[str], query: str) -> tuple[int, int] | None:
    """The first and last line of the entry of a TOML manifest's dependency tables (Cargo's
    `[dependencies]`, `[workspace.dependencies]`, `[dependencies.serde]`, Poetry's) or list
    (`dependencies = ["requests>=2"]`) naming a package the dependencies question `query`
    writes whole: `serde = { version = "1.0", features = ["derive"] }` for `where is the serde
    dependency declared`, which QA on mitsuhiko/insta answered with the whole `[dependencies]`
    table; None when no entry is named. A word before `dependencies` names whose they are."""
    owners = {_folded(m.group(1)) for m in _OWNER.finditer(query)}
    named = {_folded(w) for w in re.findall(r"[\w.-]+", query)} - owners - {""}
    listing = False  # inside a table of dependencies by name (`[dependencies]`)
    grouped = False  # inside a table of requirement lists (`[project.optional-dependencies]`)
    for n, line in enumerate(lines, 1):
        if (header := _HEADER.match(line)) is not None:
            parts = [p.strip().strip("\"'").casefold() for p in header.group(1).split(".")]
            if (
                len(parts) > 1
                and parts[-2].endswith("dependencies")
                and _folded(parts[-1]) in named
            ):
                return n, _section_end(lines, n)  # `[dependencies.serde]`
            grouped = parts[-1] in _REQUIREMENT_TABLES
            listing = parts[-1].endswith("dependencies") and not grouped
            continue
        key = _ENTRY_KEY.match(line)
        if key is None:
            continue
        if listing and _folded(key.group(1)) in named:
            return n, _value_end(lines, n)
        # a list of requirements (PEP 621's `dependencies = [...]`), not the `features = [`
        # of a dependency's own table
        listed = grouped or (not listing and key.group(1).casefold().endswith("dependencies"))
        if listed and (found := _requirement(lines, n, named)) is not None:
            return found, found
    return None


def _requirement(lines: Sequence[str], at: int, named: set[str]) -> int | None:
    """The line of the list opened by the key at `at` whose requirement string names one of
    `named` (`"requests>=2.31",`), else None."""
    for n in range(at, _value_end(lines, at) + 1):
        text = lines[n - 1] if n > at else lines[n - 1].partition("[")[2]
        if any(_folded(name) in named for name in _REQUIREMENT.findall(text.partition("#")[0])):
            return n
    return None


def _folded(name: str) -> str:
    """A package's name as registries compare them: casefolded, `.`, `_` and `-` left out."""
    return _NAME_JOINS.sub("", name.casefold())
