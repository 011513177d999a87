"""Worst-case pattern matching, old (pathspec's regexes on Python's `re`) vs new (RE2).

    .venv/bin/python -m tests.bench.pattern_bench [--old-timeout 5]

For each pathological `.gitignore` rule and include/exclude glob, the median time of one
match against a 4 KiB path (no match possible, the worst case for a backtracking engine).
The old engine runs in a child process per pattern, killed after --old-timeout seconds
(reported as "> N s"): with twenty stars it backtracks for hours.
"""

from __future__ import annotations

import argparse
import multiprocessing
import re
import statistics
import time
from collections.abc import Callable

from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

from streams.sources.patterns import compile_glob, gitignore_regex, glob_regex

PATH_4K = "/".join(["a" * 60] * 67)[:4096]
NAME_40 = "a" * 40  # a single 40-character name: already hopeless for the old engine

RULES = [
    "*" * 20 + "x",
    "*a" * 20 + "x",
    "*?" * 30 + "x",
    "**/" * 10 + "*" * 10 + "x",
    "a/**/**/**/**/**/**/**/**/x",
    "[a-z]*" * 25 + "x",
    "*.py",
]
GLOBS = ["*" * 20 + "x", "**/" * 10 + "x", "*a*a*a*a*a*a*a*a*a*a*a*ax", "*.py"]


def _median_s(match: Callable[[], object], repeat: int = 15) -> float:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        match()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def _old_rule(rule: str, text: str) -> float:
    regex, _include = GitIgnoreSpecPattern.pattern_to_regex(rule)
    compiled = re.compile(regex or "$^")
    return _median_s(lambda: compiled.search(text), repeat=3)


def _old_glob(glob: str, text: str) -> float:
    compiled = re.compile(glob_regex(glob, collapse=False).removeprefix("(?s)"), re.DOTALL)
    return _median_s(lambda: compiled.fullmatch(text), repeat=3)


def _in_child(kind: str, pattern: str, text: str, queue: multiprocessing.Queue[float]) -> None:
    queue.put(_old_rule(pattern, text) if kind == "rule" else _old_glob(pattern, text))


def _old(kind: str, pattern: str, text: str, timeout_s: float) -> str:
    queue: multiprocessing.Queue[float] = multiprocessing.Queue()
    child = multiprocessing.Process(target=_in_child, args=(kind, pattern, text, queue))
    child.start()
    child.join(timeout_s)
    if child.is_alive():
        child.kill()
        child.join()
        return f"> {timeout_s:g} s"
    return f"{queue.get() * 1e6:.1f} us"


def _new(kind: str, pattern: str, text: str) -> str:
    if kind == "rule":
        compiled = gitignore_regex(pattern)
        assert compiled is not None
        regex = compiled[0]
        return f"{_median_s(lambda: regex.search(text)) * 1e6:.1f} us"
    glob = compile_glob(pattern)
    return f"{_median_s(lambda: glob.fullmatch(text)) * 1e6:.1f} us"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old-timeout", type=float, default=5.0)
    args = parser.parse_args()
    print(f"{'kind':5} {'pattern':34} {'text':8} {'old (re)':>12} {'new (RE2)':>12}")
    for kind, patterns in (("rule", RULES), ("glob", GLOBS)):
        for pattern in patterns:
            for label, text in (("name-40", NAME_40), ("path-4K", PATH_4K)):
                old = _old(kind, pattern, text, args.old_timeout)
                new = _new(kind, pattern, text)
                print(f"{kind:5} {pattern[:34]:34} {label:8} {old:>12} {new:>12}", flush=True)


if __name__ == "__main__":
    main()
