"""The `repocontext` command line: the composition root of the embedded deployment."""

from __future__ import annotations

import argparse
import asyncio
import logging
import math
import os
import sys
from pathlib import Path
from typing import Any, NoReturn

from query_api.errors import UsageError
from query_api.settings import Settings, default_data_dir, served_workspace
from repocontext.data_dir import PRIVATE_UMASK
from schemas.errors import RepoContextError
from schemas.events import validate_repo_id
from streams.sources.git_tracked import is_bare_repository

log = logging.getLogger("repocontext")
# Commands that end on their own: SIGTERM stops them as Ctrl-C does, exit 128 + 15 (the
# long-running ones handle it themselves and exit 0; repocontext/command_io.py).
ONE_SHOT = frozenset({"index", "search", "eval", "status", "replay", "topics", "memory"})
# the local commands without PATH: their project is the one served in or above the directory
# they run in (served_workspace), unless --workspace-root or --data-dir names it
PATHLESS = frozenset({"status", "replay", "topics", "memory"})


class CliParser(argparse.ArgumentParser):
    """argparse whose refusals are one line (`repocontext serve: --port: ...`), not usage text."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def bounded(kind: type[int] | type[float], low: float, high: float | None = None) -> Any:
    """An argparse type: a finite `kind` in low..high, refused with the range."""

    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"not a{'n integer' if kind is int else ' number'}: {text!r}"
            ) from None
        if not math.isfinite(value) or value < low or (high is not None and value > high):
            where = f"from {low:g} to {high:g}" if high is not None else f"at least {low:g}"
            raise argparse.ArgumentTypeError(f"must be {where} (got {text})")
        return value

    parse.__name__ = kind.__name__  # argparse names the type in its messages
    return parse


PORT = bounded(int, 0, 65535)
MAX_QUERY_CHARS = 4096  # the search tool's own bound (schemas/tools.py SearchArgs.query)


def query_text(text: str) -> str:
    """An argparse type: a search query the search tool takes (not blank, bounded)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("must not be empty")
    if len(text) > MAX_QUERY_CHARS:
        raise argparse.ArgumentTypeError(f"at most {MAX_QUERY_CHARS} characters (got {len(text)})")
    return text


def _settings(args: argparse.Namespace, path: Path | None) -> Settings:
    overrides: dict[str, Any] = {}
    if getattr(args, "data_dir", None):
        overrides["data_dir"] = Path(args.data_dir)
    if getattr(args, "workspace_root", None):
        overrides["workspace_root"] = Path(args.workspace_root).resolve()
    elif path is not None:
        overrides["workspace_root"] = path
    if getattr(args, "host", None):
        overrides["host"] = args.host
    if getattr(args, "port", None) is not None:
        overrides["port"] = args.port
    if getattr(args, "read_only", False):
        overrides["enable_writes"] = False
    if getattr(args, "embedder", None):
        overrides["embedder"] = args.embedder
    if getattr(args, "tool_profile", None):
        overrides["tool_profile"] = args.tool_profile
    settings = Settings(**overrides)
    if path is not None and settings.workspace_root is None:
        settings.workspace_root = path
    if "data_dir" not in settings.model_fields_set:  # neither --data-dir nor the variable
        if settings.workspace_root is None and args.command in PATHLESS:
            settings.workspace_root = served_workspace(Path.cwd())
        settings.data_dir = default_data_dir(settings.workspace_root)  # one per workspace
    return settings


def _path(args: argparse.Namespace) -> Path | None:
    raw = getattr(args, "path", None)
    if raw is None:
        return None
    path = Path(raw).resolve()
    if not path.exists():
        raise UsageError(f"{raw} does not exist; pass a repository directory")
    if not path.is_dir():
        raise UsageError(f"{raw} is a file; pass the repository directory that holds it")
    if is_bare_repository(path):
        if path.name == ".git":  # a checkout's own git directory: its work tree is the code
            raise UsageError(
                f"{raw} is the git directory of the checkout {path.parent}; pass {path.parent}"
            )
        raise UsageError(
            f"{raw} is a bare git repository (no work tree to index); serve its commits with "
            "`repocontext git-source`, or pass a checkout of it"
        )
    return path


def _workspace_root(args: argparse.Namespace, path: Path | None) -> None:
    """--workspace-root is an existing directory holding PATH. Said here, before the data
    directory is created: the service refused a PATH outside the root only after opening
    (and so writing) the data directory, and a missing root read as 'outside' it."""
    raw = getattr(args, "workspace_root", None)
    if not raw:
        return
    root = Path(raw).resolve()
    if not root.is_dir():
        what = "is a file" if root.exists() else "does not exist"
        raise UsageError(f"--workspace-root {raw} {what}; pass the directory PATH lies under")
    if path is not None and not path.is_relative_to(root):
        raise UsageError(f"{path} is outside --workspace-root {root}; pass a PATH under it")


