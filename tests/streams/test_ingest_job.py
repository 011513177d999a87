"""The ingest job's progress snapshot: Running from acceptance, each run counted once."""

from __future__ import annotations

from streams.ingest_job import JobTracker


def test_an_accepted_run_reports_running_before_it_starts() -> None:
    job = JobTracker("repo")
    assert job.snapshot()["status"] == "None"
    job.accept()
    snapshot = job.snapshot()
    assert (snapshot["status"], snapshot["phase"], snapshot["attempt"]) == ("Running", "Walking", 1)
    assert snapshot["startedAt"] is not None and snapshot["completedAt"] is None


def test_the_start_after_acceptance_does_not_count_the_run_twice() -> None:
    job = JobTracker("repo", attempt=2)
    job.accept()
    job.start()
    assert job.attempt == 3
    job.finish()
    job.start()  # a later run (a CLI reconcile) counts again
    assert job.attempt == 4 and job.snapshot()["status"] == "Running"
