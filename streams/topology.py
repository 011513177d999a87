"""The pipeline topology, declared once as data and run by every runtime.

A step reads its input topics after its committed offsets and either runs a processor whose
outputs are appended to the log (`processor` steps) or hands decoded records to a store
(`sink` steps). Step ids are consumer-group names, so renaming one replays it from 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from processors.base import Processor
from processors.content import ContentProcessor
from processors.memory import MemoryProcessor
from processors.structural import StructuralProcessor
from processors.symbols.processor import SymbolsProcessor
from schemas import topics


@dataclass(frozen=True)
class Step:
    step_id: str
    inputs: tuple[str, ...]
    kind: Literal["processor", "sink"]
    processor: Processor | None = None
    outputs: tuple[str, ...] = ()
    sink: Literal["views"] | None = None


VIEW_SINK_GROUP = "views"

# Topics the view sink materialises; later issues append theirs (symbols, xrefs, memory).
VIEW_TOPICS: tuple[str, ...] = (
    topics.REPOS.name,
    topics.STRUCTURE.name,
    topics.CONTENT.name,
    topics.SYMBOLS.name,
    topics.XREFS.name,
    topics.MEMORY.name,  # memory issue: current entries
    topics.MEMORY_RESULTS.name,  # memory issue: command verdicts (read-your-writes)
    topics.SOURCES.name,  # git sources' latest polls (freshness)
)


def pipeline_steps() -> tuple[Step, ...]:
    """Processor steps: file events -> record topics."""
    return (
        Step(
            step_id="structural",
            inputs=(topics.FILES.name,),
            kind="processor",
            processor=StructuralProcessor(),
            outputs=(topics.STRUCTURE.name,),
        ),
        Step(
            step_id="content",
            inputs=(topics.FILES.name,),
            kind="processor",
            processor=ContentProcessor(),
            outputs=(topics.CONTENT.name,),
        ),
        Step(
            step_id="symbols",
            inputs=(topics.FILES.name,),
            kind="processor",
            processor=SymbolsProcessor(),
            outputs=(topics.SYMBOLS.name, topics.XREFS.name),
        ),
    )


def memory_step() -> Step:
    """The single writer of memory.v1 (a keyed-state step: see streams/runtime/keyed.py)."""
    return Step(
        step_id="memory",
        inputs=(topics.MEMORY_COMMANDS.name,),
        kind="processor",
        processor=MemoryProcessor(),
        outputs=(topics.MEMORY.name, topics.MEMORY_RESULTS.name),
    )


def view_sink_step() -> Step:
    """The sink step: record topics -> SQLite views (offsets stored in the views database)."""
    return Step(step_id=VIEW_SINK_GROUP, inputs=VIEW_TOPICS, kind="sink", sink="views")


def embedded_topology() -> tuple[Step, ...]:
    return (*pipeline_steps(), memory_step(), view_sink_step())
