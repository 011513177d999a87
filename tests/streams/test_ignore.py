"""Git ignore semantics and include/exclude globs, observed through the walk."""

from __future__ import annotations

import random
import shutil
import subprocess
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from schemas.events import WalkFilters
from streams.ingest_job import JobTracker
from streams.sources import safe_open
from streams.sources.ignore import GitIgnoreRules, PathFilter, _Rule, rebase_rule
from streams.sources.patterns import compile_glob
from streams.sources.reconcile import PlanCounts, plan_changes
from streams.sources.walker import walk


def write(root: Path, rel: str, text: str = "x") -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def paths(root: Path, filters: WalkFilters | None = None) -> list[str]:
    return [e.path for e in walk(root, filters or WalkFilters())]


def test_nested_gitignore_overrides_shallower(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "*.log\n")
    write(tmp_path, "root.log")
    write(tmp_path, "sub/.gitignore", "!keep.log\n")
    write(tmp_path, "sub/keep.log")
    write(tmp_path, "sub/other.log")
    write(tmp_path, "sub/deeper/.gitignore", "keep.log\n")
    write(tmp_path, "sub/deeper/keep.log")
    assert paths(tmp_path) == [
        ".gitignore",
        "sub/.gitignore",
        "sub/deeper/.gitignore",
        "sub/keep.log",
    ]


def test_last_match_wins_within_a_file(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "*.txt\n!a.txt\n!b.txt\nb.txt\n")
    for name in ("a.txt", "b.txt", "c.txt"):
        write(tmp_path, name)
    assert paths(tmp_path) == [".gitignore", "a.txt"]


def test_anchoring_leading_and_interior_slash(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "/build\ndocs/*.md\n")
    write(tmp_path, "build/out.js")
    write(tmp_path, "src/build/keep.js")  # /build is anchored at the root
    write(tmp_path, "docs/a.md")
    write(tmp_path, "docs/api/b.md")  # interior slash anchors, `*` stays in one segment
    write(tmp_path, "x/docs/c.md")
    write(tmp_path, "sub/.gitignore", "/gen\nlib/tmp\n")
    write(tmp_path, "sub/gen/a.py")
    write(tmp_path, "sub/x/gen/b.py")
    write(tmp_path, "sub/lib/tmp")
    write(tmp_path, "sub/y/lib/tmp")
    assert paths(tmp_path) == [
        ".gitignore",
        "docs/api/b.md",
        "src/build/keep.js",
        "sub/.gitignore",
        "sub/x/gen/b.py",
        "sub/y/lib/tmp",
        "x/docs/c.md",
    ]


def test_trailing_slash_matches_directories_only(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "out/\n")
    write(tmp_path, "out/a.txt")
    write(tmp_path, "pkg/out")  # a file named like the directory pattern stays
    assert paths(tmp_path) == [".gitignore", "pkg/out"]


def test_double_star_forms(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "**/tmp\na/**/b\nlogs/**\nx/**/\n")
    write(tmp_path, "tmp")
    write(tmp_path, "p/q/tmp/f")
    write(tmp_path, "a/b")
    write(tmp_path, "a/m/n/b")
    write(tmp_path, "a/c")
    write(tmp_path, "logs/1.txt")
    write(tmp_path, "x/direct.txt")  # `x/**/` ignores directories below x, not x's own files
    write(tmp_path, "x/y/inner.txt")
    assert paths(tmp_path) == [".gitignore", "a/c", "x/direct.txt"]


