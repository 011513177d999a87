"""References measured (issue 22 item 3): `related`'s imports and dependents of each file of
one pinned repository per language, against the language's own resolver, file by file.

Ours: the repository indexed in process (EmbeddedApp over a data directory under the cache,
as tests/bench/localisation does), then `related` asked for every file in scope, as the MCP
tool asks it. The references, each a program under native/:

- Python (pallets/click): jedi (PyPI, installed under the cache on first use,
  jedi_xrefs.py): each import statement's module as jedi resolves it, and the files where
  jedi's project-wide `get_references` finds one of the file's top-level declarations. The
  src layout is on jedi's path, as the package's build says.
- TypeScript (colinhacks/zod, packages/zod/src with its tsconfig): the compiler's language
  service (ts_xrefs.js, the `typescript` package the symbols benchmark installs):
  `resolveModuleName` for each import, `findReferences` on each exported top-level
  declaration.
- Rust (BurntSushi/ripgrep, the workspace's libraries and the `rg` binary): rustc's own
  name resolution (rust_hir_xrefs.py: each crate's HIR as `-Zunpretty=hir-tree` prints it,
  built with the test profile by the machine's cargo, dependencies fetched from crates.io):
  the files whose paths resolve to an item a file declares. Dependents only, and only over
  the files the compiler built (not the integration tests, not a feature left off).

Imports are compared over every file in scope, dependents over the library's files (not the
tests: nothing depends on a test), both sides limited to the files in scope. Our imports are
module names (Python's dotted, TS/JS repository paths without extension), each mapped to the
file it names. Precision = matched / ours, recall = matched / the reference's, summed.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from processors.symbols.extract import module_prefix, strip_js_extension
from schemas.symbols import RelatedArgs
from tests.bench.localisation.system import RepocontextSystem
from tests.bench.symbols_quality import native
from tests.bench.symbols_quality.corpus import PINS, Pin, checkout

JEDI = "jedi==0.20.1"
HERE = Path(__file__).parent / "native"


@dataclass(frozen=True)
class Target:
    language: str
    repo: str
    scope: str  # the files compared: under this folder, with these suffixes
    suffixes: tuple[str, ...]
    library: Callable[[str], bool]  # whose dependents are compared
    tool: str
    # compare only the files the reference compiled, and dependents only (rust_hir_xrefs)
    compiled_only: bool = False

    @property
    def pin(self) -> Pin:
        return next(p for p in PINS if p.repo == self.repo)


def _not_a_test(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    return "/tests/" not in f"/{path}" and ".test." not in name and not name.startswith("test_")


TARGETS = (
    Target("python", "pallets/click", "", (".py",), _not_a_test, f"jedi {JEDI}"),
    Target(
        "typescript",
        "colinhacks/zod",
        "packages/zod/src/",
        (".ts",),
        _not_a_test,
        f"TypeScript language service ({native.TYPESCRIPT})",
    ),
    Target(
        "rust",
        "BurntSushi/ripgrep",
        "",
        (".rs",),
        _not_a_test,
        "rustc's HIR (-Zunpretty=hir-tree), the machine's cargo",
        compiled_only=True,
    ),
)
PROGRAMS = {"python": "jedi_xrefs.py", "typescript": "ts_xrefs.js", "rust": "rust_hir_xrefs.py"}


@dataclass
class Score:
    ours: int = 0
    reference: int = 0
    matched: int = 0
    worst: list[tuple[int, str, list[str], list[str]]] = field(default_factory=list)

    def add(self, path: str, ours: set[str], reference: set[str]) -> None:
        self.ours += len(ours)
        self.reference += len(reference)
        self.matched += len(ours & reference)
        errors = len(ours ^ reference)
        if errors:
            self.worst.append(
                (errors, path, sorted(reference - ours)[:4], sorted(ours - reference)[:4])
            )

    def row(self, target: Target, what: str) -> str:
        precision = self.matched / self.ours if self.ours else float("nan")
        recall = self.matched / self.reference if self.reference else float("nan")
        return (
            f"| {target.language} | {what} | {self.ours} | {self.reference} | {self.matched} | "
            f"{precision:.3f} | {recall:.3f} |"
        )


def _jedi(cache: Path) -> Path:
    target = cache / "pip"
    if not (target / "jedi").exists():
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "-q", "--target", str(target), JEDI],
            check=True,
        )
    return target


def _reference_command(target: Target, root: Path, cache: Path) -> tuple[list[str], dict[str, str]]:
    if target.language == "python":
        env = {**os.environ, "PYTHONPATH": str(_jedi(cache))}
        return [sys.executable, str(HERE / "jedi_xrefs.py"), str(root)], env
    if target.language == "rust":
        if shutil.which("cargo") is None:
            raise SystemExit("symbols_quality xrefs: Rust needs cargo on PATH")
        build = cache / "xrefs" / "rust-target"
        program = str(HERE / PROGRAMS["rust"])
        return [sys.executable, program, str(root), str(build)], dict(os.environ)
    typescript = native._typescript(cache)
    if typescript is None:
        raise SystemExit(f"symbols_quality xrefs: npm could not install {native.TYPESCRIPT}")
    tsconfig = f"{target.scope.rstrip('/').rsplit('/', 1)[0]}/tsconfig.json"
    return ["node", str(HERE / "ts_xrefs.js"), str(typescript), str(root), tsconfig], dict(
        os.environ
    )


def reference(target: Target, cache: Path, paths: list[str]) -> dict[str, dict[str, list[str]]]:
    """The tool's imports and dependents per file, cached by the commit, program and files."""
    pin = target.pin
    program = HERE / PROGRAMS[target.language]
    key = hashlib.sha1(program.read_bytes() + "\n".join(paths).encode()).hexdigest()[:12]
    cached = cache / "xrefs" / f"{target.language}-{pin.commit[:12]}-{key}.json"
    if cached.exists():
        loaded: dict[str, dict[str, list[str]]] = json.loads(cached.read_text())
        return loaded
    root = checkout(pin, cache)
    command, env = _reference_command(target, root, cache)
    done = subprocess.run(
        command, input="\n".join(paths), capture_output=True, text=True, env=env, check=True
    )
    found = {row["path"]: row for row in map(json.loads, done.stdout.splitlines())}
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(found))
    return found


