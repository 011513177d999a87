"""Events that sources and tools publish: repositories, files, control commands, dead letters."""

from __future__ import annotations

import codecs
import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

SCHEMA_VERSION = 1
KNOWN_MAJOR_VERSIONS = frozenset({SCHEMA_VERSION})
REPO_ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
MAX_BODY_CHARS = 65_536  # the reference stores at most 64 Ki characters of a file body
# What keyword search indexes of one file: far past MAX_BODY_CHARS (large files are searchable
# to their end), yet bounded so a 50 MB file costs one bounded read, tokenize and log record.
# The default; a deployable may lower or raise it (Settings.search_index_max_chars).
MAX_INDEXED_CHARS = 1_048_576
# What the setting accepts: at 4 Mi characters a files.v1 record of ASCII text is ~4 MiB of
# JSON, inside the 8 MiB the Kafka producer sends (streams/eventlog/kafka.py).
INDEXED_CHARS_RANGE = (MAX_BODY_CHARS, 4 * 1_048_576)
BINARY_SNIFF_BYTES = 8000  # git's heuristic: a NUL byte in the first 8000 bytes = binary
# Formats that open with tens of kilobytes of ASCII before their compressed streams: a PDF (and
# an Illustrator `.ai`, which is one) can lead with an XMP packet and hold its first NUL past
# the sniff (requests' `ext/requests-logo.ai`: byte 61,977), then its bytes were indexed as text.
BINARY_SIGNATURES = (b"%PDF-",)


# Text that Windows tools write (.reg, .ps1, .cs, .sql, .rc): UTF-16 behind a byte-order mark,
# where every other byte of ASCII is a NUL. A UTF-32 LE mark opens with the UTF-16 LE one.
UTF16_BOMS = ((codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))


def utf16_encoding(head: bytes) -> str | None:
    """`utf-16-le` or `utf-16-be` when `head` opens with that byte-order mark (not UTF-32's)
    and the rest of its first BINARY_SNIFF_BYTES hold no U+0000 (git's heuristic, applied to
    the characters); None otherwise."""
    if head.startswith(codecs.BOM_UTF32_LE):
        return None
    for bom, encoding in UTF16_BOMS:
        if head.startswith(bom):
            window = head[len(bom) : BINARY_SNIFF_BYTES]
            text = window[: len(window) & ~1].decode(encoding, "replace")
            return None if "\x00" in text else encoding
    return None


def looks_binary(head: bytes) -> bool:
    """Whether a file whose first bytes are `head` is binary: git's heuristic (a NUL in the
    first BINARY_SNIFF_BYTES) unless it is UTF-16 text (utf16_encoding), or a format
    BINARY_SIGNATURES names."""
    if utf16_encoding(head) is not None:
        return False
    return b"\x00" in head[:BINARY_SNIFF_BYTES] or head.startswith(BINARY_SIGNATURES)


_DECODERS = {
    "utf-8": codecs.utf_8_decode,
    "utf-16-le": codecs.utf_16_le_decode,
    "utf-16-be": codecs.utf_16_be_decode,
}


def decode_text(raw: bytes, final: bool, chars: int) -> tuple[str, bool]:
    """The first `chars` + 1 characters of a text file's first bytes (+1 tells a caller that
    it goes on) and whether any was replaced: UTF-16 behind its byte-order mark, else UTF-8
    (a UTF-8 mark dropped). `final` False: `raw` is a head, its cut last character held back.
    A bad sequence past the first `chars` characters is not counted as replaced."""
    encoding = utf16_encoding(raw)
    if encoding is not None:
        raw = raw[2:]
    else:
        encoding = "utf-8"
        raw = raw.removeprefix(codecs.BOM_UTF8)
    decode = _DECODERS[encoding]
    try:
        return decode(raw, "strict", final)[0][: chars + 1], False
    except UnicodeDecodeError as exc:
        clean = decode(raw[: exc.start], "strict", True)[0]
        if len(clean) > chars:  # the bad bytes lie beyond the published body
            return clean[: chars + 1], False
        return decode(raw, "replace", final)[0][: chars + 1], True


def validate_repo_id(value: str) -> str:
    if not REPO_ID_PATTERN.match(value):
        raise ValueError(
            "repoId must be 1-128 characters of letters, digits, '.', '_' or '-', "
            f"starting with a letter or digit (got {value[:40]!r})"
        )
    return value