def spy_listed_dirs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The repo-relative directories the walk lists from now on."""
    listed: list[str] = []
    real_dir_beneath = safe_open.dir_beneath

    def spy(root: Path | str, rel_dir: str) -> AbstractContextManager[int]:
        listed.append(rel_dir)  # every directory the walk lists is opened through here
        return real_dir_beneath(root, rel_dir)

    monkeypatch.setattr("streams.sources.walker.dir_beneath", spy)
    return listed


def test_ignored_directory_cannot_be_reincluded_and_is_not_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, ".gitignore", "node_modules/\n!node_modules/keep.js\n")
    write(tmp_path, "node_modules/keep.js")
    write(tmp_path, "node_modules/deep/x.js")
    write(tmp_path, "src/a.js")
    listed = spy_listed_dirs(monkeypatch)
    assert paths(tmp_path) == [".gitignore", "src/a.js"]
    assert not any(p.startswith("node_modules") for p in listed)


def test_newline_in_a_segment_does_not_dodge_a_rule(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "**/secret.key\n*.pem\nexact\n")
    write(tmp_path, "evil\nname/secret.key")
    write(tmp_path, "a\nb.pem")
    write(tmp_path, "exact\n")  # the rule anchors at the true end of the name
    write(tmp_path, "exact")
    assert paths(tmp_path) == [".gitignore", "exact\n"]


def test_gitignore_file_format_details(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_bytes(
        b"\xef\xbb\xbf*.bak\r\n# comment\r\n\\#hash\n\\!bang\ntrail   \nsp\\ \n"
    )
    for name in ("a.bak", "#hash", "!bang", "trail", "sp ", "keep"):
        write(tmp_path, name)
    assert paths(tmp_path) == [".gitignore", "keep"]


def test_symlinked_gitignore_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "rules").write_text("*.txt\n")
    (tmp_path / ".gitignore").symlink_to(tmp_path / "rules")
    write(tmp_path, "a.txt")
    assert paths(tmp_path) == ["a.txt", "rules"]


def test_git_dir_and_git_file_always_skipped(tmp_path: Path) -> None:
    write(tmp_path, ".git/config")
    write(tmp_path, ".git/objects/ab/cd")
    write(tmp_path, "sub/.git", "gitdir: ../.git/modules/sub")
    write(tmp_path, "sub/main.c")
    assert paths(tmp_path) == ["sub/main.c"]
    assert paths(tmp_path, WalkFilters(respect_gitignore=False)) == ["sub/main.c"]


def test_respect_gitignore_false_keeps_ignored_files(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "*.log\n")
    write(tmp_path, "a.log")
    assert paths(tmp_path, WalkFilters(respect_gitignore=False)) == [".gitignore", "a.log"]


def test_include_and_exclude_globs(tmp_path: Path) -> None:
    for rel in ("README.md", "docs/guide.md", "src/a.py", "src/pkg/b.py", "src/pkg/test_b.py"):
        write(tmp_path, rel)
    write(tmp_path, "src/pkg/ignored.py")
    write(tmp_path, ".gitignore", "ignored.py\n")
    filters = WalkFilters(include_globs=("*.md", "src/**/*.py"), exclude_globs=("**/test_*.py",))
    # `*` is one segment (docs/guide.md is not `*.md`), `**` any depth, excludes win, and a
    # file must also pass the gitignore rules.
    assert paths(tmp_path, filters) == ["README.md", "src/a.py", "src/pkg/b.py"]


def test_exclude_glob_prunes_directories(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "vendor/lib/x.go")
    write(tmp_path, "main.go")
    listed = spy_listed_dirs(monkeypatch)
    assert paths(tmp_path, WalkFilters(exclude_globs=("vendor/**",))) == ["main.go"]
    assert paths(tmp_path, WalkFilters(exclude_globs=("./vendor/",))) == ["main.go"]
    assert not any("vendor" in p for p in listed)


@pytest.mark.parametrize(
    ("glob", "path", "expected"),
    [
        ("*.py", "a.py", True),
        ("*.py", "x/a.py", False),
        ("**/*.py", "a.py", True),
        ("**/*.py", "x/y/a.py", True),
        ("a/**/b", "a/b", True),
        ("a/**/b", "a/x/y/b", True),
        ("a/**", "a/x/y", True),
        ("src/?.c", "src/a.c", True),
        ("src/?.c", "src/ab.c", False),
        ("[!a]*.c", "b.c", True),
        ("[!a]*.c", "a.c", False),
        ("**/*.key", "dir\nx/a.key", True),
    ],
)
def test_compile_glob(glob: str, path: str, expected: bool) -> None:
    assert bool(compile_glob(glob).fullmatch(path)) is expected


def test_rebase_rule() -> None:
    assert rebase_rule("*.log", "") == "*.log"
    assert rebase_rule("*.log", "a/b") == "/a/b/**/*.log"
    assert rebase_rule("!/gen/", "a") == "!/a/gen/"
    assert rebase_rule("x/y", "a[1]") == "/a\\[1\\]/x/y"
    assert rebase_rule("# note", "a") is None
    assert rebase_rule("   ", "a") is None


def test_path_filter_excluded_checks_ancestors(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "build/\n")
    rules = PathFilter(tmp_path, WalkFilters())
    assert rules.excluded("build/x/y.py", is_dir=False)
    assert rules.excluded(".git/HEAD", is_dir=False)
    assert not rules.excluded("src/y.py", is_dir=False)


# Differential check against git itself on random trees: the strongest evidence that the
# combination of pathspec and our rebasing/pruning reproduces git.
_NAMES = ["a", "b", "build", "x.log", "keep.log", "docs", "c.txt", "out", "foo", "a b", "[x]"]
_RULES = [
    "*.log", "!keep.log", "build/", "/out", "docs/*", "!docs/api", "**/deep", "a/**/b", "foo",
    "!foo/", "*.txt", "!c.txt", "b/", "a/*", "!a/b", "\\[x\\]", "a\\ b", "**/build/**", "!*/",
    "**", "*/", "**/", "/*", "a/**", "!a/**", "[!a]*", "b/**/", "!*/*/", "out/*", "?.txt",
]  # fmt: skip


def _random_tree(root: Path, rng: random.Random, depth: int = 0) -> None:
    for _ in range(rng.randint(1, 4)):
        path = root / rng.choice(_NAMES)
        if path.exists():
            continue
        if depth < 3 and rng.random() < 0.45:
            path.mkdir()
            _random_tree(path, rng, depth + 1)
        else:
            path.write_text("x")
    if rng.random() < 0.6:
        (root / ".gitignore").write_text("\n".join(rng.sample(_RULES, rng.randint(1, 5))) + "\n")


# untracked files that are not ignored, without the machine's global excludes
_GIT_UNTRACKED = [
    "git",
    "-c",
    "core.excludesFile=/dev/null",
    "ls-files",
    "--others",
    "--exclude-standard",
    "-z",
]


@pytest.mark.slow  # asks git itself about every generated tree
@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_matches_git_on_random_trees(tmp_path: Path) -> None:
    for seed in range(120):
        root = tmp_path / f"r{seed}"
        root.mkdir()
        subprocess.run(["git", "init", "-q"], cwd=root, check=True)
        _random_tree(root, random.Random(seed))
        listed = subprocess.run(
            _GIT_UNTRACKED,
            cwd=root,
            capture_output=True,
            check=True,
        ).stdout.decode()
        expected = sorted(p for p in listed.split("\0") if p)
        assert sorted(paths(root)) == expected, f"seed {seed}"


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "core.excludesFile=/dev/null", *args],
        cwd=root,
        capture_output=True,
        check=True,
    ).stdout.decode()


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_files_git_tracks_are_kept_whatever_the_ignore_rules(tmp_path: Path) -> None:
    """git ignores untracked files only: a file committed before a rule named it (or added
    with `git add -f`) is in the repository, and so in the index, and the directories on
    the way to it are walked; their untracked files stay ignored."""
    for rel in ("src/app.py", "build/generated.py", "build/stale.py", "logs/keep.log", "a.log"):
        write(tmp_path, rel)
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "src/app.py", "build/generated.py", "logs/keep.log")
    write(tmp_path, ".gitignore", "build/\n*.log\n")
    assert paths(tmp_path) == [
        ".gitignore",
        "build/generated.py",
        "logs/keep.log",
        "src/app.py",
    ]
    rules = PathFilter(tmp_path, WalkFilters())  # the watcher's check agrees
    assert not rules.excluded("build/generated.py", is_dir=False)
    assert rules.excluded("build/stale.py", is_dir=False)
    assert rules.excluded("a.log", is_dir=False)
    # the caller's own globs still apply to tracked files
    assert paths(tmp_path, WalkFilters(exclude_globs=("build/**",))) == [
        ".gitignore",
        "logs/keep.log",
        "src/app.py",
    ]
    # without respecting .gitignore everything is there anyway
    assert "build/stale.py" in paths(tmp_path, WalkFilters(respect_gitignore=False))


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_clone_excludes_file_applies_under_every_gitignore(tmp_path: Path) -> None:
    """`.git/info/exclude` was not read: the index served files `git status` hides. Its rules
    rank under every `.gitignore` (a `.gitignore` negation wins), anchored at the work tree's
    top, for a package below it too; the walk lists what git lists."""
    git(tmp_path, "init", "-q")
    for rel in ("a.py", "x.secret", "override.secret", "local/notes.py", "pkg/m.py",
                "pkg/gen/out.py", "pkg/x.secret", "pkg/local/y.py"):  # fmt: skip
        write(tmp_path, rel)
    write(tmp_path, ".gitignore", "!override.secret\n")
    (tmp_path / ".git" / "info").mkdir(exist_ok=True)
    (tmp_path / ".git" / "info" / "exclude").write_text("*.secret\n/local/\npkg/gen/\n")
    for root in (tmp_path, tmp_path / "pkg"):
        listed = git(root, "ls-files", "--cached", "--others", "--exclude-standard", "-z")
        expected = sorted(p for p in listed.split("\0") if p)
        assert sorted(paths(root)) == expected, root
    assert paths(tmp_path / "pkg") == ["local/y.py", "m.py"]


def test_a_git_directory_git_cannot_read_leaves_the_ignore_rules(tmp_path: Path) -> None:
    write(tmp_path, ".git/HEAD", "not a ref\n")  # no repository git can open
    write(tmp_path, ".gitignore", "*.log\n")
    write(tmp_path, "a.log")
    write(tmp_path, "a.py")
    assert paths(tmp_path) == [".gitignore", "a.py"]


@pytest.mark.slow  # asks git itself about every generated tree
@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_matches_git_on_random_trees_with_tracked_files(tmp_path: Path) -> None:
    """Some files of each random tree are added with `git add -f` (ignored or not): the walk
    lists what git lists as tracked or untracked-and-not-ignored."""
    for seed in range(80):
        root = tmp_path / f"r{seed}"
        root.mkdir()
        git(root, "init", "-q")
        rng = random.Random(1000 + seed)
        _random_tree(root, rng)
        files = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
        files = [f for f in files if not f.startswith(".git/")]
        chosen = rng.sample(files, min(len(files), rng.randint(1, 3)))
        git(root, "add", "-f", "--", *chosen)
        listed = git(root, "ls-files", "--cached", "--others", "--exclude-standard", "-z")
        expected = sorted({p for p in listed.split("\0") if p})
        assert sorted(paths(root)) == expected, f"seed {seed}"


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_root_inside_a_larger_work_tree_obeys_that_repository(tmp_path: Path) -> None:
    """A repository registered at a package of a monorepo (the `.git` is above its root): git's
    tracked files under it are walked whatever the rules, and the `.gitignore` files above it
    apply, as `git ls-files` run in that directory says."""
    top = tmp_path / "mono"
    for rel in ("pkg/src/app.py", "pkg/build/generated.py", "pkg/build/stale.py", "pkg/a.log"):
        write(top, rel)
    write(top, "pkg/dist/bundle.js")
    write(top, "other/skip.py")
    git(top, "init", "-q")
    git(top, "add", "pkg/src/app.py", "pkg/build/generated.py")
    write(top, ".gitignore", "build/\n*.log\n/pkg/dist/\n")
    root = top / "pkg"
    expected = sorted(
        p for p in git(root, "ls-files", "-co", "--exclude-standard", "-z").split("\0") if p
    )
    assert expected == ["build/generated.py", "src/app.py"]
    assert paths(root) == expected
    rules = PathFilter(root, WalkFilters())  # the watcher's check agrees
    assert not rules.excluded("build/generated.py", is_dir=False)
    assert rules.excluded("build/stale.py", is_dir=False)
    assert rules.excluded("dist/bundle.js", is_dir=False)
    # `git add -f` in the enclosing repository is noticed by the watcher's check
    assert rules.tracked.files == {"build/generated.py", "src/app.py"}
    git(top, "add", "-f", "pkg/build/stale.py")
    assert rules.tracked_changed()
    rules.invalidate()
    assert not rules.excluded("build/stale.py", is_dir=False)


def _linked_worktree(tmp_path: Path) -> Path:
    """A second work tree of a repository (`git worktree add`): its `.git` is a file."""
    main = tmp_path / "main"
    write(main, "README.md")
    git(main, "init", "-q")
    git(main, "add", "README.md")
    git(main, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one")
    git(main, "worktree", "add", "-q", str(tmp_path / "linked"))
    return tmp_path / "linked"


def _separate_git_dir(tmp_path: Path) -> Path:
    """A work tree whose repository lives elsewhere, as a submodule's does: `.git` is a file."""
    root = tmp_path / "checkout"
    root.mkdir()
    git(root, "init", "-q", f"--separate-git-dir={tmp_path / 'repo.git'}")
    return root


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
@pytest.mark.parametrize("make", [_linked_worktree, _separate_git_dir])
def test_a_root_whose_git_is_a_file_keeps_what_git_tracks(
    tmp_path: Path, make: Callable[[Path], Path]
) -> None:
    """A worktree's or submodule's `.git` is a file naming the repository: the walk still asks
    git for its tracked files, and the watcher's check follows the file to git's index."""
    root = make(tmp_path)
    assert (root / ".git").is_file()
    for rel in ("src/app.py", "build/generated.py", "build/stale.py"):
        write(root, rel)
    git(root, "add", "src/app.py", "build/generated.py")
    write(root, ".gitignore", "build/\n")
    expected = sorted(
        p for p in git(root, "ls-files", "-co", "--exclude-standard", "-z").split("\0") if p
    )
    assert "build/generated.py" in expected
    assert "build/stale.py" not in expected
    assert sorted(paths(root)) == expected
    rules = PathFilter(root, WalkFilters())
    assert not rules.excluded("build/generated.py", is_dir=False)
    assert rules.excluded("build/stale.py", is_dir=False)
    git(root, "add", "-f", "build/stale.py")
    assert rules.tracked_changed()
    rules.invalidate()
    assert not rules.excluded("build/stale.py", is_dir=False)


