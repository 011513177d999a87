"""The pinned corpus: public repositories at fixed commits, read from bare git mirrors.

Each language samples at most `max_files` files (evenly over the sorted paths, so a rerun
reads the same ones) from the repositories that hold it. A repository's tree at its commit
is written once under the cache directory (`git archive`), so ctags can read real files.
"""

from __future__ import annotations

import subprocess
import tarfile
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

from processors.language import language_for_path
from processors.symbols.grammars import grammar_for
from schemas.events import MAX_BODY_CHARS

MIRRORS = Path("/work/.mirror")


@dataclass(frozen=True)
class Pin:
    repo: str  # owner/name
    commit: str

    @property
    def mirror(self) -> Path:
        return MIRRORS / self.repo.replace("/", "+") / "repo"


PINS: tuple[Pin, ...] = (
    Pin("pallets/click", "2c8cd3ac958a7eb316d67f2d316c27086c4c0369"),
    Pin("encode/httpx", "ae1b9f66238f75ced3ced5e4485408435de10768"),
    Pin("colinhacks/zod", "e516c3baf22615e20934116abebfed6c000222c2"),
    Pin("trpc/trpc", "340811ba5320637fbaf48fccf3dbfdd258bd34db"),
    Pin("fastify/fastify", "83e69762aff047940b376fc2a266d143499ef727"),
    Pin("expressjs/express", "a3714473feb3d2908add734d340e7755fd85e0a3"),
    Pin("koajs/koa", "e0ba8ef39d27fe5dae5492f9fe753d155124f994"),
    Pin("gin-gonic/gin", "dcaa4296d111981ffb31ac3eba90bb63e1eb5ab9"),
    Pin("spf13/cobra", "adbc8813901bba65827259daa8e22ff94ec1f30e"),
    Pin("labstack/echo", "05489dc1730161df26b72d1ae2a3ba6fb8178fc7"),
    Pin("BurntSushi/ripgrep", "3fce3b5bb0236da2df6d99672afb8a719642eca7"),
    Pin("sharkdp/bat", "2ba8db9c14e5794572f5ea338c2b90404c9769cb"),
    Pin("jhy/jsoup", "46b620860af930eedc193a705eaf7cea5aec89a6"),
    Pin("google/gson", "9835b6f90192f79cdf5300c528fc6212455fb6c1"),
    Pin("serilog/serilog", "60935b4d7abad71cf6157b45a10f5c3c65ead527"),
    Pin("jqlang/jq", "579e6f76cffd7643ba4002a2c3618a5ea710589a"),
    Pin("fmtlib/fmt", "60ccad511fd680cb91d8b60a315759f71c67bef9"),
    Pin("sinatra/sinatra", "cb22afd7902b566b6eaba6c4ea89739494a65d12"),
    Pin("slimphp/Slim", "038fd5713d5a41636fdff0e8dcceedecdd17fc17"),
    Pin("square/okio", "4164f2976ac7174f3d35d52150e8ffbdbe0acbec"),
)

# the benchmark's languages: the grammar keys (TSX apart from TypeScript)
LANGUAGES = (
    "python",
    "typescript",
    "tsx",
    "javascript",
    "go",
    "java",
    "csharp",
    "rust",
    "c",
    "cpp",
    "ruby",
    "php",
    "kotlin",
)


@dataclass(frozen=True)
class SourceFile:
    pin: Pin
    path: str  # inside the repository
    language: str  # processors.language id ("typescript" for .tsx too)
    grammar: str  # the benchmark's language: the grammar key

    @property
    def key(self) -> str:
        return f"{self.pin.repo}:{self.path}"


def checkout(pin: Pin, cache: Path) -> Path:
    """The repository's tree at its commit, written once under `cache`."""
    root = cache / "trees" / f"{pin.repo.replace('/', '+')}@{pin.commit[:12]}"
    done = root / ".complete"
    if done.exists():
        return root
    if not pin.mirror.exists():
        raise SystemExit(f"symbols_quality: no mirror of {pin.repo} at {pin.mirror}")
    archive = subprocess.run(
        ["git", "-C", str(pin.mirror), "archive", "--format=tar", pin.commit],
        check=True,
        capture_output=True,
    ).stdout
    root.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(root, filter="data")
    done.write_text(pin.commit)
    return root


def _benchable(root: Path, path: str) -> bool:
    full = root / path
    return full.is_file() and not full.is_symlink() and full.stat().st_size <= MAX_BODY_CHARS


def sample(cache: Path, max_files: int, languages: tuple[str, ...]) -> list[SourceFile]:
    """Up to `max_files` files per language, spread evenly over each language's sorted paths."""
    by_language: dict[str, list[SourceFile]] = {lang: [] for lang in languages}
    for pin in PINS:
        root = checkout(pin, cache)
        for full in sorted(root.rglob("*")):
            path = full.relative_to(root).as_posix()
            language = language_for_path(path)
            if not language or "/node_modules/" in path:
                continue
            if not _benchable(root, path):
                continue
            # by extension, and a `.h` by its body as the indexer decides (fmt's are C++)
            body = full.read_text(encoding="utf-8", errors="replace") if path[-2:] == ".h" else ""
            grammar = grammar_for(language, path, body)
            if grammar is not None and grammar.key in by_language:
                by_language[grammar.key].append(SourceFile(pin, path, language, grammar.key))
    chosen: list[SourceFile] = []
    for files in by_language.values():
        if len(files) <= max_files:
            chosen += files
        else:
            step = len(files) / max_files
            chosen += [files[int(i * step)] for i in range(max_files)]
    return chosen


def read(cache: Path, source: SourceFile) -> str:
    return (checkout(source.pin, cache) / source.path).read_text(encoding="utf-8", errors="replace")
