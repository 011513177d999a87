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
from processors.structural import StructuralProcessor
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
    )


def view_sink_step() -> Step:
    """The sink step: record topics -> SQLite views (offsets stored in the views database)."""
    return Step(step_id=VIEW_SINK_GROUP, inputs=VIEW_TOPICS, kind="sink", sink="views")


def embedded_topology() -> tuple[Step, ...]:
    return (*pipeline_steps(), view_sink_step())
