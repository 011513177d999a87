"""The topology is data: every step says its kind, and carries exactly what that kind runs."""

from __future__ import annotations

import pytest

from processors.memory import MemoryProcessor
from processors.structural import StructuralProcessor
from schemas import topics
from streams.topology import (
    VIEW_SINK_GROUP,
    Step,
    embedded_topology,
    replica_topology,
    topology,
    vector_step,
    worker_steps,
)
from streams.vectors_step import VectorIndexer


def test_every_step_has_an_explicit_kind() -> None:
    kinds = {s.step_id: s.kind for s in topology()}
    assert kinds == {
        "structural": "processor",
        "content": "processor",
        "symbols": "processor",
        "memory": "keyed",
        "vectors": "vectors",
        VIEW_SINK_GROUP: "sink",
    }


def test_the_memory_writer_is_keyed_and_has_no_stateless_entry_point() -> None:
    [memory] = [s for s in topology() if s.kind == "keyed"]
    assert isinstance(memory.keyed, MemoryProcessor) and memory.processor is None
    assert not hasattr(MemoryProcessor(), "process")


def test_the_vector_step_is_declared_in_the_topology_and_the_indexer_reads_its_inputs() -> None:
    assert vector_step() in topology()
    assert VectorIndexer.input_topics() == vector_step().inputs
    assert vector_step().inputs[0] == topics.MEMORY.name  # spec order: memory first


def test_each_runtime_takes_the_steps_it_drives() -> None:
    assert [s.kind for s in worker_steps()] == ["processor", "processor", "processor", "keyed"]
    assert "vectors" not in {s.kind for s in embedded_topology()}
    assert [s.kind for s in replica_topology()] == ["sink"]


@pytest.mark.parametrize(
    ("kind", "carries"),
    [
        ("processor", {"keyed": MemoryProcessor()}),
        ("keyed", {"processor": StructuralProcessor()}),
        ("sink", {}),
        ("vectors", {"sink": "views"}),
    ],
)
def test_a_step_that_does_not_carry_what_its_kind_runs_is_refused(
    kind: str, carries: dict[str, object]
) -> None:
    with pytest.raises(ValueError, match=f"step 'x' of kind '{kind}' must carry"):
        Step(step_id="x", inputs=("t",), kind=kind, **carries)  # type: ignore[arg-type]
