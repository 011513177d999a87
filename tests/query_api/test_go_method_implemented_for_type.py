"""`where is Readdir implemented for UnionFile`: of the many declarations of a method, the
one of the type the question names. QA on spf13/afero: afero.go, declaring the File
interface's Readdir (every file type's contract), ranked first and unionFile.go, declaring
UnionFile.Readdir, second."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILE = """package vfs

import "os"

// File is a file of any filesystem: Readdir reads a directory's entries.
type File interface {
\tName() string
\t// Readdir reads the directory's entries, Readdir(0) all of them.
\tReaddir(count int) ([]os.FileInfo, error)
}
"""


def _file_type(name: str) -> str:
    return (
        f'package vfs\n\nimport "os"\n\n// {name} is a File.\n'
        f"type {name} struct{{ name string }}\n\n"
        f"func (f *{name}) Name() string {{ return f.name }}\n\n"
        f"// Readdir reads the entries of the {name}'s directory.\n"
        f"func (f *{name}) Readdir(c int) ([]os.FileInfo, error) {{ return nil, nil }}\n"
    )


FILES = {
    "afero.go": FILE,
    "unionFile.go": _file_type("UnionFile"),
    "regexpfs.go": _file_type("RegexpFile"),
    "basepath.go": _file_type("BasePathFile"),
    "mem/file.go": _file_type("MemFile").replace("package vfs", "package mem"),
    "zipfs/file.go": _file_type("ZipFile").replace("package vfs", "package zipfs"),
    "tarfs/file.go": _file_type("TarFile").replace("package vfs", "package tarfs"),
}


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("where is Readdir implemented for UnionFile", "unionFile.go"),
        ("where is the Readdir method implemented for TarFile", "tarfs/file.go"),
    ],
)
async def test_the_method_of_the_named_type_first(tmp_path: Path, query: str, first: str) -> None:
    async with indexed_app(tmp_path, FILES, "vfs") as app:
        found = await app.service.search(t.SearchArgs(repoId="vfs", query=query))
    paths = [h.entry.path for h in found.hits]
    assert paths[0] == first, paths
    assert found.hits[0].startLine is not None and found.hits[0].snippet, found.hits[0]
    assert "Readdir" in found.hits[0].snippet, found.hits[0].snippet
