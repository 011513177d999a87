"""A data directory whose socket path is too long for a Unix socket: a second process cannot
attach to its owner, and says so at once. A QA pass: it waited forever, logging that the
owner "serves no agents (a one-shot command, or one starting or exiting)"."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from repocontext.app import EmbeddedApp
from tests.conftest import child_env, cli_command
from tests.integration.memory_rig import rig_settings

pytestmark = pytest.mark.anyio


async def test_a_second_process_says_why_it_cannot_attach(tmp_path: Path) -> None:
    data = tmp_path / ("d" * 110)
    settings = rig_settings(tmp_path).model_copy(update={"data_dir": data})
    async with EmbeddedApp(settings, watch=False):  # holds the lock; no socket can be bound
        run = subprocess.run(
            cli_command("search", str(tmp_path), "anything"),
            env=child_env(data),
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert run.returncode == 1, run.stderr[-2000:]
    assert "longer than a Unix socket allows" in run.stderr and "--data-dir" in run.stderr
    assert "Traceback" not in run.stderr
