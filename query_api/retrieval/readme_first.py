"""An overview question's root README before the entry files named with it.

`what does this project do` names the root README, then the program's entry files
(entry_files.py), and declared_first lifted them all keeping the fusion's order: the entry file
is embedded and the README, a doc, is not, so the entry file came first (QA on egoist/tsup:
src/index.ts above README.md). The README speaks for the whole project, so it leads.
"""

from __future__ import annotations

import re

_ROOT_README = re.compile(r"^readme(?:\.\w+)?$", re.IGNORECASE)


def readme_asked(asked: list[str]) -> set[str]:
    """The root README when it leads the files a question asks for (an overview's answer);
    none for any other question's."""
    if asked and _ROOT_README.match(asked[0]):
        return {asked[0]}
    return set()