def _module_files(language: str, paths: list[str]) -> dict[str, str]:
    """A module as our imports name it -> its file: Python's dotted name (a src layout's by
    its import name too), a TS/JS path without extension (a folder for its index)."""
    out: dict[str, str] = {}
    for path in paths:
        if language == "python":
            module = module_prefix(path, "python")
            out.setdefault(module, path)
            if module.startswith("src."):
                out.setdefault(module[4:], path)
        else:
            module = strip_js_extension(path)
            out.setdefault(module, path)
            if module.endswith("/index"):
                out.setdefault(module[: -len("/index")], path)
    return out


TRACKED_ONLY = ".tracked-only"  # marks a copy whose .gitignore files are gone (below)


def _named_copy(cache: Path, pin: Pin) -> Path:
    """The tree under a directory named as the repository (the id `related` is asked by),
    without its .gitignore files: the tree is a `git archive`, every file in it one git tracks
    and so never ignores, but a walk without git's index would drop the tracked files a
    .gitignore names (zod's packages/zod/.gitignore names `**/package.json`, the package's
    own manifest included, which the language service reads)."""
    target = cache / "xrefs" / "repos" / pin.repo.split("/")[1]
    if not (target / TRACKED_ONLY).exists():
        shutil.rmtree(target, ignore_errors=True)
        shutil.rmtree(_data_dir(cache, pin), ignore_errors=True)  # indexed from the old copy
        partial = target.with_name(f"{target.name}.{os.getpid()}.part")
        shutil.copytree(checkout(pin, cache), partial)
        for ignore in partial.rglob(".gitignore"):
            ignore.unlink()
        (partial / TRACKED_ONLY).write_text(pin.commit)
        partial.replace(target)
    return target


def _data_dir(cache: Path, pin: Pin) -> Path:
    return cache / "xrefs" / "data" / pin.repo.replace("/", "+")


async def ours(
    target: Target, cache: Path, paths: list[str]
) -> dict[str, tuple[set[str], set[str]]]:
    """`related`'s imports (as files) and dependents (their paths) of each file in scope."""
    pin = target.pin
    system = await RepocontextSystem.open(_named_copy(cache, pin), _data_dir(cache, pin))
    modules = _module_files(target.language, paths)
    in_scope = set(paths)
    out: dict[str, tuple[set[str], set[str]]] = {}
    try:
        for path in paths:
            related = await system.app.services.symbols.related(
                RelatedArgs(repoId=system.repo_id, path=path)
            )
            named = (m.removesuffix(".*") for m in related.imports)
            imported = {modules[m] for m in named if m in modules}
            found = {d.path for d in related.dependents}
            while related.nextOffset is not None:  # every page of a long list
                related = await system.app.services.symbols.related(
                    RelatedArgs(repoId=system.repo_id, path=path, offset=related.nextOffset)
                )
                found |= {d.path for d in related.dependents}
            out[path] = (imported - {path}, (found & in_scope) - {path})
    finally:
        await system.close()
    return out


def measure(target: Target, cache: Path, worst: int) -> list[str]:
    root = checkout(target.pin, cache)
    paths = sorted(
        p.relative_to(root).as_posix()
        for p in (root / target.scope if target.scope else root).rglob("*")
        if p.is_file() and p.name.endswith(target.suffixes)
    )
    mine = asyncio.run(ours(target, cache, paths))
    theirs = reference(target, cache, paths)
    imports, dependents = Score(), Score()
    in_scope = set(paths) & set(theirs) if target.compiled_only else set(paths)
    for path in paths:
        if path not in theirs:
            continue  # the tool could not read it
        ours_imports, ours_dependents = mine[path]
        ours_dependents &= in_scope
        if not target.compiled_only:
            imports.add(path, ours_imports, set(theirs[path]["imports"]) & in_scope)
        if target.library(path):
            dependents.add(path, ours_dependents, set(theirs[path]["dependents"]) & in_scope)
    lines = [
        f"{target.language}: {target.repo}@{target.pin.commit[:12]} {target.scope}, "
        f"{len(paths)} files ({len(in_scope)} compared), against {target.tool}",
        imports.row(target, "imports (not compared)" if target.compiled_only else "imports"),
        dependents.row(target, "dependents"),
    ]
    for name, score in (("imports", imports), ("dependents", dependents)):
        lines.append(f"  worst files, {name} (the reference's we miss | ours it has not):")
        for errors, path, missed, extra in sorted(score.worst, reverse=True)[:worst]:
            lines.append(f"  - {path} ({errors}): missed {missed} extra {extra}")
    return lines


def run(cache: Path, worst: int, languages: list[str]) -> int:
    header = [
        "| language | relation | ours | reference | matched | precision | recall |",
        "|---|---|---|---|---|---|---|",
    ]
    rows: list[str] = []
    details: list[str] = []
    for target in TARGETS:
        if languages and target.language not in languages:
            continue
        lines = measure(target, cache, worst)
        details.append(lines[0])
        rows += lines[1:3]
        details += lines[3:]
    print("\n".join(details))
    print()
    print("\n".join(header + rows))
    return 0
