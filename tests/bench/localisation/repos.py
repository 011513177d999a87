"""The benchmark's repositories, pinned by commit and split once into tuning and reporting.

The split is fixed here so no one tunes on the reporting half by accident: rank changes are
measured on `tuning`, and `reporting` is only read to report. Each language has at least one
repository in each half. pytest-dev/pytest, honojs/hono and caddyserver/caddy are never used:
they belong to an independent judge.

A third set, `check`, is read like the reporting half, never tuned on: fifteen more
repositories (test frameworks among them, whose own words are `test`, `fixture`, `assert`)
that say whether a lever kept for the two halves holds elsewhere. Some of them were used for
agents' QA passes before they were pinned here (docs/benchmarks.md says which).

A fourth set, `dev`, is free to tune on like the tuning half: ten repositories in Python,
TypeScript and Go (the judge's languages) that a lever must not lose on either, so a constant
is not fitted to sixteen repositories alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

Split = Literal["tuning", "reporting", "check", "dev"]
SPLITS: tuple[Split, ...] = ("tuning", "reporting", "check", "dev")
TUNABLE: frozenset[Split] = frozenset({"tuning", "dev"})  # a sweep may read these
DEFAULT_MIRRORS = Path("/work/.mirror")
FORBIDDEN = frozenset({"pytest-dev/pytest", "honojs/hono", "caddyserver/caddy"})


@dataclass(frozen=True)
class PinnedRepo:
    name: str  # owner/name on GitHub
    language: str
    commit: str
    split: Split

    @property
    def slug(self) -> str:
        """owner+name: the mirror folder's name and the cache key."""
        return self.name.replace("/", "+")

    def git_dir(self, mirrors: Path) -> Path:
        return mirrors / self.slug / "repo"


