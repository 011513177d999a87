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
