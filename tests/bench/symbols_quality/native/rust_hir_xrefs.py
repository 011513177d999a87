"""Rust references as the compiler resolves them: each workspace crate's HIR, printed by
rustc (`-Zunpretty=hir-tree`, unlocked on a stable toolchain by RUSTC_BOOTSTRAP=1), holds
every path of the crate with the definition it resolves to (`res: Def(Struct, DefId(0:274 ~
grep_regex[acef]::config::Config))`) and the span it is written at; each item's own span says
which file declares it. A file B depends on file A when a path written in B (a use, a type,
a call, a pattern; `#[cfg(test)]` code included: the crates are built with the test profile)
resolves to an item A declares. Method calls (`x.find()`) are resolved later, by type
checking, and do not count, as they do not for `related`; nor does code a macro expanded.

Usage: rust_hir_xrefs.py ROOT TARGET_DIR < paths; prints one JSON line per path read:
{"path", "imports": [], "dependents": [...]} (imports are not compared: the compiler names
the declaring file where `related` names the module file a use leaf leads to).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

OWNER = re.compile(r"^DefId\(\d+:\d+ ~ (\w+)\[[0-9a-f]+\](?:::(.*))?\) => OwnerNodes")
SPAN = re.compile(r"\bspan: ([^\s:][^:]*\.rs):\d+:\d+: \d+:\d+ \(#(\d+)\)")
DEF_ID = re.compile(r"DefId\(\d+:\d+ ~ (\w+)\[[0-9a-f]+\]::([^)]*)\)")
# what a path resolving to it says nothing of a file's dependency on another
NOT_ITEMS = {"Mod", "TyParam", "ConstParam", "LifetimeParam", "ExternCrate", "Use", "Impl"}


def targets(root: Path) -> list[list[str]]:
    """`cargo rustc` selections of every workspace library and binary."""
    meta = subprocess.run(
        ["cargo", "metadata", "--no-deps", "--format-version", "1"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    out: list[list[str]] = []
    for package in json.loads(meta.stdout)["packages"]:
        for target in package["targets"]:
            if "lib" in target["kind"]:
                out.append(["-p", package["name"], "--lib"])
            elif "bin" in target["kind"]:
                out.append(["-p", package["name"], "--bin", target["name"]])
    return out


def hir(root: Path, target_dir: str, selection: list[str]) -> str:
    env = {**os.environ, "RUSTC_BOOTSTRAP": "1", "CARGO_TARGET_DIR": target_dir}
    command = ["cargo", "rustc", "-q", *selection, "--profile", "test", "--ignore-rust-version"]
    done = subprocess.run(
        [*command, "--", "-Zunpretty=hir-tree"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        print(f"rust_hir_xrefs: {' '.join(selection)}: {done.stderr[-400:]}", file=sys.stderr)
    return done.stdout


def read(text: str, declared: dict[str, str], uses: dict[str, set[str]]) -> None:
    """Each owner's file into `declared` (def path -> file), each resolved path's definition
    into `uses` (file -> def paths)."""
    owner: str | None = None
    where: str | None = None  # the file of the last span written outside a macro expansion
    pending: str | None = None  # inside `Def(`: the kind, once read
    for line in text.splitlines():
        head = OWNER.match(line)
        if head:
            owner = f"{head.group(1)}::{head.group(2) or ''}"
            continue
        span = SPAN.search(line)
        if span:
            if owner is not None:
                declared.setdefault(owner, span.group(1))
                owner = None
            where = span.group(1) if span.group(2) == "0" else None
            continue
        stripped = line.strip()
        if stripped.endswith("Def(") and "DefId" not in stripped:
            pending = ""
            continue
        if pending == "":
            pending = stripped.rstrip("(,")
            continue
        if pending is not None:
            found = DEF_ID.search(stripped)
            if found:
                if where is not None and pending not in NOT_ITEMS:
                    uses[where].add(f"{found.group(1)}::{found.group(2)}")
                pending = None


def declaring_file(path: str, declared: dict[str, str]) -> str | None:
    """The file of a definition: its own owner's, or its nearest owner's (a variant is in its
    enum's file)."""
    while path:
        if path in declared:
            return declared[path]
        path = path.rpartition("::")[0]
    return None


def main() -> None:
    root, target_dir = Path(sys.argv[1]), sys.argv[2]
    wanted = [line.strip() for line in sys.stdin if line.strip()]
    subprocess.run(["cargo", "fetch", "-q"], cwd=root, check=True)
    declared: dict[str, str] = {}
    uses: dict[str, set[str]] = defaultdict(set)
    for selection in targets(root):
        read(hir(root, target_dir, selection), declared, uses)
    dependents: dict[str, set[str]] = defaultdict(set)
    for user, definitions in uses.items():
        for definition in definitions:
            owner = declaring_file(definition, declared)
            if owner is not None and owner != user:
                dependents[owner].add(user)
    compiled = set(declared.values()) | set(uses)
    for path in wanted:
        if path in compiled:
            row = {"path": path, "imports": [], "dependents": sorted(dependents[path])}
            print(json.dumps(row))


if __name__ == "__main__":
    main()
