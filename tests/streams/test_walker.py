"""Walk, read, manifest and reconcile of the workspace source."""

from __future__ import annotations

import codecs
import os
import sqlite3
import time
from pathlib import Path

import pytest
import xxhash

import streams.sources.reconcile as reconcile_module
from schemas.events import (
    BINARY_SNIFF_BYTES,
    INDEXED_CHARS_RANGE,
    MAX_BODY_CHARS,
    MAX_INDEXED_CHARS,
    FileUpsert,
    WalkFilters,
)
from streams.errors import SourceError
from streams.sources.manifest import Manifest, ManifestRow
from streams.sources.reconcile import ChangeBatch, PlanCounts, plan_changes
from streams.sources.walker import (
    FileSnapshot,
    ReadResult,
    Skipped,
    configure_indexed_limit,
    indexed_limit,
    read_file,
    to_event,
    walk,
)

HOUR_NS = 3600 * 1_000_000_000


def write(root: Path, rel: str, data: str | bytes = "x", *, age_ns: int = HOUR_NS) -> Path:
    """Write a file with an mtime in the past (so the stat fast path may trust it)."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data)
    stamp = time.time_ns() - age_ns
    os.utime(path, ns=(stamp, stamp))
    return path


def snapshot(root: Path, rel: str, **kwargs: bool) -> FileSnapshot:
    result = read_file(root, rel, **kwargs)
    assert isinstance(result, FileSnapshot), result
    return result


def run_plan(
    root: Path, known: dict[str, ManifestRow], **kwargs: object
) -> tuple[list[ChangeBatch], PlanCounts]:
    counts = PlanCounts()
    batches = list(plan_changes(root, WalkFilters(), known, counts=counts, **kwargs))  # type: ignore[arg-type]
    return batches, counts


def upserted(batches: list[ChangeBatch]) -> list[str]:
    return [s.path for b in batches for s in b.upserts]


def deleted(batches: list[ChangeBatch]) -> list[str]:
    return [p for b in batches for p in b.deletes]


def apply_all(known: dict[str, ManifestRow], batches: list[ChangeBatch]) -> None:
    for batch in batches:
        batch.apply_to(known)


# --- walk -------------------------------------------------------------------------------------


def test_walk_is_ordinal_by_full_path(tmp_path: Path) -> None:
    for rel in ("a/x", "a-b", "a.c", "B", "a0/y", "é"):
        write(tmp_path, rel)
    got = [e.path for e in walk(tmp_path, WalkFilters())]
    assert got == sorted(got) == ["B", "a-b", "a.c", "a/x", "a0/y", "é"]


def test_walk_reports_size_and_mtime(tmp_path: Path) -> None:
    path = write(tmp_path, "f.txt", "hello")
    (entry,) = walk(tmp_path, WalkFilters())
    assert (entry.size, entry.mtime_ns) == (5, os.stat(path).st_mtime_ns)


def test_symlinks_are_never_followed(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    outside = tmp_path / "outside"
    write(outside, "secret.txt")
    write(root, "real/a.py")
    (root / "link-file.py").symlink_to(root / "real" / "a.py")
    (root / "link-dir").symlink_to(root / "real", target_is_directory=True)
    (root / "escape").symlink_to(outside, target_is_directory=True)
    (root / "real" / "cycle").symlink_to(root, target_is_directory=True)
    (root / "dangling").symlink_to(tmp_path / "missing")
    assert [e.path for e in walk(root, WalkFilters())] == ["real/a.py"]


def test_special_files_and_undecodable_names_are_skipped(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    fd = os.open(os.fsencode(tmp_path) + b"/bad\xff.txt", os.O_CREAT | os.O_WRONLY)
    os.close(fd)
    write(tmp_path, "ok.txt")
    assert [e.path for e in walk(tmp_path, WalkFilters())] == ["ok.txt"]


def test_symlinks_and_special_files_are_counted_as_passed_over(tmp_path: Path) -> None:
    write(tmp_path, "real/a.py")
    write(tmp_path, ".gitignore", "ignored-link\n")
    (tmp_path / "link-file.py").symlink_to(tmp_path / "real" / "a.py")
    (tmp_path / "link-dir").symlink_to(tmp_path / "real", target_is_directory=True)
    (tmp_path / "ignored-link").symlink_to(tmp_path / "real" / "a.py")
    os.mkfifo(tmp_path / "real" / "pipe")
    passed_over: list[Skipped] = []
    found = [e.path for e in walk(tmp_path, WalkFilters(), passed_over=passed_over)]
    assert found == [".gitignore", "real/a.py"]
    assert sorted((s.path, s.reason) for s in passed_over) == [
        ("link-dir", "symlink"),
        ("link-file.py", "symlink"),
        ("real/pipe", "not-regular"),
    ]
    counts = PlanCounts()
    for _batch in plan_changes(tmp_path, WalkFilters(), {}, counts=counts):
        pass
    assert counts.skipped == 3 and counts.skipped_by == {"symlink": 2, "not-regular": 1}


def test_undecodable_names_are_counted_as_passed_over(tmp_path: Path) -> None:
    """A name that is not UTF-8 was left out without a word (filesSkipped 0): a file counts
    once, a directory once for all below it, and an ignored one not at all."""
    root = os.fsencode(tmp_path)
    write(tmp_path, ".gitignore", "ignored*\n")
    for name in (b"/caf\xe9.py", b"/ignored\xe9.py"):
        os.close(os.open(root + name, os.O_CREAT | os.O_WRONLY))
    os.makedirs(root + b"/d\xff/below")
    os.close(os.open(root + b"/d\xff/below/x.py", os.O_CREAT | os.O_WRONLY))
    passed_over: list[Skipped] = []
    found = [e.path for e in walk(tmp_path, WalkFilters(), passed_over=passed_over)]
    assert found == [".gitignore"]
    assert sorted((s.path, s.reason) for s in passed_over) == [
        ("caf\ufffd.py", "undecodable-name"),
        ("d\ufffd", "undecodable-name"),
    ]
    counts = PlanCounts()
    for _batch in plan_changes(tmp_path, WalkFilters(), {}, counts=counts):
        pass
    assert counts.skipped == 2 and counts.skipped_by == {"undecodable-name": 2}


def test_unusable_root_raises_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError):
        list(walk(tmp_path / "missing", WalkFilters()))
    with pytest.raises(SourceError):
        list(walk(write(tmp_path, "file"), WalkFilters()))


# --- read -------------------------------------------------------------------------------------


def test_binary_sniff_boundary(tmp_path: Path) -> None:
    at_7999 = b"a" * (BINARY_SNIFF_BYTES - 1) + b"\x00" + b"tail"
    at_8000 = b"a" * BINARY_SNIFF_BYTES + b"\x00" + b"tail"
    write(tmp_path, "nul7999", at_7999)
    write(tmp_path, "nul8000", at_8000)
    assert read_file(tmp_path, "nul7999") == Skipped("nul7999", "binary")
    kept = snapshot(tmp_path, "nul7999", exclude_binary=False)
    assert (kept.binary, kept.body, kept.size) == (True, "", len(at_7999))
    assert kept.digest == "xx128:" + xxhash.xxh3_128_hexdigest(at_7999)
    text = snapshot(tmp_path, "nul8000")
    assert not text.binary
    assert text.body == at_8000.decode()


def test_a_pdf_is_binary_though_its_first_nul_is_past_the_sniff(tmp_path: Path) -> None:
    """requests' `ext/requests-logo.ai` (a PDF) opens with 60 KB of XMP text: indexed as text,
    its bytes were search hits and bundle content."""
    head = b"%PDF-1.6\n%\xe2\xe3\xcf\xd3\n" + b"<x:xmpmeta xmlns:x='adobe:ns:meta/'/>\n" * 300
    write(tmp_path, "logo.ai", head + b"\x00stream")
    write(tmp_path, "notes.txt", b"see %PDF-1.6 for the format\n")
    assert read_file(tmp_path, "logo.ai") == Skipped("logo.ai", "binary")
    assert not snapshot(tmp_path, "notes.txt").binary


def test_huge_file_is_truncated_but_fully_hashed(tmp_path: Path) -> None:
    data = ("é" * 1000 + "\n").encode() * 2600  # ~5 MB of two-byte characters
    write(tmp_path, "big.txt", data)
    snap = snapshot(tmp_path, "big.txt")
    assert snap.truncated
    assert len(snap.body) == MAX_INDEXED_CHARS
    assert snap.body == data.decode()[:MAX_INDEXED_CHARS]
    assert snap.digest == "xx128:" + xxhash.xxh3_128_hexdigest(data)
    assert snap.size == len(data)
    assert not snap.decode_errors


def test_a_file_past_the_body_cap_is_published_whole_for_search(tmp_path: Path) -> None:
    text = "a" * MAX_BODY_CHARS + "\nneedle past the cap\n"
    write(tmp_path, "long.txt", text)
    snap = snapshot(tmp_path, "long.txt")
    assert (snap.body, snap.truncated) == (text, False)


def test_body_exactly_at_the_limit_is_not_truncated(tmp_path: Path) -> None:
    write(tmp_path, "exact.txt", "a" * MAX_INDEXED_CHARS)
    snap = snapshot(tmp_path, "exact.txt")
    assert (len(snap.body), snap.truncated) == (MAX_INDEXED_CHARS, False)


def test_the_indexed_limit_is_configurable_within_its_range(tmp_path: Path) -> None:
    write(tmp_path, "big.txt", "b" * (MAX_BODY_CHARS * 3))
    low, high = INDEXED_CHARS_RANGE
    try:
        configure_indexed_limit(low)
        snap = snapshot(tmp_path, "big.txt")
        assert (len(snap.body), snap.truncated) == (low, True)
        for wrong in (low - 1, high + 1):
            with pytest.raises(SourceError, match="indexed limit"):
                configure_indexed_limit(wrong)
        assert indexed_limit() == low
    finally:
        configure_indexed_limit(MAX_INDEXED_CHARS)


def test_invalid_utf8_is_replaced_and_flagged(tmp_path: Path) -> None:
    write(tmp_path, "bad.py", b"ok \xff\xfe done \xe2\x82")
    snap = snapshot(tmp_path, "bad.py")
    assert snap.decode_errors
    assert snap.body.startswith("ok \ufffd\ufffd done ")
    assert snap.body.endswith("\ufffd")


def test_bom_is_stripped_from_the_body_but_hashed(tmp_path: Path) -> None:
    data = b"\xef\xbb\xbfprint(1)\n"
    write(tmp_path, "a.py", data)
    snap = snapshot(tmp_path, "a.py")
    assert snap.body == "print(1)\n"
    assert snap.digest == "xx128:" + xxhash.xxh3_128_hexdigest(data)
    assert snap.language == "python"


def test_a_utf16_file_with_a_bom_is_text(tmp_path: Path) -> None:
    """Windows tools write .reg, .ps1, .cs and .sql files as UTF-16 with a byte-order mark:
    every other byte of ASCII text is a NUL, so git's heuristic called them binary and they
    were skipped. The body is the decoded text (served as UTF-8); the digest hashes the bytes."""
    text = "Windows Registry Editor Version 5.00\r\n[HKEY_CURRENT_USER\\Software\\Ünï]\r\n"
    for name, data in (
        ("le.reg", codecs.BOM_UTF16_LE + text.encode("utf-16-le")),
        ("be.ps1", codecs.BOM_UTF16_BE + text.encode("utf-16-be")),
    ):
        write(tmp_path, name, data)
        snap = snapshot(tmp_path, name)
        assert (snap.body, snap.binary, snap.decode_errors, snap.truncated) == (
            text,
            False,
            False,
            False,
        )
        assert snap.digest == "xx128:" + xxhash.xxh3_128_hexdigest(data)
        assert snap.size == len(data)
    # a lone surrogate is replaced and flagged, as invalid UTF-8 is
    write(tmp_path, "bad.txt", codecs.BOM_UTF16_LE + "ok ".encode("utf-16-le") + b"\x00\xd8ab")
    bad = snapshot(tmp_path, "bad.txt")
    assert bad.decode_errors and bad.body.startswith("ok \ufffd")


def test_utf32_bomless_utf16_and_nul_characters_stay_binary(tmp_path: Path) -> None:
    text = "class A {}\n"
    for name, data in (
        ("u32.cs", codecs.BOM_UTF32_LE + text.encode("utf-32-le")),
        ("nobom.cs", text.encode("utf-16-le")),
        # a BOM followed by what decodes to U+0000 characters is not text
        ("fake.bin", codecs.BOM_UTF16_LE + b"\x00\x00\x01\x02" * 10),
    ):
        write(tmp_path, name, data)
        assert read_file(tmp_path, name) == Skipped(name, "binary"), name


def test_a_huge_utf16_file_obeys_the_indexed_limit(tmp_path: Path) -> None:
    data = codecs.BOM_UTF16_LE + ("é𝄞 line\n" * 300_000).encode("utf-16-le")  # ~5.4 MB
    write(tmp_path, "big.txt", data)
    snap = snapshot(tmp_path, "big.txt")
    assert (len(snap.body), snap.truncated, snap.decode_errors) == (MAX_INDEXED_CHARS, True, False)
    assert snap.body == data[2:].decode("utf-16-le")[:MAX_INDEXED_CHARS]
    assert (snap.size, snap.digest) == (len(data), "xx128:" + xxhash.xxh3_128_hexdigest(data))


def test_empty_file(tmp_path: Path) -> None:
    write(tmp_path, "empty.md", b"")
    snap = snapshot(tmp_path, "empty.md")
    assert (snap.body, snap.size, snap.binary, snap.truncated) == ("", 0, False, False)
    assert snap.digest == "xx128:" + xxhash.xxh3_128_hexdigest(b"")


def test_unreadable_files_give_skip_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert read_file(tmp_path, "gone.txt") == Skipped("gone.txt", "vanished")
    write(tmp_path, "target.txt")
    (tmp_path / "link.txt").symlink_to(tmp_path / "target.txt")
    assert read_file(tmp_path, "link.txt").reason == "symlink"  # type: ignore[union-attr]
    real_open = os.open

    def deny(path: str | Path, flags: int, *args: int, **kwargs: int) -> int:
        if os.fspath(path).endswith("target.txt"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", deny)
    assert read_file(tmp_path, "target.txt").reason == "permission"  # type: ignore[union-attr]


def test_to_event(tmp_path: Path) -> None:
    write(tmp_path, "src/app.ts", "let x = 1;\n")
    event = to_event("my-repo", snapshot(tmp_path, "src/app.ts"), observed_at=12.5)
    assert isinstance(event, FileUpsert)
    assert (event.repo_id, event.path, event.language, event.observed_at) == (
        "my-repo",
        "src/app.ts",
        "typescript",
        12.5,
    )
    assert event.body == "let x = 1;\n" and event.digest.startswith("xx128:")


# --- manifest ---------------------------------------------------------------------------------


def test_manifest_round_trip_and_log_instance_change(tmp_path: Path) -> None:
    db = tmp_path / "source-manifest.db"
    row = ManifestRow(size=3, mtime_ns=10, digest="xx128:ab", anchor_ns=20)
    with Manifest(db) as manifest:
        assert manifest.load("repo", "log-1") == {}
        manifest.record("repo", {"a.py": row, "b.bin": ManifestRow(1, 1, None, 2)})
        manifest.forget("repo", ["b.bin"])
    with Manifest(db) as manifest:  # a restart
        assert manifest.load("repo", "log-1") == {"a.py": row}
        assert manifest.load("repo", "log-2") == {}  # the log was recreated: start over
        assert manifest.load("repo", "log-1") == {}
        manifest.record("repo", {"a.py": row})
        manifest.drop_repo("repo")
        assert manifest.load("repo", "log-1") == {}


def test_an_older_manifest_forgets_its_binaries_once_so_utf16_files_are_read(
    tmp_path: Path,
) -> None:
    """A manifest written before UTF-16 counted as text remembers such a file as an excluded
    binary, and the stat fast path would keep it out until it changed: the first open at the
    new sniff drops those rows (each binary is sniffed again once), later opens keep them."""
    db = tmp_path / "source-manifest.db"
    row = ManifestRow(size=3, mtime_ns=10, digest="xx128:ab", anchor_ns=20)
    with Manifest(db) as manifest:
        manifest.load("repo", "log-1")
        manifest.record("repo", {"a.py": row, "w.reg": ManifestRow(1, 1, None, 2)})
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 0")  # as written before the sniff version
    with Manifest(db) as manifest:
        assert manifest.load("repo", "log-1") == {"a.py": row}
        manifest.record("repo", {"b.bin": ManifestRow(1, 1, None, 2)})
    with Manifest(db) as manifest:
        assert manifest.load("repo", "log-1")["b.bin"].digest is None


# --- reconcile --------------------------------------------------------------------------------


def test_first_plan_adds_everything_in_bounded_batches(tmp_path: Path) -> None:
    for i in range(5):
        write(tmp_path, f"f{i}.py", f"v = {i}\n")
    progress: list[tuple[int, int | None]] = []
    batches, counts = run_plan(
        tmp_path, {}, batch_size=2, on_progress=lambda s, t: progress.append((s, t))
    )
    assert [len(b.upserts) for b in batches] == [2, 2, 1]
    assert upserted(batches) == [f"f{i}.py" for i in range(5)]
    assert counts.as_dict() == {
        "filesScanned": 5,
        "filesAdded": 5,
        "filesUpdated": 0,
        "filesRemoved": 0,
        "filesUnchanged": 0,
        "filesSkipped": 0,
        "filesUnreadable": 0,
    }
    assert progress[0] == (0, 5) and progress[-1] == (5, 5)


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Paths the planner reads (a spy on the reader it calls), in order."""
    seen: list[str] = []

    def counting_read(root: Path, rel: str, **kwargs: bool) -> ReadResult:
        seen.append(rel)
        return read_file(root, rel, **kwargs)

    monkeypatch.setattr(reconcile_module, "read_file", counting_read)
    return seen