@pytest.mark.slow  # asks git itself about every generated tree
@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_matches_git_on_random_trees_below_the_work_tree(tmp_path: Path) -> None:
    """Random trees, each registered at a directory below its git work tree, with rules above
    and inside it and some files added with `git add -f`: the walk lists what `git ls-files
    --cached --others --exclude-standard` lists in that directory."""
    compared = 0
    for seed in range(60):
        top = tmp_path / f"r{seed}"
        root = top / "pkg" / "lib"
        root.mkdir(parents=True)
        git(top, "init", "-q")
        rng = random.Random(2000 + seed)
        _random_tree(root, rng)
        for outer in (top, top / "pkg"):
            if rng.random() < 0.8:
                (outer / ".gitignore").write_text("\n".join(rng.sample(_RULES, 3)) + "\n")
        files = sorted(str(p.relative_to(top)) for p in root.rglob("*") if p.is_file())
        git(top, "add", "-f", "--", *rng.sample(files, min(len(files), rng.randint(0, 3))))
        # a root git ignores (itself or a directory above it) is still walked: it was registered
        ignored = [
            subprocess.run(
                ["git", "check-ignore", "-q", "--no-index", d], cwd=top, check=False
            ).returncode
            == 0
            for d in ("pkg/", "pkg/lib/")
        ]
        if any(ignored):
            continue
        listed = git(root, "ls-files", "--cached", "--others", "--exclude-standard", "-z")
        assert sorted(paths(root)) == sorted({p for p in listed.split("\0") if p}), f"seed {seed}"
        compared += 1
    assert compared >= 30


