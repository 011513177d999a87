"""The pipeline topology, declared once as data and run by every runtime.

A step reads its input topics after its committed offsets. Its kind says how it runs:
- `processor`: a stateless processor whose outputs are appended to the log; any process may
  run any partition of it (a worker pool, several workers);
- `keyed`: a processor that also needs the current value of its key (the memory writer); the
  runtime keeps that state in the running process (streams/runtime/keyed.py);
- `vectors`: records -> passages -> embeddings -> the vector store; driven apart from the
  others (streams/vectors_step.py) because its batches wait on an embedder, with one consumer
  group per embedding space (`vectors-<space fingerprint>`);
- `sink`: decoded records handed to the views.
Step ids are consumer-group names, so renaming one replays it from 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from processors.base import KeyedProcessor, Processor
from processors.content import ContentProcessor
from processors.memory import MemoryProcessor
from processors.structural import StructuralProcessor
from processors.symbols.processor import SymbolsProcessor
from schemas import topics

StepKind = Literal["processor", "keyed", "vectors", "sink"]


@dataclass(frozen=True)
class Step:
    step_id: str
    inputs: tuple[str, ...]
    kind: StepKind
    processor: Processor | None = None  # `processor` steps
    outputs: tuple[str, ...] = ()
    sink: Literal["views"] | None = None  # `sink` steps
    keyed: KeyedProcessor | None = None  # `keyed` steps

    def __post_init__(self) -> None:
        # a step must carry exactly what its kind runs: a runtime dispatches on the kind alone
        has = {
            "processor": self.processor is not None,
            "keyed": self.keyed is not None,
            "sink": self.sink is not None,
        }
        wanted = {self.kind} & set(has)
        if {k for k, v in has.items() if v} != wanted:
            raise ValueError(
                f"step {self.step_id!r} of kind {self.kind!r} must carry "
                f"{' '.join(wanted) or 'no processor or sink'} and nothing else"
            )


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
        kind="keyed",
        keyed=MemoryProcessor(),
        outputs=(topics.MEMORY.name, topics.MEMORY_RESULTS.name),
    )


VECTORS_STEP_ID = "vectors"  # the consumer-group prefix of every embedding space


def vector_step() -> Step:
    """Memory, files, then symbols (spec §2.5 order), then repositories (their removal
    retires their vectors). Its outputs are points in the vector store, not topics."""
    return Step(
        step_id=VECTORS_STEP_ID,
        inputs=(topics.MEMORY.name, topics.CONTENT.name, topics.SYMBOLS.name, topics.REPOS.name),
        kind="vectors",
    )


def view_sink_step() -> Step:
    """The sink step: record topics -> SQLite views (offsets stored in the views database)."""
    return Step(step_id=VIEW_SINK_GROUP, inputs=VIEW_TOPICS, kind="sink", sink="views")


def topology() -> tuple[Step, ...]:
    """Every step, in the order a pass runs them."""
    return (*pipeline_steps(), memory_step(), vector_step(), view_sink_step())


def worker_steps() -> tuple[Step, ...]:
    """The steps a log-writing worker runs: processors and the keyed memory writer."""
    return tuple(s for s in topology() if s.kind in ("processor", "keyed"))


def embedded_topology() -> tuple[Step, ...]:
    """The steps EmbeddedRuntime drives (the vector step runs in the vector plane)."""
    return tuple(s for s in topology() if s.kind != "vectors")


def replica_topology() -> tuple[Step, ...]:
    """A distributed query replica: the view sink alone (workers run the processors)."""
    return (view_sink_step(),)
