"""The reference's language classifier (spec §2.2): file extension -> language id, else "".

Kept as data so the table reads like the spec and a newcomer can diff the two. Matching is
on the text after the last dot of the file name, case-insensitively (`Foo.CS` is C#), the way
.NET's `Path.GetExtension` sees it (so a file named just `.json` is JSON too).
"""

from __future__ import annotations

from types import MappingProxyType

_TABLE: dict[str, tuple[str, ...]] = {
    "csharp": ("cs",),
    "fsharp": ("fs",),
    "vbnet": ("vb",),
    "javascript": ("js", "jsx", "mjs", "cjs"),
    "typescript": ("ts", "tsx"),
    "python": ("py", "pyi"),  # and its type stubs (our addition to the spec's table)
    "go": ("go",),
    "rust": ("rs",),
    "java": ("java",),
    "kotlin": ("kt",),
    "ruby": ("rb",),
    "php": ("php",),
    "c": ("c", "h"),
    "cpp": ("cpp", "cc", "hpp", "cxx"),
    "swift": ("swift",),
    "scala": ("scala",),
    "shell": ("sh", "bash"),
    "powershell": ("ps1",),
    "sql": ("sql",),
    "markdown": ("md", "markdown"),
    "json": ("json",),
    "yaml": ("yaml", "yml"),
    "xml": ("xml",),
    "html": ("html",),
    "css": ("css",),
    "toml": ("toml",),
}

LANGUAGE_BY_EXTENSION: MappingProxyType[str, str] = MappingProxyType(
    {ext: lang for lang, exts in _TABLE.items() for ext in exts}
)


def extension_of(path: str) -> str:
    """Lower-cased extension without the dot; "" when the file name has none."""
    name = path.rsplit("/", 1)[-1]
    _, dot, ext = name.rpartition(".")
    return ext.lower() if dot else ""


def language_for_path(path: str) -> str:
    """Language id of a repo-relative path by its extension; "" for anything not in the table."""
    return LANGUAGE_BY_EXTENSION.get(extension_of(path), "")
