"""The files that build a compiled extension, for a question asking where or how one is built
(`where is the C extension built`, `how is the python extension compiled`, `where are the
native extensions built`): a Python package declares its C extension in setup.py
(`Extension(...)`, `ext_modules=`), pyproject.toml (`[tool.setuptools.ext-modules]`), a
CMakeLists.txt (`pybind11_add_module`), a meson.build (`extension_module`) or a Bazel BUILD
file (`py_extension`, `pybind_extension`); a Node addon in binding.gyp. Keyword search ranks
the extension's own source first (it says `extension` and `build` most), and the file that
builds it lower or nowhere: config files weigh less unless config is asked.
"""

from __future__ import annotations

import re
import sqlite3

from streams.stores.views.read import files_with_path_words, get_content

_ASKS = re.compile(
    r"""^\s*(?:where|how|which\s+file|what\s+file)\b.*?
    \bextensions?(?:\s+modules?)?\s+(?:is|are|gets?|get)?\s*
    (?:built|build|compiled|compile|made|configured|declared|defined)\b""",
    re.IGNORECASE | re.VERBOSE,
)
# the file names by path word, and what a file of that name holds when it builds an extension
_BUILDERS: tuple[tuple[str, frozenset[str], re.Pattern[str]], ...] = (
    ("setup", frozenset({"setup.py"}), re.compile(r"\bExtension\s*\(|\bext_modules\s*=")),
    (
        "pyproject",
        frozenset({"pyproject.toml"}),
        re.compile(r"ext-modules|ext_modules|\[tool\.(?:maturin|scikit-build|cibuildwheel)"),
    ),
    (
        "cmakelists",
        frozenset({"cmakelists.txt"}),
        re.compile(r"pybind11_add_module|nanobind_add_module|Python\w*_add_library", re.I),
    ),
    ("meson", frozenset({"meson.build"}), re.compile(r"extension_module\s*\(")),
    (
        "build",
        frozenset({"build", "build.bazel"}),
        re.compile(r"\b(?:py_extension|pybind_extension|cc_binary\([^)]*linkshared)", re.S),
    ),
    ("binding", frozenset({"binding.gyp"}), re.compile(r"\"targets\"|'targets'")),
)
_LOOKUP = 200
MAX_FILES = 5


def extension_build_files(conn: sqlite3.Connection, repo_id: str, query: str) -> list[str]:
    """The files building an extension, nearest the root first, for a question asking where
    one is built (module doc); none for another query."""
    if _ASKS.match(query) is None:
        return []
    found: list[str] = []
    for word, names, builds in _BUILDERS:
        for path in files_with_path_words(conn, repo_id, word, _LOOKUP):
            if path.rpartition("/")[2].casefold() not in names:
                continue
            row = get_content(conn, repo_id, path)
            if row is not None and builds.search(row.body):
                found.append(path)
    return sorted(found, key=lambda p: (p.count("/"), p))[:MAX_FILES]
