"""Repository and caller patterns: linear-time matching, bounded count and length, git's meaning.

Timing is measured in tests/bench/pattern_bench.py; here only behaviour, plus one watchdog
(a subprocess that must finish at all) for the freeze pathspec's backtracking regexes caused.
"""

from __future__ import annotations

import logging
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

from schemas.events import WalkFilters
from streams.sources.ignore import PathFilter
from streams.sources.patterns import (
    MAX_PATTERN_CHARS,
    MAX_RULES_PER_FILE,
    PatternError,
    collapse_stars,
    compile_glob,
    gitignore_regex,
    glob_problem,
    glob_regex,
)
from streams.sources.walker import walk

FREEZER = "*" * 20 + "x"  # pathspec: twenty [^/]* in a row, exponential on a long name
LONG_PATH = "/".join(["a" * 60] * 67)[:4096]  # 4 KiB, no 'x' anywhere

# The characters patterns are made of, weighted towards what makes regexes backtrack.
_PATTERN_CHARS = st.sampled_from([*"***??/[]!a-b\\. x", "**/", "/**", "[!a]"])
pathological = st.lists(_PATTERN_CHARS, min_size=1, max_size=80).map("".join)
_PATH_CHARS = st.sampled_from([*"ab/x.*[", "aa/", "/b"])
short_paths = st.lists(_PATH_CHARS, min_size=1, max_size=12).map("".join)


def test_the_freezing_gitignore_finishes(tmp_path: Path) -> None:
    """On pathspec's regexes this ran for hours holding the GIL; the watchdog is generous."""
    (tmp_path / ".gitignore").write_text(FREEZER + "\n")
    name = "a" * 40 + ".py"
    (tmp_path / name).write_text("x = 1\n")
    script = textwrap.dedent(
        f"""
        from pathlib import Path
        from schemas.events import WalkFilters
        from streams.sources.walker import walk
        print([e.path for e in walk(Path({str(tmp_path)!r}), WalkFilters())])
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=30, check=True
    )
    assert name in done.stdout and ".gitignore" in done.stdout


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pathological)
def test_any_accepted_gitignore_rule_matches_a_4k_path(rule: str) -> None:
    try:
        compiled = gitignore_regex(rule)
    except PatternError:
        return  # refused outright: never matched
    if compiled is not None:
        regex, _ignore = compiled
        regex.search(LONG_PATH)
        regex.search(LONG_PATH + "/")


@settings(max_examples=200, deadline=None)
@given(pathological)
def test_any_accepted_glob_matches_a_4k_path(glob: str) -> None:
    if glob_problem(glob) is not None:
        return
    compile_glob(glob).fullmatch(LONG_PATH)


_SMALL_RULE_CHARS = st.sampled_from([*"*?ab/", "**/", "[ab]"])


@settings(max_examples=400, deadline=None)
@given(st.lists(_SMALL_RULE_CHARS, max_size=8).map("".join), short_paths)
def test_re2_gives_the_verdicts_of_the_regexes_it_replaces(rule: str, path: str) -> None:
    """On inputs small enough for Python's engine, RE2 agrees with pathspec's translation
    (of the star-collapsed rule) and with the glob translator's regex."""
    regex, include = GitIgnoreSpecPattern.pattern_to_regex(collapse_stars(rule))
    compiled = gitignore_regex(rule)
    if regex is None:
        assert compiled is None
    else:
        assert compiled is not None and compiled[1] == include
        assert (compiled[0].search(path) is not None) == (re.search(regex, path) is not None)
    if rule.strip():
        expected = re.fullmatch(glob_regex(rule), path) is not None
        assert (compile_glob(rule).fullmatch(path) is not None) == expected


def test_runs_of_stars_collapse_like_git_reads_them() -> None:
    assert collapse_stars(FREEZER) == "**x"
    assert collapse_stars("a/***/b") == "a/**/b"  # git: any run of 2+ stars is `**`
    assert collapse_stars(r"a\***") == r"a\***"  # escaped star + `**`: unchanged
    assert collapse_stars(r"\*\*\*\*") == r"\*\*\*\*"  # literal stars stay literal
    rules = PathFilter(Path("/nonexistent"), WalkFilters(exclude_globs=("src/****/gen",)))
    assert rules.skip_file("src/a/b/gen") and rules.skip_file("src/gen")


def test_over_long_patterns_are_refused_or_dropped_with_the_file_named(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    long_rule = "a" * (MAX_PATTERN_CHARS + 1)
    assert "at most 1024" in (glob_problem(long_rule) or "")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / ".gitignore").write_text(f"{long_rule}\n*.log\n")
    (tmp_path / "sub" / "a.log").write_text("x")
    (tmp_path / "sub" / long_rule[:200]).write_text("x")
    with caplog.at_level(logging.WARNING):
        found = [e.path for e in walk(tmp_path, WalkFilters())]
    assert "sub/a.log" not in found  # the other rules of the file still apply
    dropped = [r.getMessage() for r in caplog.records if "dropped" in r.getMessage()]
    assert len(dropped) == 1 and str(tmp_path / "sub" / ".gitignore") in dropped[0]


@pytest.mark.slow
def test_rules_beyond_the_per_file_limit_are_dropped(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    lines = [f"f{i}.txt" for i in range(MAX_RULES_PER_FILE)] + ["last.txt"]
    (tmp_path / ".gitignore").write_text("\n".join(lines) + "\n")
    for name in ("f0.txt", "last.txt"):
        (tmp_path / name).write_text("x")
    with caplog.at_level(logging.WARNING):
        found = [e.path for e in walk(tmp_path, WalkFilters())]
    assert "f0.txt" not in found and "last.txt" in found
    assert any("over the limit" in r.getMessage() for r in caplog.records)


def test_stored_over_long_caller_globs_are_dropped_not_matched(
    caplog: pytest.LogCaptureFixture,
) -> None:
    long_glob = "*" + "a?" * MAX_PATTERN_CHARS
    with caplog.at_level(logging.WARNING):
        rules = PathFilter(Path("/nonexistent"), WalkFilters(exclude_globs=(long_glob, "*.md")))
    assert rules.skip_file("README.md") and not rules.skip_file("a.py")
    assert any("exclude glob" in r.getMessage() for r in caplog.records)
