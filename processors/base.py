"""The processor contract shared by both runtimes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import BaseModel


@dataclass(frozen=True, slots=True)
class ProcessContext:
    """Everything impure a processor may need, passed in as values."""

    now: float = 0.0
    settings: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Emit:
    """One output record. `value=None` is a tombstone for `key`."""

    topic: str
    key: str | None
    value: BaseModel | None


class Processor(Protocol):
    """`process` maps one decoded input (None = tombstone) to the records it implies.

    Must be deterministic: the same input always yields the same outputs, so replay and
    at-least-once redelivery are harmless.
    """

    name: str

    def process(
        self, topic: str, key: str | None, event: BaseModel | None, ctx: ProcessContext
    ) -> list[Emit]: ...


class KeyedProcessor(Protocol):
    """A processor that needs the current value of its key: the runtime keeps every key's
    value of `state_topic` (which this processor alone writes) and hands it in as `state`,
    so the processor stays pure. `position` is the input's log position (fencing tokens).
    """

    name: str
    state_topic: str

    def process_keyed(
        self,
        state: Mapping[str, BaseModel | None],
        key: str | None,
        event: BaseModel | None,
        position: int,
    ) -> list[Emit]: ...

    def migrations(self, state: Mapping[str, BaseModel | None]) -> list[Emit]:
        """Commands for the step's input that bring state an older version of the processor
        wrote up to date; the runtime appends them at start and `process_keyed` applies them
        in order with every other command, so the processor stays the state's one writer."""
        ...
