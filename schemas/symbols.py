"""Symbol and cross-reference records (replace-per-file, keyed `repoId/path`) and the models of
the tools that read them: outline, related, changed (spec §1.4, §2.3)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from schemas.bounds import int_arg
from schemas.events import Event
from schemas.tools import Freshness, ToolInput, ToolModel

SymbolKind = Literal[
    "Namespace", "Type", "Interface", "Enum", "Method", "Property", "Field", "Function", "Other"
]
SYMBOL_KINDS: tuple[str, ...] = (
    "Namespace",
    "Type",
    "Interface",
    "Enum",
    "Method",
    "Property",
    "Field",
    "Function",
    "Other",
)


class SymbolDef(BaseModel):
    """One declaration. `fq_name` is unique within its file (overloads carry parameter types)."""

    model_config = ConfigDict(frozen=True)

    fq_name: str
    name: str
    kind: SymbolKind
    signature: str
    start_line: int  # 1-based
    end_line: int  # 1-based, inclusive
    digest: str  # xxh3-64 of the declaration's text


class SymbolsRecord(Event):
    """Value of `symbols.v1`: every symbol one file declares (empty for unknown languages)."""

    type: Literal["symbols"] = "symbols"
    repo_id: str
    path: str
    digest: str
    language: str
    symbols: list[SymbolDef] = Field(default_factory=list)
    # which extractor made the record (processors/symbols/processor.py: PROCESSOR_VERSION); 0:
    # one older than the field. An older one is re-derived at start (streams/runtime/rederive.py)
    processor_version: int = 0
    # The file's BM25 terms, space-joined, as the views index them: each declaration's simple
    # name and each signature, tokenized (processors/symbols/terms.py). Empty in records made
    # before processor version 9, which re-derivation replaces.
    symbol_terms: str = ""
    signature_terms: str = ""


# One reference: (symbol, name, qualified). `symbol` is the fq name of the innermost enclosing
# declaration ("" at file level), `name` the referenced simple name, `qualified` the name
# resolved through an import when the language made that possible (e.g. `pkg.mod.Name`), else
# None. A tuple, not a model: a file has hundreds of them, and as models they cost an order of
# magnitude more to validate and twice the bytes in the log.
Reference = tuple[str, str, str | None]


class XrefsRecord(Event):
    """Value of `xrefs.v1`: what one file imports and references."""

    type: Literal["xrefs"] = "xrefs"
    repo_id: str
    path: str
    digest: str
    language: str
    imports: list[str] = Field(default_factory=list)
    references: list[Reference] = Field(default_factory=list)
    # distinct references past the extractor's bound per file (a generated file) that it left
    # out: the reverse index does not know them, and the views say so when they apply this
    references_dropped: int = Field(default=0, ge=0)
    processor_version: int = 0  # as SymbolsRecord's

    @field_validator("references", mode="before")
    @classmethod
    def _legacy_objects(cls, value: Any) -> Any:
        """Logs written before references were tuples hold them as objects: replay reads both."""
        if isinstance(value, list) and value and isinstance(value[0], dict):
            return [_legacy_reference(item) for item in value]
        return value


def _legacy_reference(item: Any) -> Any:
    if not isinstance(item, dict):
        return item  # let validation name what is wrong with it
    return (item.get("symbol"), item.get("name"), item.get("qualified"))


# -- tools --------------------------------------------------------------------------------


class PathArgs(ToolInput):
    repoId: str = Field(min_length=1, max_length=128, description="Repository id.")
    path: str = Field(min_length=1, max_length=4096, description="Repo-relative file path.")


# An outline lists at most this many declarations per answer, so that a generated module's
# outline stays under the 25k-token tool output common MCP clients keep (docs/answers.md).
MAX_OUTLINE_SYMBOLS = 400
MAX_OFFSET = 100_000_000  # a page offset past any real file's declarations or dependents


class OutlineArgs(PathArgs):
    offset: int = int_arg(
        0,
        0,
        MAX_OFFSET,
        f"Declarations to skip. A file declaring more than {MAX_OUTLINE_SYMBOLS:,} symbols "
        "is outlined a page at a time: pass the answer's nextOffset for the next page.",
    )


# A related answer lists at most this many dependent files and as many test files, and at most
# this many symbol/path pairs in each list, shared out evenly over its files: a file every
# other file uses (jsoup's Jsoup.java: 498 dependent files, 498 test files) answered 42k
# tokens, past the 25k-token tool output common MCP clients keep (docs/answers.md).
MAX_RELATED_FILES = 40
MAX_RELATED_PAIRS = 100


class RelatedArgs(PathArgs):
    offset: int = int_arg(
        0,
        0,
        MAX_OFFSET,
        f"Dependent and test files to skip. More than {MAX_RELATED_FILES} of either, "
        "most related first, come a page at a time: pass the answer's nextOffset.",
    )


class ChangedArgs(ToolInput):
    repoId: str = Field(min_length=1, max_length=128, description="Repository id.")
    path: str = Field(
        min_length=1,
        max_length=4096,
        description="The repository root, or a directory inside it to scope the answer.",
    )


class OutlineSymbol(ToolModel):
    fullyQualifiedName: str
    kind: str
    signature: str
    startLine: int
    endLine: int


class OutlineResult(ToolModel):
    repoId: str
    path: str
    exists: bool
    fullReadTokenCount: int | None = None
    symbols: list[OutlineSymbol] = Field(default_factory=list)
    freshness: Freshness | None = None  # how far the views trail the log (set by the service)
    # Our addition, only for a file longer than the stored body: true when the body (and so
    # `fullReadTokenCount`) stops at 64 Ki characters, the line it stops in (`symbols` go on
    # past it), and where keyword search and `symbols` stop when the file is longer than the
    # indexed limit too (null: they cover it all).
    truncated: bool | None = None
    truncatedAtLine: int | None = None
    indexedChars: int | None = None
    # Our addition, so an agent knows how long the file is before it reads it: its lines
    # (absent for a truncated file, whose total the index does not hold: its stored text
    # ends in `truncatedAtLine`) and its size on disk (the reference's file-node `sizeBytes`).
    lineCount: int | None = None
    sizeBytes: int | None = None
    # Our addition, only when `symbols` is one page of a longer list (a caller's `offset`, or
    # more declarations than one answer lists): how many the file declares, and the offset of
    # the next page (absent on the last).
    symbolCount: int | None = None
    nextOffset: int | None = None
    # Our addition, only with `exists: false` where the views can say why: the path is a
    # directory with indexed files under it (outline and related take a file).
    note: str | None = None


class SymbolAt(ToolModel):
    symbol: str
    path: str


class RelatedResult(ToolModel):
    repoId: str
    path: str
    exists: bool
    imports: list[str] = Field(default_factory=list)
    dependents: list[SymbolAt] = Field(default_factory=list)
    tests: list[SymbolAt] = Field(default_factory=list)
    freshness: Freshness | None = None  # how far the views trail the log (set by the service)
    # Our addition, only when `dependents` and `tests` are one page of longer lists (a
    # caller's `offset`, more files than MAX_RELATED_FILES, or more symbols than
    # MAX_RELATED_PAIRS): how many symbol/path pairs and files each list holds in all (as far
    # as the bounded lookup reads: at most 500 files a list), and the offset of the next page
    # (absent on the last).
    dependentCount: int | None = None
    dependentFiles: int | None = None
    testCount: int | None = None
    testFiles: int | None = None
    nextOffset: int | None = None
    note: str | None = None  # as OutlineResult's: why a path with `exists: false` is no file


# One `changed` answer lists at most this many paths per list and dependents: a branch switch
# or a generated tree can change thousands of files, past the 25k-token output cut common MCP
# clients keep (docs/answers.md). The counts and the note say how many there are.
MAX_CHANGED_PATHS = 300
MAX_CHANGED_DEPENDENTS = 100


class ChangedResult(ToolModel):
    repoId: str
    added: list[str] = Field(default_factory=list)
    updated: list[str] = Field(default_factory=list)
    removed: list[str] = Field(default_factory=list)
    dependents: list[SymbolAt] = Field(default_factory=list)
    # Our addition, only when a list above was cut: how many it holds in all, and what to do
    addedCount: int | None = None
    updatedCount: int | None = None
    removedCount: int | None = None
    dependentCount: int | None = None
    note: str | None = None
    # git sources only: the commit the index reflects and the ref's head it was compared with
    indexedCommit: str | None = None
    headCommit: str | None = None
