"""A benchmarking tool's own modules (`src/benchmark/runner.rs`) are searched as its source:
the message its runner writes, pasted, finds the runner first, and a change request naming
what it does finds it above the options and the CLI (processors.path_roles.role_of). QA on
sharkdp/hyperfine: `Error: Could not measure shell execution time. ...` and `Add iteration
information to failure error message` found src/benchmark/executor.rs nowhere in ten."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

RUNNER = """\
use anyhow::{bail, Result};

use crate::options::Options;

pub struct Runner<'a> {
    options: &'a Options,
}

impl<'a> Runner<'a> {
    pub fn shell_spawning_time(&self) -> Result<f64> {
        match spawn(&self.options.shell) {
            Ok(time) => Ok(time),
            Err(_) => bail!(
                "Could not measure shell execution time. Make sure you can run '{} -c \\"\\"'.",
                self.options.shell
            ),
        }
    }

    pub fn run_iteration(&self, iteration: u64) -> Result<f64> {
        let status = execute(&self.options.command)?;
        if !status.success() {
            bail!("Command terminated with non-zero exit code in iteration {iteration}");
        }
        Ok(status.time)
    }
}
"""

FILES = {
    "Cargo.toml": '[package]\nname = "timeit"\nversion = "0.1.0"\n',
    "src/main.rs": (
        "mod benchmark;\nmod cli;\nmod error;\nmod options;\n\n"
        "fn main() {\n    if let Err(e) = run() {\n"
        '        eprintln!("Error: {e}");\n    }\n}\n'
    ),
    "src/benchmark/mod.rs": "pub mod runner;\n",
    "src/benchmark/runner.rs": RUNNER,
    "src/options.rs": (
        "/// The shell used to execute each command; its execution time is measured first\n"
        "pub struct Options {\n    pub shell: String,\n    pub command: String,\n"
        "    /// Make sure the command can run: fail on a non-zero exit code\n"
        "    pub fail_on_error: bool,\n}\n"
    ),
    "src/cli.rs": (
        'pub fn build() -> Command {\n    Command::new("timeit")\n'
        '        .arg(Arg::new("shell").help("The shell to run commands in. Its execution '
        'time is measured and subtracted; make sure you can run it."))\n'
        '        .arg(Arg::new("ignore-failure").help("Ignore a command\'s non-zero exit '
        'code instead of an error"))\n}\n'
    ),
    "src/error.rs": (
        "#[derive(Debug)]\npub enum OptionsError {\n"
        '    #[error("Could not parse the shell command line")]\n    ShellParse,\n}\n'
    ),
    "benches/startup.rs": (
        "fn bench_startup(c: &mut Criterion) {\n"
        '    c.bench_function("measure shell execution time", |b| b.iter(run));\n}\n'
    ),
}


async def _paths(tmp_path: Path, query: str) -> list[str]:
    async with indexed_app(tmp_path, FILES) as app:
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
    return [hit.entry.path or "" for hit in answer.hits]


async def test_the_runners_pasted_message_finds_the_runner(tmp_path: Path) -> None:
    query = "Error: Could not measure shell execution time. Make sure you can run 'bash -c \"\"'."
    assert (await _paths(tmp_path, query))[0] == "src/benchmark/runner.rs"


async def test_a_change_request_finds_the_runner(tmp_path: Path) -> None:
    query = "Add iteration information to failure error message"
    assert (await _paths(tmp_path, query))[0] == "src/benchmark/runner.rs"
