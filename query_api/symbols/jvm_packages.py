"""A Java or Kotlin package's name written as outline's or related's path (`retrofit2.http`,
as related's `imports` and a file's `package` line write it): the folders holding its files.

A package is a folder by convention, one per source root (`src/main/java/org/shop/http` and
`src/test/java/org/shop/http` are one package), so its folders are those whose path ends with
the package's. A QA pass on square/retrofit: related of `retrofit2.http` answered "not
indexed" with no note, as for a name nothing declares."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable

from query_api.symbols.directory_files import code_first

_PACKAGE = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+")
_JVM_SOURCES = (".java", ".kt", ".kts", ".scala", ".groovy")


def package_folders(path: str, indexed: Iterable[str]) -> list[tuple[str, list[str]]]:
    """The folders of the package `path` names (`indexed`: the text files' paths), their
    source roots before their tests', each with its Java or Kotlin files in that order;
    none where `path` is no dotted name or no folder holds such files of it."""
    if not _PACKAGE.fullmatch(path):
        return []
    tail = "/" + path.replace(".", "/")
    files = [
        f
        for f in indexed
        if f.endswith(_JVM_SOURCES) and ("/" + posixpath.dirname(f)).endswith(tail)
    ]
    folders: dict[str, list[str]] = {}
    for f in code_first(files, len(files)):
        folders.setdefault(posixpath.dirname(f), []).append(f)
    return list(folders.items())


def folders_named(folders: list[str], examples: int) -> str:
    """`a/x` or `2 folders, a/x, b/x` (and how many more past `examples`)."""
    named = ", ".join(folders[:examples])
    more = f" and {len(folders) - examples} more" if len(folders) > examples else ""
    return named if len(folders) == 1 else f"{len(folders)} folders, {named}{more}"


def package_note(path: str, indexed: Iterable[str], examples: int) -> str | None:
    """The note of outline or related asked about the package `path` names: its folders
    and a few files of the first; None where it names none (package_folders)."""
    folders = package_folders(path, indexed)
    if not folders:
        return None
    where = folders_named([folder for folder, _ in folders], examples)
    first = folders[0][1][:examples]
    return (
        f"{path} is a Java/Kotlin package, no file; its files are in {where} (indexed files "
        f"there include {', '.join(first)}): name a file"
    )