def _setup_logging(verbose: bool) -> None:
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.INFO,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
    )
    from repocontext.log_filters import ClientDisconnectFilter, RepeatFilter
    from streams.redact import RedactingFilter

    for handler in logging.getLogger().handlers:  # every record leaves through these
        handler.addFilter(RedactingFilter())
        handler.addFilter(ClientDisconnectFilter(verbose))
        handler.addFilter(RepeatFilter())  # a broker that is away: not a line per retry
    for noisy in ("httpx", "mcp", "uvicorn.access", "watchfiles"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


def repo_id_argument(value: str) -> str:
    """--repo-id as given, or argparse's one-line error naming the option."""
    try:
        return validate_repo_id(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def main(argv: list[str] | None = None) -> int:
    parser = CliParser(prog="repocontext", description=__doc__)
    parser.add_argument("-v", "--verbose", action="store_true")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=CliParser)

    def common(
        p: argparse.ArgumentParser,
        *,
        path: str = "optional",
        repo_id: bool = True,
        embedder: bool = True,
        tool_profile: bool = False,
    ) -> None:
        """The options every command shares, and those a command reads (a QA pass found
        `status --help` offering --repo-id, --embedder and --tool-profile, which it ignores)."""
        if path == "optional":
            p.add_argument("path", nargs="?", help="repository directory")
        elif path == "required":
            p.add_argument("path", help="repository directory")
        p.add_argument("--data-dir", help="where the log and views live")
        if repo_id:
            p.add_argument(
                "--repo-id",
                type=repo_id_argument,
                help="repository id (default: the directory name, other characters as '_')",
            )
        p.add_argument("--workspace-root", help="root that path-taking tools may reach")
        if embedder:
            p.add_argument(
                "--embedder",
                choices=["local", "http", "none"],
                help="vector plane: local MiniLM on the CPU (default), an HTTP endpoint, or none",
            )
        if tool_profile:
            p.add_argument(
                "--tool-profile",
                choices=["full", "compact"],
                help="compact: a few high-level tools with short definitions, for tight contexts",
            )

    p = sub.add_parser("serve", help="index PATH, watch it, serve MCP over HTTP")
    common(p, tool_profile=True)
    p.add_argument("--host")
    p.add_argument("--port", type=PORT, help="TCP port, 0..65535 (0: any free port)")
    p.add_argument("--read-only", action="store_true", help="withhold write tools")
    p = sub.add_parser("mcp", help="index PATH, watch it, serve MCP over stdio")
    common(p, tool_profile=True)
    p.add_argument("--read-only", action="store_true", help="withhold write tools")
    p = sub.add_parser("index", help="index PATH once with a progress bar, then exit")
    common(p, path="required")
    p.add_argument("--vectors", action="store_true", help="also embed every passage before exiting")
    p = sub.add_parser("search", help="keyword search of PATH (indexes it first)")
    common(p, path="required")
    p.add_argument("query", type=query_text)
    p.add_argument("-k", type=bounded(int, 1, 100), default=10, help="hits, 1..100")
    p = sub.add_parser("eval", help="score keyword/vector/hybrid retrieval on PATH's git history")
    common(p, path="required")
    p.add_argument(
        "--max-cases",
        type=bounded(int, 1, 500),
        default=200,
        help="cases mined, newest commit first: 1..500, default 200",
    )
    p.add_argument(
        "--budget-seconds",
        type=bounded(float, 1, 600),
        default=300.0,
        help="scoring stops past it (not cached): 1..600, default 300",
    )
    p = sub.add_parser("status", help="repositories, file counts, last jobs, pipeline lag")
    common(p, path="none", repo_id=False, embedder=False)
    p = sub.add_parser("replay", help="drop every view and rebuild it from the log")
    common(p, path="none", repo_id=False)
    p = sub.add_parser("topics", help="the topic catalogue with end offsets")
    common(p, path="none", repo_id=False, embedder=False)
    p = sub.add_parser("worker", help="distributed: run processor steps on the kafka:// log")
    common(p, path="none", repo_id=False)
    p.add_argument("--step", action="append", help="step id (repeatable; default: every step)")
    p.add_argument(
        "--rederive",
        action="append",
        metavar="STEP",
        help="re-run STEP over every file in the log beside its group (repeatable)",
    )
    p.add_argument("--metrics-port", type=PORT, help="serve /health/* and /metrics on this port")
    p = sub.add_parser("query", help="distributed: a query replica of the kafka:// log (HTTP)")
    common(p, path="none", repo_id=False, tool_profile=True)
    p.add_argument("--read-only", action="store_true", help="withhold memory and claim writes")
    p.add_argument("--host")
    p.add_argument("--port", type=PORT, help="TCP port, 0..65535")
    p = sub.add_parser("git-source", help="distributed: poll a git URL/ref into the log")
    common(p, path="none", embedder=False)
    p.add_argument("url", help="repository URL (credentials in it are never logged)")
    p.add_argument("--ref", default="HEAD")
    p.add_argument(
        "--depth", type=bounded(int, 0, 100_000), default=1, help="fetch depth; 0 = full history"
    )
    p.add_argument("--refresh-s", type=bounded(float, 1, 86_400), default=60.0)
    p.add_argument("--once", action="store_true", help="poll once, print the result, exit")
    p.add_argument("--metrics-port", type=PORT, help="serve /health/* and /metrics on this port")
    p = sub.add_parser("memory", help="back up or restore agent memory (a portable file)")
    memory = p.add_subparsers(dest="memory_command", required=True)
    for name, help_ in (
        ("export", "write every live memory entry to FILE (JSON Lines, versioned)"),
        ("import", "merge FILE into memory (idempotent; the newer updatedAt wins)"),
    ):
        common(memory.add_parser(name, help=help_), path="none", embedder=False)
        memory.choices[name].add_argument("file", help="the export file")

    # a command's option given before the command: argparse took its value for the command
    # ("invalid choice: '/tmp/d'") and never named the option
    given = sys.argv[1:] if argv is None else argv
    first = next((a for a in given if a not in ("-v", "--verbose")), "")
    option = first.partition("=")[0]
    commands_options = {o for p in sub.choices.values() for o in p._option_string_actions}
    if option.startswith("--") and option != "--help" and option in commands_options:
        parser.error(
            f"{option} is an option of the commands, not of repocontext itself; put it after "
            f"the command (repocontext COMMAND ... {option})"
        )
    # an unknown option is refused by its command's parser, so the line points at the help
    # that lists that command's options (the top level's lists only the commands)
    args, extra = parser.parse_known_args(argv)
    if extra:
        own = sub.choices[args.command]
        if args.command == "memory":
            own = memory.choices[args.memory_command]
        own.error(f"unrecognized arguments: {' '.join(extra)}")
    _setup_logging(args.verbose)
    os.umask(PRIVATE_UMASK)  # every file the service creates is its user's alone (0600/0700)
    try:
        return _run(args)
    except KeyboardInterrupt:
        return 130


def _run(args: argparse.Namespace) -> int:
    """Run the command; every failure is one line on stderr and a non-zero exit (the
    traceback of an unexpected one only with --verbose)."""
    from pydantic import ValidationError

    name = args.command  # logged as "ERROR repocontext <command>: ..."
    try:
        path = _path(args)
        _workspace_root(args, path)
        settings = _settings(args, path)
        # the commands import the whole service (seconds): a refused argument is said first
        from repocontext import commands
        from repocontext.command_io import terminable
        from streams.sources.walker import configure_indexed_limit

        handler = getattr(commands, f"cmd_{args.command.replace('-', '_')}")
        configure_indexed_limit(settings.search_index_max_chars)  # what this process's sources read
        work = handler(args, settings, path)
        result: int = asyncio.run(terminable(work) if args.command in ONE_SHOT else work)
        return result
    except asyncio.CancelledError:  # SIGTERM: the command stopped its work and closed
        return 143
    except UsageError as exc:
        return _fail(name, str(exc), 2)
    except ValidationError as exc:  # a REPOCONTEXT_* setting, or a value a tool refused
        from repocontext.command_io import validation_line

        return _fail(name, validation_line(exc), 2)
    except RepoContextError as exc:  # ours, said for a person: no traceback
        return _fail(name, str(exc), 1)
    except OSError as exc:
        return _fail(name, f"{exc.strerror or exc}{f': {exc.filename}' if exc.filename else ''}", 1)
    except Exception as exc:
        log.debug("%s failed", name, exc_info=True)
        return _fail(name, f"internal error ({type(exc).__name__}: {exc}); rerun with -v", 1)


def _fail(name: str, message: str, status: int) -> int:
    """One ERROR line through the log handler (redacted, like every other line)."""
    log.error("%s: %s", name, message.splitlines()[0] if message.strip() else "failed")
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
