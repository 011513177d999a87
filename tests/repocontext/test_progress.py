"""Progress on a terminal: one bar per stage, each with its own count (issue 24 item 11)."""

from __future__ import annotations

import logging

import pytest

from repocontext.progress import ProgressReporter


def test_on_a_terminal_each_stage_has_a_bar_and_none_is_left_empty() -> None:
    with ProgressReporter("indexing koa", interactive=True) as progress:
        progress.stage("reading files", 3)
        progress(3, 3)
        progress.stage("processing records", 10)
        progress(10, 10)
        bars = progress._progress.tasks if progress._progress is not None else []
        shown = [(t.description, t.completed, t.total) for t in bars]
    # the label's own bar became the first stage's: no bar pulses at 0/? to the end
    assert shown == [
        ("indexing koa: reading files", 3, 3),
        ("indexing koa: processing records", 10, 10),
    ]


def test_a_fast_stage_ends_with_its_duration_not_an_unknown_rate(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Off a terminal the last line of a stage said `(?/s, eta -)` when it took under the
    rate's minimum (a QA pass read it after every fast stage)."""
    caplog.set_level(logging.INFO, logger="repocontext.progress")
    with ProgressReporter("indexing koa", interactive=False) as progress:
        progress.stage("reading files", 3)
        progress(3, 3)
    last = [r.getMessage() for r in caplog.records if r.getMessage().startswith("progress")][-1]
    assert (
        last.startswith("progress indexing koa: reading files: 3/3 (done in ") and "?/s" not in last
    )
