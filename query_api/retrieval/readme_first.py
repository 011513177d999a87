"""An overview question's root README before the entry files named with it.

`what does this project do` names the root README, then the program's entry files
(entry_files.py), and declared_first lifted them all keeping the fusion's order: the entry file
is embedded and the README, a doc, is not, so the entry file came first (QA on egoist/tsup:
src/index.ts above README.md). The README speaks for the whole project, so it leads.

So does the root manifest mapping a command to its function when a question about the CLI's
entry point names it first (entry_files.script_entries): setup.cfg, a config file, came third
below the function's file and __main__.py (QA on PyCQA/flake8).
"""

from __future__ import annotations

import re

_ROOT_README = re.compile(r"^readme(?:\.\w+)?$", re.IGNORECASE)
_ROOT_MANIFESTS = frozenset(("pyproject.toml", "setup.cfg", "setup.py", "package.json"))


def readme_asked(asked: list[str]) -> set[str]:
    """The root README when it leads the files a question asks for (an overview's answer),
    or the root manifest declaring commands (a CLI entry point's); none for any other
    question's."""
    if asked and (_ROOT_README.match(asked[0]) or asked[0] in _ROOT_MANIFESTS):
        return {asked[0]}
    return set()
