"""`what implements X` for a Go interface embedding the standard library's (`io.Reader`,
`io.Closer`): the embedded interface is the standard library's, not a same-named interface
another package of the repository declares. QA on spf13/afero: `what implements the File
interface` (File embeds io.Closer, io.Reader, io.Writer, ...) read `io.Reader` and `io.Writer`
as gcsfs/internal/stiface's Reader and Writer (SetChunkSize, CloseWithError, ...), asked for
methods no file type declares, and answered the files using File with a note that none
implements it, where mem.File, zipfs.File and seven more do."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FS = """package vfs

import "io"

// File represents a file in the filesystem.
type File interface {
\tio.Closer
\tio.Reader
\tio.Writer

\tName() string
\tSync() error
}

// Open opens a File.
func Open(f File) File { return f }
"""
# another package's interfaces of the same names as io's, with methods of their own
STORAGE = """package storage

// Reader reads an object.
type Reader interface {
\tio.Reader
\tRemain() int64
}

// Writer writes an object.
type Writer interface {
\tio.WriteCloser
\tSetChunkSize(int)
\tCloseWithError(err error) error
}
"""
MEMFILE = """package mem

// File is a file held in memory.
type File struct{ name string }

func (f *File) Close() error                { return nil }
func (f *File) Read(b []byte) (int, error)  { return 0, nil }
func (f *File) Write(b []byte) (int, error) { return len(b), nil }
func (f *File) Name() string                { return f.name }
func (f *File) Sync() error                 { return nil }
"""
# uses File, declares only some of its methods
USER = """package vfs

type named struct{ f File }

func (n named) Name() string { return n.f.Name() }
func (n named) Sync() error  { return n.f.Sync() }
"""
FILES = {
    "vfs.go": FS,
    "storage/iface.go": STORAGE,
    "mem/file.go": MEMFILE,
    "named.go": USER,
}


async def test_an_embedded_io_interface_is_the_standard_library_s(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "vfs") as app:
        found = await app.service.search(
            t.SearchArgs(repoId="vfs", query="what implements the File interface")
        )
    paths = [h.entry.path for h in found.hits]
    assert paths[0] == "mem/file.go", (paths, found.note)
    assert any(r.startswith("implements:") for r in found.hits[0].reasons), found.hits[0]
    # a type declaring File's own methods but not io's is no implementer
    assert not any(
        r.startswith("implements:")
        for h in found.hits
        if h.entry.path == "named.go"
        for r in h.reasons
    )
