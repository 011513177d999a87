"""A tiny git history with one commit of each kind the miner must keep or skip, for tests."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

GOOD_QUERY = "handle empty sections in config files An empty section made the parser crash."
SIX_FILES = [f"src/mod{i}.py" for i in range(6)]


class TinyRepo:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.tick = 0
        root.mkdir(parents=True)
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str, author: str = "Dev <dev@example.com>") -> str:
        self.tick += 1
        name, _, email = author.partition(" <")
        date = f"2024-01-01T00:{self.tick // 60:02d}:{self.tick % 60:02d}Z"
        env = {**os.environ, "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email.rstrip(">"),
               "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": email.rstrip(">"),
               "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}  # fmt: skip
        proc = subprocess.run(["git", "-C", str(self.root), *args], env=env,
                              capture_output=True, text=True, check=True)  # fmt: skip
        return proc.stdout.strip()

    def commit(self, message: str, files: dict[str, str | None], author: str = "") -> str:
        """Write (or, for None, delete) the files and commit them."""
        for rel, text in files.items():
            path = self.root / rel
            if text is None:
                self.git("rm", "-q", rel)
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            self.git("add", rel)
        self.git("commit", "-q", "-m", message, author=author or "Dev <dev@example.com>")
        return self.git("rev-parse", "HEAD")


# (name, message, files written (None: deleted), author); the feature branch is merged after
# "side", and "rename" is a `git mv` with nothing else.
BOT = "dependabot[bot] <bot@example.com>"
DEV = "Dev <dev@example.com>"
HISTORY: list[tuple[str, str, dict[str, str | None], str]] = [
    ("first", "Add the config parser and its loader", {
        "src/parser.py": "def parse_config(text):\n    return dict(l.split('=') for l in text)\n",
        "src/util.py": "def strip_comments(line):\n    return line.split('#')[0]\n",
        "README.md": "# tiny\n",
    }, DEV),
    ("legacy", "Add the legacy exporter for old formats", {"src/legacy.py": "1\n"}, DEV),
    ("test_only", "Add tests for parser edge cases", {"tests/test_parser.py": "1\n"}, DEV),
    ("six", "Refactor every module to use the new logging setup",
     {path: f"# {path}\n" for path in SIX_FILES}, DEV),
    ("bot", "Bump requests from 2.31 to 2.32 in the parser", {"src/parser.py": "# bump\n"}, BOT),
    ("docs", "docs: explain the config format in the parser",
     {"docs/config.md": "# config\n", "src/parser.py": "# doc\n"}, DEV),
    ("short", "Fix typo", {"src/helpers.py": "def strip_comments(l): 1\n"}, DEV),
    ("removed", "Remove the legacy exporter module entirely", {"src/legacy.py": None}, DEV),
    ("good", "fix(parser): handle empty sections in config files (#42)\n\n"
     "An empty section made the parser crash.\n\nSigned-off-by: Dev <dev@example.com>",
     {"src/parser.py": "def parse_config(text):\n    sections = {}\n    return sections\n",
      "tests/test_parser.py": "def test_empty_section(): 1\n"}, DEV),
]  # fmt: skip


def build(root: Path) -> dict[str, str]:
    """The history; returns the commit of each named kind."""
    repo = TinyRepo(root)
    made: dict[str, str] = {}
    for name, message, files, author in HISTORY:
        if name == "six":  # a side branch and its merge, and a pure rename, come first
            repo.git("checkout", "-q", "-b", "feature")
            made["feature"] = repo.commit(
                "Teach the loader to read yaml files", {"src/loader.py": "def load_yaml(p): 1\n"}
            )
            repo.git("checkout", "-q", "main")
            made["side"] = repo.commit(
                "Log which config file the parser reads", {"src/parser.py": "import logging\n"}
            )
            repo.git("merge", "-q", "--no-ff", "-m", "Merge branch feature into main", "feature")
            made["merge"] = repo.git("rev-parse", "HEAD")
            repo.git("mv", "src/util.py", "src/helpers.py")
            made["rename"] = repo.commit("Move the util helpers into a helpers module", {})
        made[name] = repo.commit(message, files, author=author)
    return made


def bare_mirror(work: Path, mirrors: Path, slug: str) -> Path:
    """A bare clone at mirrors/<slug>/repo, laid out like the benchmark's mirrors."""
    target = mirrors / slug / "repo"
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(target)], check=True)
    return target