def test_stat_fast_path_does_not_reread(tmp_path: Path, reads: list[str]) -> None:
    write(tmp_path, "same.py", "a = 1\n")
    write(tmp_path, "edited.py", "b = 1\n")
    known: dict[str, ManifestRow] = {}
    batches, _ = run_plan(tmp_path, known)
    apply_all(known, batches)
    reads.clear()
    write(tmp_path, "edited.py", "b = 22\n", age_ns=HOUR_NS // 2)
    batches, counts = run_plan(tmp_path, known, workers=1)
    assert reads == ["edited.py"]
    assert upserted(batches) == ["edited.py"]
    assert (counts.updated, counts.unchanged) == (1, 1)
    reads.clear()
    run_plan(tmp_path, known, workers=1, force_read=True)
    assert sorted(reads) == ["edited.py", "same.py"]


def test_racy_mtime_is_not_trusted(tmp_path: Path, reads: list[str]) -> None:
    write(tmp_path, "fresh.py", "x = 1\n", age_ns=0)  # written "just now"
    known: dict[str, ManifestRow] = {}
    apply_all(known, run_plan(tmp_path, known)[0])
    reads.clear()
    batches, counts = run_plan(tmp_path, known, workers=1)
    assert reads == ["fresh.py"]  # re-hashed once: the same tick could hide a second write
    assert upserted(batches) == [] and counts.unchanged == 1


def test_touched_but_identical_is_metadata_only(tmp_path: Path) -> None:
    write(tmp_path, "a.py", "same\n")
    known: dict[str, ManifestRow] = {}
    apply_all(known, run_plan(tmp_path, known)[0])
    write(tmp_path, "a.py", "same\n", age_ns=HOUR_NS // 3)
    batches, counts = run_plan(tmp_path, known)
    assert upserted(batches) == [] and deleted(batches) == []
    assert counts.unchanged == 1
    (batch,) = batches
    assert batch.record["a.py"].mtime_ns == os.stat(tmp_path / "a.py").st_mtime_ns


def test_deletions_from_absence_across_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "manifest.db"
    root = tmp_path / "repo"
    for name in ("keep.py", "drop.py", "sub/drop2.py"):
        write(root, name)
    with Manifest(db) as manifest:
        manifest.load("r", "log")
        for batch in plan_changes(root, WalkFilters(), {}):
            manifest.apply("r", batch.record, batch.forget)
    (root / "drop.py").unlink()
    (root / "sub" / "drop2.py").unlink()
    write(root, "new.py")
    with Manifest(db) as manifest:  # a new process
        known = manifest.load("r", "log")
        batches, counts = run_plan(root, known)
        for batch in batches:
            manifest.apply("r", batch.record, batch.forget)
        assert sorted(manifest.load("r", "log")) == ["keep.py", "new.py"]
    assert deleted(batches) == ["drop.py", "sub/drop2.py"]
    assert upserted(batches) == ["new.py"]
    assert (counts.added, counts.removed, counts.unchanged) == (1, 2, 1)


def test_newly_ignored_and_binary_files_are_removed(tmp_path: Path) -> None:
    write(tmp_path, "a.log", "log\n")
    write(tmp_path, "img.dat", "text for now\n")
    write(tmp_path, "blob.bin", b"\x00\x01")
    known: dict[str, ManifestRow] = {}
    batches, counts = run_plan(tmp_path, known)
    apply_all(known, batches)
    assert upserted(batches) == ["a.log", "img.dat"] and counts.skipped == 1
    assert known["blob.bin"].digest is None  # remembered, unpublished
    write(tmp_path, ".gitignore", "*.log\n")
    write(tmp_path, "img.dat", b"\x89PNG\x00\x00", age_ns=HOUR_NS // 2)
    (tmp_path / "blob.bin").unlink()
    batches, counts = run_plan(tmp_path, known)
    assert deleted(batches) == ["img.dat", "a.log"]  # no tombstone for the never-published blob
    assert upserted(batches) == [".gitignore"]
    assert counts.removed == 2


def test_a_huge_sparse_file_is_hashed_only_so_far(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # QA (hostile repository): `truncate -s 20G` on a file with a text head took 46 s to hash at
    # every read (a file growing as fast as it is read never ended), holding the index behind it.
    path = tmp_path / "huge.py"
    path.write_text("def head():\n    pass\n" * 500)
    os.truncate(path, 4 * 1024**3)
    read = 0
    real_read = os.read

    def counting(fd: int, n: int) -> bytes:
        nonlocal read
        data = real_read(fd, n)
        read += len(data)
        return data

    monkeypatch.setattr(os, "read", counting)
    first = read_file(tmp_path, "huge.py")
    assert isinstance(first, FileSnapshot)
    assert first.size == 4 * 1024**3 and "def head" in first.body
    assert read <= 256 * 1024 * 1024 + 1024 * 1024
    os.truncate(path, 4 * 1024**3 + 1)  # a change past the hashed part still changes the digest
    second = read_file(tmp_path, "huge.py")
    assert isinstance(second, FileSnapshot) and second.digest != first.digest
