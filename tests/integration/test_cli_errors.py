"""Every CLI error is one line on stderr and a non-zero exit, never a traceback (issue 24
items 8-9). Each case runs the real `repocontext` command in a subprocess."""

from __future__ import annotations

import fcntl
import socket
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from tests.conftest import ServeProcess, child_env, cli_command, write_sample_repo
from tests.integration.mcp_helpers import http_session


def run_cli(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cli_command(*args), env=child_env(data_dir), capture_output=True, text=True, timeout=120
    )


def one_line_error(run: subprocess.CompletedProcess[str], *needles: str) -> str:
    """The run failed with exactly one line on stderr that contains every needle."""
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert run.returncode != 0, run.stderr
    assert len(lines) == 1, run.stderr
    assert "Traceback" not in run.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return write_sample_repo(tmp_path / "ws" / "sample")


def test_port_out_of_range(repo: Path, tmp_path: Path) -> None:
    run = run_cli(tmp_path / "data", "serve", str(repo), "--port", "99999")
    one_line_error(run, "--port", "from 0 to 65535", "99999")
    assert run.returncode == 2
    assert not (tmp_path / "data").exists()  # refused before anything was written


def test_port_from_the_environment_out_of_range(repo: Path, tmp_path: Path) -> None:
    run = subprocess.run(
        cli_command("serve", str(repo)),
        env={**child_env(tmp_path / "data"), "REPOCONTEXT_PORT": "99999"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    one_line_error(run, "99999", "65535")
    assert "serving" not in run.stderr


@pytest.mark.parametrize("port", ["-1", "65536"])
def test_a_port_setting_out_of_range_names_the_variable(
    repo: Path, tmp_path: Path, port: str
) -> None:
    run = subprocess.run(
        cli_command("serve", str(repo)),
        env={**child_env(tmp_path / "data"), "REPOCONTEXT_PORT": port},
        capture_output=True,
        text=True,
        timeout=120,
    )
    one_line_error(run, "REPOCONTEXT_PORT", port)
    assert not (tmp_path / "data").exists()  # refused before anything was written


@pytest.mark.parametrize(
    ("variable", "value", "says"),
    [
        ("REPOCONTEXT_BATCH_SIZE", "0", "greater than or equal to 1"),  # `index` hung
        ("REPOCONTEXT_BATCH_SIZE", "-5", "greater than or equal to 1"),
        ("REPOCONTEXT_TOOL_TIMEOUT_S", "0", "greater than 0"),  # every call timed out
        ("REPOCONTEXT_TOOL_TIMEOUT_S", "nan", "finite"),
        ("REPOCONTEXT_DEBOUNCE_MS", "-100", "greater than or equal to 0"),
    ],
)
def test_a_setting_out_of_its_range_is_refused_before_anything_runs(
    repo: Path, tmp_path: Path, variable: str, value: str, says: str
) -> None:
    run = subprocess.run(
        cli_command("index", str(repo)),
        env={**child_env(tmp_path / "data"), variable: value},
        capture_output=True,
        text=True,
        timeout=60,
    )
    one_line_error(run, variable, says, value)
    assert run.returncode == 2 and not (tmp_path / "data").exists()


def test_a_directory_name_that_is_no_valid_id_is_made_one(tmp_path: Path) -> None:
    """`make run REPO=<checkouts>/koajs+koa-e0ba8ef39d27` was refused: the id is derived from
    the directory name, with '_' for the characters an id may not hold."""
    repo = write_sample_repo(tmp_path / "ws" / "koajs+koa-e0ba8ef39d27")
    run = run_cli(tmp_path / "data", "index", str(repo))
    assert run.returncode == 0, run.stderr
    assert '"repoId": "koajs_koa-e0ba8ef39d27"' in run.stdout


def test_an_invalid_repo_id_names_the_option(repo: Path, tmp_path: Path) -> None:
    run = run_cli(tmp_path / "data", "index", str(repo), "--repo-id", "koajs+koa")
    one_line_error(run, "--repo-id", "koajs+koa")
    assert run.returncode == 2
    assert not (tmp_path / "data").exists()


def test_port_in_use_is_refused_before_serving_is_logged(repo: Path, tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = run_cli(tmp_path / "data", "serve", str(repo), "--port", str(port))
    one_line_error(run, f"127.0.0.1:{port}", "already in use")
    assert "serving" not in run.stderr


def test_data_directory_lock_held(repo: Path, tmp_path: Path) -> None:
    """A holder that serves no agents (a one-shot command) is waited for, said in one line;
    a server is indexed through (tests/integration/test_several_agents.py)."""
    data = tmp_path / "data"
    data.mkdir()
    with open(data / "lock", "a+") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        waiting = subprocess.Popen(
            cli_command("index", str(repo)),
            env=child_env(data),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert waiting.stderr is not None
        said = [waiting.stderr.readline()]  # blocks until a line is said
        while said[-1] and "waiting" not in said[-1]:  # (after the data-dir permission fix)
            said.append(waiting.stderr.readline())
        assert "waiting for it to finish" in said[-1] and str(data) in said[-1], said
        assert waiting.poll() is None
    out, err = waiting.communicate(timeout=120)  # the lock is free: it indexes
    assert waiting.returncode == 0, err
    assert '"status": "Completed"' in out and "Traceback" not in err


def test_eval_without_git_history(repo: Path, tmp_path: Path) -> None:
    run = run_cli(tmp_path / "data", "eval", str(repo))
    one_line_error(run, "eval", "no git history")


@pytest.mark.parametrize("command", ["index", "search", "eval", "serve"])
def test_a_path_that_does_not_exist(tmp_path: Path, command: str) -> None:
    extra = ["some query"] if command == "search" else []
    run = run_cli(tmp_path / "data", command, str(tmp_path / "missing"), *extra)
    one_line_error(run, str(tmp_path / "missing"), "does not exist")
    assert run.returncode == 2


def test_a_refused_path_is_said_before_the_service_is_loaded(tmp_path: Path) -> None:
    """The path is checked before the commands import the whole service (seconds of
    imports), so a mistyped path is refused at once."""
    script = (
        "import sys; from repocontext.cli import main; "
        f"status = main(['index', {str(tmp_path / 'missing')!r}]); "
        "print(status, 'repocontext.commands' in sys.modules)"
    )
    run = subprocess.run(
        [sys.executable, "-c", script],
        env=child_env(tmp_path / "data"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.stdout.split() == ["2", "False"], run.stderr
    assert "does not exist" in run.stderr


def test_a_data_directory_that_cannot_be_created(repo: Path, tmp_path: Path) -> None:
    """It said 'No such file or directory: PATH' or 'Not a directory: PATH', naming
    neither what PATH is nor the setting that put it there."""
    (tmp_path / "a-file").write_text("")
    run = run_cli(tmp_path / "a-file" / "data", "index", str(repo))
    one_line_error(run, "cannot create the data directory", "REPOCONTEXT_DATA_DIR")
    assert run.returncode == 1


def test_a_file_where_a_directory_is_expected(repo: Path, tmp_path: Path) -> None:
    run = run_cli(tmp_path / "data", "index", str(repo / "docs" / "guide.md"))
    one_line_error(run, "guide.md", "is a file")


def test_a_bare_repository_is_pointed_at_git_source(repo: Path, tmp_path: Path) -> None:
    """A QA pass: `index x.git` indexed git's hooks and config as the repository's files."""
    subprocess.run(["git", "init", "-q", "--bare", str(tmp_path / "x.git")], check=True)
    run = run_cli(tmp_path / "data", "index", str(tmp_path / "x.git"))
    one_line_error(run, "x.git", "is a bare git repository")
    assert "git-source" in run.stderr and run.returncode == 2


def test_a_commands_option_before_the_command_says_where_it_goes(tmp_path: Path) -> None:
    """A QA pass: `repocontext --data-dir /tmp/d eval PATH` answered "argument command:
    invalid choice: '/tmp/d'", naming the option's value as the command and the option not
    at all; --data-dir, --embedder and --workspace-root are options of the commands."""
    for option, value in (("--data-dir", str(tmp_path / "d")), ("--embedder", "none")):
        run = run_cli(tmp_path / "data", option, value, "status")
        line = one_line_error(run, f"{option} is an option of the commands", "after the command")
        assert "invalid choice" not in line and run.returncode == 2
    assert not (tmp_path / "d").exists()


@pytest.mark.parametrize("command", ["index", "eval"])
def test_a_checkouts_git_directory_is_pointed_at_its_work_tree(
    tmp_path: Path, command: str
) -> None:
    """A QA pass: `eval clone/.git` said "a bare git repository ... serve its commits with
    repocontext git-source", when the remedy is the checkout above it."""
    tree = tmp_path / "clone"
    subprocess.run(["git", "init", "-q", str(tree)], check=True)
    run = run_cli(tmp_path / "data", command, str(tree / ".git"))
    one_line_error(run, "is the git directory of the checkout", f"pass {tree}")
    assert "bare" not in run.stderr and run.returncode == 2
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize("command", ["index", "search"])
def test_a_path_outside_the_workspace_root_is_refused_before_anything_is_written(
    repo: Path, tmp_path: Path, command: str
) -> None:
    """It was refused only once the service had created the data directory (log.db,
    views.db, a lock), and a root that does not exist read as 'outside the workspace root'."""
    extra = ["some query"] if command == "search" else []
    other = tmp_path / "elsewhere"
    other.mkdir()
    for root, needles in (
        (other, (str(repo), "outside --workspace-root")),
        (tmp_path / "missing", ("--workspace-root", "does not exist")),
        (repo / "docs" / "guide.md", ("--workspace-root", "is a file")),
    ):
        args = (command, str(repo), *extra, "--workspace-root", str(root))
        run = run_cli(tmp_path / "data", *args)
        one_line_error(run, *needles)
        assert run.returncode == 2
        assert not (tmp_path / "data").exists()  # refused before anything was written


def test_bad_option_values(repo: Path, tmp_path: Path) -> None:
    one_line_error(run_cli(tmp_path / "data", "search", str(repo), "x", "-k", "-5"), "-k")
    one_line_error(run_cli(tmp_path / "data", "search", str(repo)), "query")  # missing argument
    # an empty query is the argument's fault, not a REPOCONTEXT_QUERY variable's (none exists)
    empty = one_line_error(run_cli(tmp_path / "data", "search", str(repo), " "), "argument query")
    assert "must not be empty" in empty and "REPOCONTEXT_" not in empty


def test_an_unknown_option_points_at_its_command_help(repo: Path, tmp_path: Path) -> None:
    """`repocontext index PATH --bogus` said `repocontext: unrecognized arguments: --bogus (see
    repocontext --help)`, whose help lists the commands, not index's options."""
    line = one_line_error(run_cli(tmp_path / "data", "index", str(repo), "--bogus"), "--bogus")
    assert "repocontext index: unrecognized arguments" in line
    assert "(see repocontext index --help)" in line
    export = run_cli(tmp_path / "data", "memory", "export", "f.jsonl", "--bogus")
    assert "(see repocontext memory export --help)" in one_line_error(export, "--bogus")
    assert not (tmp_path / "data").exists()


@pytest.mark.anyio
async def test_client_disconnects_are_not_errors(repo: Path, tmp_path: Path) -> None:
    server = ServeProcess(repo, tmp_path / "data")
    try:
        for _ in range(3):  # each SDK client closes its event stream on exit
            async with http_session(server.base) as session:
                await session.list_tools()
        async with http_session(server.base) as session:  # still serving afterwards
            await session.list_tools()
        await anyio.sleep(0)
    finally:
        server.stop()
    log = server.log_path.read_text()
    assert f"serving MCP at http://127.0.0.1:{server.port}/mcp" in log
    assert "Traceback" not in log and " ERROR " not in log, log[-3000:]


def test_replay_refused_while_another_process_holds_the_data_directory(tmp_path: Path) -> None:
    """`replay` drops the views only once it holds the lock: refused, it deletes nothing (it
    used to unlink views.db under a live server, whose new connections then read an empty
    file, and so did `status` and `search`)."""
    from streams.stores import ViewStore
    from streams.stores.views.handlers import default_registry

    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    ViewStore(data / "views.db", default_registry()).close()
    (data / "lock").touch()
    for path in data.iterdir():  # private, as the service leaves them: no warning to say
        path.chmod(0o600)
    before = (data / "views.db").stat().st_ino
    with open(data / "lock", "a+") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        run = run_cli(data, "replay")
    one_line_error(run, "replay", "another repocontext process", str(data))
    assert (data / "views.db").stat().st_ino == before  # the same file, never deleted