# split, owner/name, language, commit (the mirror's HEAD when the cases were mined)
_PINS: tuple[tuple[Split, str, str, str], ...] = (
    ("tuning", "pallets/click", "python", "2c8cd3ac958a7eb316d67f2d316c27086c4c0369"),
    ("tuning", "colinhacks/zod", "typescript", "e516c3baf22615e20934116abebfed6c000222c2"),
    ("tuning", "fastify/fastify", "javascript", "83e69762aff047940b376fc2a266d143499ef727"),
    ("tuning", "gin-gonic/gin", "go", "dcaa4296d111981ffb31ac3eba90bb63e1eb5ab9"),
    ("tuning", "BurntSushi/ripgrep", "rust", "3fce3b5bb0236da2df6d99672afb8a719642eca7"),
    ("tuning", "jhy/jsoup", "java", "46b620860af930eedc193a705eaf7cea5aec89a6"),
    ("tuning", "koajs/koa", "javascript", "e0ba8ef39d27fe5dae5492f9fe753d155124f994"),
    ("tuning", "go-chi/chi", "go", "735ae2b87f8c733d616e809ae86e0985c1bc3350"),
    ("tuning", "urfave/cli", "go", "1305a08200f7c4d873e28bd2bbad1ff257c6cfc4"),
    ("tuning", "tokio-rs/axum", "rust", "3d78036dcac289d6c1d54934708acb6a5bd73686"),
    ("tuning", "clap-rs/clap", "rust", "6982fb1c98c7247e38a6d4f04191b94e30497e7b"),
    ("tuning", "vuejs/core", "typescript", "e2bede96134f757aad5c5b33ac9be055022dbfc8"),
    ("tuning", "FasterXML/jackson-core", "java", "b367da1c30a25e99fbf2c30876e948b578c86846"),
    ("tuning", "coredns/coredns", "go", "4b26cced32717eac6dd725e308d7415c8b9db147"),
    ("tuning", "unjs/h3", "typescript", "ac609aae8fa93947b564de55e2d1a6bec5ad18ad"),
    ("tuning", "tox-dev/tox", "python", "ccb12fc2e1bb9df0da860be4af175e9b97949fbc"),
    ("reporting", "encode/httpx", "python", "ae1b9f66238f75ced3ced5e4485408435de10768"),
    ("reporting", "trpc/trpc", "typescript", "340811ba5320637fbaf48fccf3dbfdd258bd34db"),
    ("reporting", "expressjs/express", "javascript", "a3714473feb3d2908add734d340e7755fd85e0a3"),
    ("reporting", "spf13/cobra", "go", "adbc8813901bba65827259daa8e22ff94ec1f30e"),
    ("reporting", "labstack/echo", "go", "05489dc1730161df26b72d1ae2a3ba6fb8178fc7"),
    ("reporting", "sharkdp/bat", "rust", "2ba8db9c14e5794572f5ea338c2b90404c9769cb"),
    ("reporting", "google/gson", "java", "9835b6f90192f79cdf5300c528fc6212455fb6c1"),
    ("check", "psf/black", "python", "8947c48ef2077c3a301b03c1e814dc2e3f78436e"),
    ("check", "python-attrs/attrs", "python", "c1dc5dcba16ed827aa6dcad896b41a3afedb4e32"),
    ("check", "pytest-dev/pytest-xdist", "python", "f63b6a25b4eb932385c6ee4651eac5c08fbd3a20"),
    ("check", "HypothesisWorks/hypothesis", "python", "41004301f02bcb35b7953518ed16705c4cf0211c"),
    ("check", "elysiajs/elysia", "typescript", "8358ff9efbcedf9534995f5977f26b9ceab59329"),
    ("check", "sindresorhus/ky", "typescript", "3419113b48e034fdcf8fa6bd3be3da7b3d0d758f"),
    ("check", "mochajs/mocha", "javascript", "e6b9ee773481fd739ae24caeb42f32ac0b010f95"),
    ("check", "gofiber/fiber", "go", "c344047e102861ac2b7f0259ea3dd3af4b03ad63"),
    ("check", "spf13/viper", "go", "528f7416c4b56a4948673984b190bf8713f0c3c4"),
    ("check", "stretchr/testify", "go", "12f8b5612e125f337c4589e198771e5f8970f160"),
    ("check", "onsi/ginkgo", "go", "09bbf5fe63a392c8616dc1c80257b177e2aa7033"),
    ("check", "casey/just", "rust", "4f41f609278edb6f1024e3dd7a9912946e1e7bc3"),
    ("check", "apache/commons-lang", "java", "d15939ef46f0bd4144994df8be95cf5a7f91eb52"),
    ("check", "square/javapoet", "java", "b9017a9503b76e11b4ad4c1a9f050e2d29112cb0"),
    ("check", "mockito/mockito", "java", "ee8a330da0218f32d5964acdeaa3ac39e2c6ce14"),
    ("dev", "encode/starlette", "python", "cb8f84f5284dc301ca7a31eb732b9e140769dd48"),
    ("dev", "pallets/flask", "python", "2ac89889f4cc330eabd50f295dcef02828522c69"),
    ("dev", "python-poetry/poetry", "python", "f46702336862f30050d5c641d5ed6f7568ded793"),
    ("dev", "psf/requests", "python", "1f6589ec3a1ee910f9a65cc3ceac60b26677bc0e"),
    ("dev", "pmndrs/zustand", "typescript", "f094eebe9bd3b4b0d77b997f69ab1d273f69a877"),
    ("dev", "immerjs/immer", "typescript", "061c2425e1c9dff89e4e4189d42af1b7839dfe0a"),
    ("dev", "nitrojs/nitro", "typescript", "e36e7a60a339cb9bcc770089aa3e2657c8d21e96"),
    ("dev", "sindresorhus/got", "typescript", "d00d845a0b435365ec73ea5a1fca6e17ee677184"),
    ("dev", "go-gorm/gorm", "go", "1d6ce99528060be18a42be09aca8d39efcb47f28"),
    ("dev", "sirupsen/logrus", "go", "87434bb3a736e2a27d34df66924471714f408d3d"),
)  # fmt: skip
REPOS: tuple[PinnedRepo, ...] = tuple(
    PinnedRepo(name, language, commit, split) for split, name, language, commit in _PINS
)

BY_NAME = {repo.name: repo for repo in REPOS}
assert not FORBIDDEN & BY_NAME.keys(), "a judge's repository is in the benchmark"


class MirrorMissing(RuntimeError):
    """A pinned repository's bare git mirror is not on this machine."""


def repo_named(name: str) -> PinnedRepo:
    """A pinned repository by owner/name, or by its bare name (`click`)."""
    if name in BY_NAME:
        return BY_NAME[name]
    matches = [r for r in REPOS if r.name.split("/")[1] == name]
    if len(matches) == 1:
        return matches[0]
    known = ", ".join(r.name for r in REPOS)
    raise ValueError(f"--repos: unknown repository {name!r}; the benchmark has {known}")


def select(split: str = "all", names: list[str] | None = None) -> list[PinnedRepo]:
    if split not in (*SPLITS, "all"):
        raise ValueError(f"--split must be tuning, reporting, check, dev or all, not {split!r}")
    chosen = [repo_named(n) for n in names] if names else list(REPOS)
    return [r for r in chosen if split == "all" or r.split == split]


def require_mirror(repo: PinnedRepo, mirrors: Path) -> Path:
    """The mirror's git dir, or an error that says how to get it."""
    git_dir = repo.git_dir(mirrors)
    if not (git_dir / "HEAD").exists():
        raise MirrorMissing(
            f"no git mirror of {repo.name} at {git_dir}. Make a bare clone there "
            f"(git clone --bare https://github.com/{repo.name} {git_dir}) on a machine with "
            f"network access, or pass --mirrors DIR where DIR/{repo.slug}/repo is one; "
            f"it must contain commit {repo.commit}."
        )
    return git_dir
