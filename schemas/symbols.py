"""Symbol and cross-reference records (replace-per-file, keyed `repoId/path`) and the models of
the tools that read them: outline, related, changed (spec §1.4, §2.3)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

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


class Reference(BaseModel):
    """`symbol` (fq name of the innermost enclosing declaration; "" at file level) references
    the simple name `name`; `qualified` is the name resolved through an import, when the
    language made that possible (e.g. `pkg.mod.Name`), else None."""

    model_config = ConfigDict(frozen=True)

    symbol: str
    name: str
    qualified: str | None = None


class XrefsRecord(Event):
    """Value of `xrefs.v1`: what one file imports and references."""

    type: Literal["xrefs"] = "xrefs"
    repo_id: str
    path: str
    digest: str
    language: str
    imports: list[str] = Field(default_factory=list)
    references: list[Reference] = Field(default_factory=list)


# -- tools --------------------------------------------------------------------------------


class PathArgs(ToolInput):
    repoId: str = Field(min_length=1, max_length=128, description="Repository id.")
    path: str = Field(min_length=1, max_length=4096, description="Repo-relative file path.")


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
    freshness: Freshness | None = None  # how far the views trail the log (filled by the server)


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
    freshness: Freshness | None = None  # how far the views trail the log (filled by the server)


class ChangedResult(ToolModel):
    repoId: str
    added: list[str] = Field(default_factory=list)
    updated: list[str] = Field(default_factory=list)
    removed: list[str] = Field(default_factory=list)
    dependents: list[SymbolAt] = Field(default_factory=list)
    # git sources only: the commit the index reflects and the ref's head it was compared with
    indexedCommit: str | None = None
    headCommit: str | None = None
