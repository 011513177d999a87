"""Encoding of log values: JSON of the topic's model; `None` is a tombstone."""

from __future__ import annotations

from pydantic import BaseModel, ValidationError

from schemas import topics
from schemas.errors import DecodeError
from schemas.events import (
    DeadLetter,
    FileUpsert,
    RepoRegistration,
    SourceStatus,
)
from schemas.memory import CommandResult, MemoryCommand, MemoryEntry
from schemas.records import ContentRecord, StructureRecord
from schemas.symbols import SymbolsRecord, XrefsRecord

MODEL_OF_TOPIC: dict[str, type[BaseModel]] = {
    topics.REPOS.name: RepoRegistration,
    topics.FILES.name: FileUpsert,
    topics.STRUCTURE.name: StructureRecord,
    topics.CONTENT.name: ContentRecord,
    topics.SYMBOLS.name: SymbolsRecord,
    topics.XREFS.name: XrefsRecord,
    topics.SOURCES.name: SourceStatus,
    topics.DEADLETTER.name: DeadLetter,
    topics.MEMORY_COMMANDS.name: MemoryCommand,
    topics.MEMORY.name: MemoryEntry,
    topics.MEMORY_RESULTS.name: CommandResult,
}


def encode(model: BaseModel) -> bytes:
    return model.model_dump_json().encode("utf-8")


def decode(topic: str, value: bytes | None) -> BaseModel | None:
    """Decode a value of `topic`; a tombstone decodes to None. Raises DecodeError."""
    if value is None:
        return None
    model = MODEL_OF_TOPIC.get(topic)
    if model is None:
        raise DecodeError(f"no model registered for topic {topic!r}")
    try:
        return model.model_validate_json(value)
    except (ValidationError, ValueError) as exc:
        raise DecodeError(f"{topic}: {exc}") from exc


def register(topic: str, model: type[BaseModel]) -> None:
    """Let a later record family (symbols, xrefs, memory) register its model."""
    MODEL_OF_TOPIC[topic] = model