def test_a_gitignore_of_ten_thousand_lines_does_not_try_every_rule_on_every_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # QA (hostile repository): 10,000 `pattern_N_*.tmp` lines made each path cost 10,000 RE2
    # searches (15.8 ms), so a walk of 20,000 files sat in "Walking, 0 indexed" for 5.5 min.
    write(tmp_path, ".gitignore", "".join(f"pattern_{i}_*.tmp\n" for i in range(10_000)))
    rules = GitIgnoreRules(tmp_path)
    tried = 0
    real = _Rule.matches_itself

    def counting(rule: _Rule, bare: str, is_dir: bool) -> bool:
        nonlocal tried
        tried += 1
        return real(rule, bare, is_dir)

    monkeypatch.setattr(_Rule, "matches_itself", counting)
    assert not rules.is_ignored("src/app.py", is_dir=False)
    assert not rules.is_ignored("src", is_dir=True)
    assert rules.is_ignored("pattern_9999_x.tmp", is_dir=False)
    assert rules.is_ignored("a/pattern_17_.tmp", is_dir=False)
    assert tried <= 2 * 128  # only the run of rules holding the match is tried one by one


def test_grouped_rules_decide_as_the_last_matching_rule(tmp_path: Path) -> None:
    rng = random.Random(7)
    lines = [rng.choice(_RULES) for _ in range(700)]  # several groups, every kind of rule
    write(tmp_path, ".gitignore", "\n".join(lines) + "\n")
    write(tmp_path, "a/.gitignore", "\n".join(rng.choice(_RULES) for _ in range(300)) + "\n")
    rules = GitIgnoreRules(tmp_path)
    names = ["a", "b", "c.txt", "foo", "build", "out", "x", "[x]", "a b", "q.txt", "a\nb"]
    for _ in range(3000):
        path = "/".join(rng.choice(names) for _ in range(rng.randint(1, 4)))
        is_dir = rng.random() < 0.5
        bare = path.replace("\n", "\0")
        naive = next(
            (
                rule.ignore
                for rule in reversed(rules.rules_for(path.rpartition("/")[0]))
                if rule.matches_itself(bare, is_dir)
            ),
            False,
        )
        assert rules.is_ignored(path, is_dir) == naive, (path, is_dir)


