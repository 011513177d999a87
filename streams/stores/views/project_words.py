"""The words that name the project itself: its name is a folder of most of its source paths
(src/flake8/..., packages/middy/...), so a query saying it (`how does flake8 read the
--output-file option`) matched every such path and lifted the package's index file, called by
that folder's name (src/flake8/__init__.py first, every hit `path-name-match`). The name says
which project, not which file: keyword search neither boosts a file called by it nor gives a
`path-name-match` reason for it alone (search.py).

The project's name is the repository's id (a checkout's folder name), its root manifest's
package name (pyproject.toml, setup.cfg, package.json, Cargo.toml) and its root README's
title where that is one word naming a folder of the repository (`# eza` over src/eza/...,
`<h1>Zustand</h1>`, `Flask` over `=====`). A longer title's first word is as often English
(`# Welcome to urfave/cli`), a one-word title may be one too (`# Overview`), and a README
opening with a logo starts with a tag (`<div align="center">`): taken for the project's name,
`welcome`, `overview` and `div` lost their path matches in every query.
"""

from __future__ import annotations

import re
import sqlite3

from processors.tokenizer import STOP_WORDS, tokenize
from streams.stores.views.manifest_names import manifest_names
from streams.stores.views.read import files_with_path_words, get_content

_README = re.compile(r"^readme(?:\.\w+)?$", re.IGNORECASE)
_LOOKUP = 200
_PROLOGUE_CHARS = 4000  # of a README read for its title (below a logo or a comment)
# a title heading: `# name`, `<h1 ...>name</h1>` (a link or image inside it left out), or a
# setext title (`name` over a line of `=`)
_HEADING = re.compile(
    r"^#[ \t]+(?P<md>[^\n]{1,120})|<h1\b[^>]*>(?P<h1>.{1,400}?)</h1>"
    r"|^(?P<setext>[^\n]{1,120})\n=+[ \t]*$",
    re.M | re.I | re.S,
)
_TAG = re.compile(r"<[^>]*>")
_WORD = re.compile(r"[\w@.-]+")


def project_words(conn: sqlite3.Connection, repo_id: str) -> frozenset[str]:
    """The tokens of the project's names (module doc), stop words left out."""
    names = [repo_id.rpartition("/")[2]]
    names += [name.rpartition("/")[2] for name in manifest_names(conn, repo_id)]
    for path in files_with_path_words(conn, repo_id, "readme", _LOOKUP):
        row = get_content(conn, repo_id, path) if "/" not in path and _README.match(path) else None
        name = readme_name(row.body) if row is not None else None
        if name is not None and _names_folder(conn, repo_id, name):
            names.append(name)
    return frozenset(tok for name in names for tok in tokenize(name)) - STOP_WORDS


def readme_name(body: str) -> str | None:
    """The README's title, where its first title heading holds one word and nothing else."""
    heading = _HEADING.search(body, 0, _PROLOGUE_CHARS)
    if heading is None:
        return None
    title = heading["md"] or heading["h1"] or heading["setext"] or ""
    words = _WORD.findall(_TAG.sub(" ", title))
    return (words[0].strip("@./-") or None) if len(words) == 1 else None


def _names_folder(conn: sqlite3.Connection, repo_id: str, name: str) -> bool:
    """Whether some indexed path has a folder called `name` (casefolded)."""
    folded = name.casefold()
    paths = files_with_path_words(conn, repo_id, name, _LOOKUP)
    return any(folded in (part.casefold() for part in path.split("/")[:-1]) for path in paths)
