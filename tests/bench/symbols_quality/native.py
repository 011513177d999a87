"""Each language's own parser as a second reference, where the machine has it: Go's go/ast
(`go run`), the JDK's compiler tree API (`java File.java`), the TypeScript compiler's parser
(npm `typescript`, installed into the cache on first use) for TypeScript, TSX and JavaScript,
clang (PyPI `libclang`, installed into the cache on first use) for C and C++, the `syn`
parser for Rust (native/rust_decls, built with cargo into the cache on first use, its
crates from crates.io at the versions Cargo.toml pins).
Python's `ast` runs in process (references.python_ast). Each program (native/) prints JSON
lines; the declarations it reports follow the same scope rule as the ctags comparison.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from processors.symbols.declaration import operator_name
from tests.bench.symbols_quality.references import Tag

HERE = Path(__file__).parent / "native"
TYPESCRIPT = "typescript@5.9.3"

# the benchmark's language -> the tool's name in the report
TOOLS = {
    "go": "go/ast",
    "java": "javac tree",
    "typescript": "tsc",
    "tsx": "tsc",
    "javascript": "tsc",
    "c": "clang",
    "cpp": "clang",
    "rust": "syn",
}
LIBCLANG = "libclang==18.1.1"


def _typescript(cache: Path) -> Path | None:
    """The typescript package's directory, installed under `cache` with npm when missing."""
    prefix = cache / "npm"
    module = prefix / "node_modules" / "typescript"
    if not module.exists() and shutil.which("npm"):
        prefix.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(prefix), TYPESCRIPT],
            check=False,
            capture_output=True,
        )
    return module if module.exists() else None


def _libclang(cache: Path) -> Path | None:
    """The folder libclang (PyPI) is installed in under `cache`, installed when missing."""
    target = cache / "pip-clang"
    if not (target / "clang").exists():
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "-q", "--target", str(target), LIBCLANG],
            check=False,
            capture_output=True,
        )
    return target if (target / "clang").exists() else None


def _rust_decls(cache: Path) -> Path | None:
    """The rust_decls program, built under `cache` with cargo when missing (a folder per
    version of its source, so a changed program is built again)."""
    source = HERE / "rust_decls"
    files = [source / "Cargo.toml", source / "Cargo.lock", *sorted(source.rglob("*.rs"))]
    digest = hashlib.sha1(b"".join(f.read_bytes() for f in files)).hexdigest()[:12]
    target = cache / f"rust-decls-{digest}"
    program = target / "release" / "rust_decls"
    if not program.exists() and shutil.which("cargo"):
        manifest = source / "Cargo.toml"
        subprocess.run(
            ["cargo", "build", "-q", "--release", "--locked", "--manifest-path", str(manifest)],
            env={**os.environ, "CARGO_TARGET_DIR": str(target)},
            check=False,
            capture_output=True,
        )
    return program if program.exists() else None


def missing(language: str, cache: Path) -> str | None:
    """Why the language's own parser cannot run here, or None."""
    if language == "go" and not shutil.which("go"):
        return "go is not installed"
    if language == "java" and not shutil.which("java"):
        return "a JDK (java 11+) is not installed"
    if language in ("c", "cpp") and _libclang(cache) is None:
        return f"pip could not install {LIBCLANG}"
    if language == "rust" and _rust_decls(cache) is None:
        return "cargo could not build native/rust_decls (cargo and crates.io are needed)"
    if language in ("typescript", "tsx", "javascript"):
        if not shutil.which("node"):
            return "node is not installed"
        if _typescript(cache) is None:
            return f"npm could not install {TYPESCRIPT}"
    return None


def command(language: str, root: Path, cache: Path) -> list[str]:
    if language == "go":
        return ["go", "run", str(HERE / "go_decls.go"), str(root)]
    if language == "java":
        return ["java", str(HERE / "JavaDecls.java"), str(root)]
    if language == "rust":
        return [str(_rust_decls(cache)), str(root)]
    if language in ("c", "cpp"):
        script = str(HERE / "clang_decls.py")
        return [
            "env",
            f"PYTHONPATH={_libclang(cache)}",
            sys.executable,
            script,
            language,
            str(root),
        ]
    return ["node", str(HERE / "ts_decls.js"), str(_typescript(cache)), str(root)]


def native_tags(language: str, root: Path, paths: list[str], cache: Path) -> dict[str, list[Tag]]:
    done = subprocess.run(
        command(language, root, cache),
        input="\n".join(paths) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    out: dict[str, list[Tag]] = {path: [] for path in paths}
    for line in done.stdout.splitlines():
        tag = json.loads(line)
        if "unparsed" in tag:  # the tool could not parse the file: it reports nothing there
            print(f"symbols_quality: {tag['path']}: {tag['unparsed']}", file=sys.stderr)
            continue
        if tag["path"] in out:
            name = tag["name"]
            if name.startswith("operator"):  # clang's `operator const char *`: as we write it
                name = operator_name(name)
            out[tag["path"]].append(Tag(name, int(tag["line"]), tag["class"], tag["kind"]))
    return out


def rules() -> bytes:
    """What decides the tags (for the cache key): the programs themselves."""
    programs = [*HERE.iterdir(), *(HERE / "rust_decls").rglob("*.rs")]
    return b"".join(p.read_bytes() for p in sorted(programs) if p.is_file())