def test_a_gitignore_over_the_size_limit_loses_its_tail_by_whole_lines(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # QA (hostile repository): the 4 MiB cut kept the half line it fell in as a rule, silently;
    # here `src/keep.txt` cut to `src` ignored the whole src directory.
    limit = 4 * 1024 * 1024
    filler = "# padding\n" * (limit // 10)
    filler = filler[: limit - 3 - (limit % 10)]
    filler += "\n" * (limit - 3 - len(filler))
    write(tmp_path, ".gitignore", filler + "src/keep.txt\n")
    write(tmp_path, "src/a.py")
    with caplog.at_level("WARNING"):
        assert "src/a.py" in paths(tmp_path)
    assert "only its first" in caplog.text


def test_long_rules_share_a_search_only_a_few_at_a_time(tmp_path: Path) -> None:
    # 10,000 lines of ~1,000-character `*a*a...` rules: 128 to an alternation raised the
    # compile to 8.1 s and 1,273 MiB (rule by rule: 3.6 s, 724 MiB); grouped by size, as before.
    write(tmp_path, ".gitignore", "".join(f"{'*a' * 100}{i}\n" for i in range(300)))
    chunks = GitIgnoreRules(tmp_path)._rules_at("")
    assert sum(len(chunk.rules) for chunk in chunks) == 300
    for chunk in chunks:
        assert chunk.any_of is None or len(chunk.any_of.pattern) <= 4096 + 8 * len(chunk.rules)


def test_dropped_ignore_rules_are_counted_for_the_job(tmp_path: Path) -> None:
    """Rules past the 10,000-line limit and a .gitignore's tail past its 4 MiB cut were only
    logged: index_status said nothing, and the files those rules name were indexed. The pass's
    counts now hold how many lines were dropped and from which files."""
    write(tmp_path, ".gitignore", "".join(f"pattern_{i}_*.tmp\n" for i in range(10_003)))
    limit = 4 * 1024 * 1024
    padding = "# padding\n" * (limit // 10)
    write(tmp_path, "deep/.gitignore", padding + "a.log\nb.log\n")  # 2 lines past the cut
    write(tmp_path, "deep/x.py")
    write(tmp_path, "kept/.gitignore", "*.bak\n[z-a]\n")  # an invalid range: refused
    write(tmp_path, "kept/y.py")
    counts = PlanCounts()
    for _ in plan_changes(tmp_path, WalkFilters(), {}, counts=counts):
        pass
    assert counts.ignore_rules_dropped == 3 + 2 + 1
    assert counts.ignore_rules_dropped_paths == [".gitignore", "deep/.gitignore", "kept/.gitignore"]
    job = JobTracker("r")
    job.counts = counts
    snap = job.snapshot()
    assert snap["ignoreRulesDropped"] == 6
    assert snap["ignoreRulesDroppedPaths"] == counts.ignore_rules_dropped_paths
    clean = JobTracker("r").snapshot()
    assert "ignoreRulesDropped" not in clean and "ignoreRulesDroppedPaths" not in clean