def repo_id_from_name(name: str) -> str:
    """A valid repoId made from a directory name (`koajs+koa-e0ba8ef39d27` ->
    `koajs_koa-e0ba8ef39d27`): each run of other characters becomes `_`, a leading `.`, `_`
    or `-` goes, and it is cut to 128 characters. Empty when nothing usable is left."""
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "_", name).lstrip("._-")
    return cleaned[:128]


def file_key(repo_id: str, path: str) -> str:
    """Log key of a file and of every per-file record: `repoId/path` (path is repo-relative)."""
    return f"{repo_id}/{path}"


def split_file_key(key: str) -> tuple[str, str]:
    repo_id, _, path = key.partition("/")
    return repo_id, path


class Event(BaseModel):
    """Every event and record carries `v`, its schema's major version. Minor changes add
    optional fields and keep `v`; a value this build does not know was written by a newer
    (or foreign) writer whose meaning it cannot guess, so decoding refuses it and the step
    dead-letters the record with this reason instead of reading it wrongly."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    v: int = SCHEMA_VERSION

    @field_validator("v")
    @classmethod
    def _known_major(cls, value: int) -> int:
        if value not in KNOWN_MAJOR_VERSIONS:
            raise ValueError(
                f"unknown major schema version v={value} (this build reads "
                f"v={', '.join(map(str, sorted(KNOWN_MAJOR_VERSIONS)))}): written by a newer "
                "release; upgrade the reader or re-publish the record"
            )
        return value


class WalkFilters(BaseModel):
    """The walk filters a repository was registered with (kept so `changed` can re-walk alike)."""

    model_config = ConfigDict(frozen=True)

    include_globs: tuple[str, ...] = ()
    exclude_globs: tuple[str, ...] = ()
    respect_gitignore: bool = True
    exclude_binary: bool = True


class RepoRegistration(Event):
    """Value of `repos.v1` (key = repoId). A tombstone removes the repository."""

    type: Literal["repo"] = "repo"
    repo_id: str
    source: Literal["workspace", "git"] = "workspace"
    root: str | None = None  # absolute, guard-resolved path for workspace sources
    url: str | None = None  # git sources (never with userinfo)
    ref: str | None = None
    filters: WalkFilters = Field(default_factory=WalkFilters)
    registered_at: float  # unix seconds

    @field_validator("repo_id")
    @classmethod
    def _repo_id(cls, value: str) -> str:
        return validate_repo_id(value)


class FileUpsert(Event):
    """Value of `files.v1` (key = repoId/path). A tombstone (no value) means the file is gone."""

    type: Literal["file"] = "file"
    repo_id: str
    path: str  # repo-relative, '/'-separated
    digest: str  # "xx128:<hex>"
    size: int  # bytes on disk
    mtime_ns: int
    language: str = ""
    # The first characters of the file, decoded with replacement: up to the source's indexed
    # limit (MAX_INDEXED_CHARS by default), which search covers; the tools that return text
    # return only its first MAX_BODY_CHARS (records written before the limit hold at most those).
    body: str = ""
    truncated: bool = False  # the file goes on past `body`
    binary: bool = False  # only published when the repository keeps binaries (body then empty)
    decode_errors: bool = False  # invalid UTF-8 (or UTF-16, decode_text) was replaced
    source_revision: str | None = None  # git commit for git sources
    observed_at: float  # unix seconds when the source read it


class SourceStatus(Event):
    """Value of `sources.v1` (key = repoId): a git source's latest poll, so every reader can
    compare the commit its views reflect with the ref's current commit (freshness)."""

    type: Literal["source_status"] = "source_status"
    repo_id: str
    ref: str
    head_commit: str | None  # the ref's commit at `checked_at` (None: never fetched)
    # the newest commit whose every change the log has acknowledged (None: none yet)
    published_commit: str | None = None
    status: Literal["published", "unchanged", "fetch_failed"]
    error: str | None = None  # credentials already redacted
    checked_at: float  # unix seconds


class DeadLetter(Event):
    """Value of `deadletter.v1`: an input a step could not handle, kept whole with the error."""

    type: Literal["deadletter"] = "deadletter"
    step: str
    topic: str
    partition: int
    offset: int
    key: str | None
    value_b64: str | None
    error_type: str
    error: str
    failed_at: float
