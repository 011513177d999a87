"""A request to update a dependency ranks first the manifests declaring it.

`Update tikv-jemallocator to 0.6`, `chore(deps): bump serde from 1.0.1 to 1.0.2`: the change
is the version written in the manifest that declares the package (Cargo.toml, package.json,
go.mod, pyproject.toml, ...). A manifest is a config file, pushed down unless asked for, and
the code using the package holds its name as often: on sharkdp/fd Cargo.toml was not in the
first ten for `Update tikv-jemallocator to 0.6`, below main.rs, which uses the allocator.
Only a request of that form (a verb of updating, one package name, a version after `to`)
does; lock files follow their manifests and are not lifted (they are generated). A Maven or
Gradle package is named by its coordinate, `groupId:artifactId` (Dependabot's `Bump
org.apache.commons:commons-parent from 103 to 104`), and its manifest writes the two apart
(`<artifactId>commons-parent</artifactId>`): the artifact is the name looked for. A GitHub
Action (`Bump actions/cache from 6.0.0 to 6.1.0`) is declared where a workflow `uses:` it.
A verb written twice (`Bump Bump actions/cache from 5.0.3 to 5.0.4`, a commit's slip) is one.
"""

from __future__ import annotations

import re

_UPDATE = re.compile(
    r"""^\s*(?:[a-z]+(?:\([^()\n]{1,40}\))?!?:\s*)?
    (?:(?:update|bump|upgrade|downgrade|pin)\s+)+(?:the\s+)?
    (?:(?:dependency|crate|package|module|gem)\s+)?
    `?(?:(?P<group>[A-Za-z][\w.-]*):)?(?P<name>[A-Za-z@][\w.@/-]*)`?
    (?:\s+(?:dependency|crate|package|module|gem))?
    (?:\s+from\s+v?\d\S*)?\s+to\s+v?\d\S*\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
_MANIFESTS = frozenset(
    {"cargo.toml", "package.json", "go.mod", "pyproject.toml", "setup.py", "setup.cfg",
     "pom.xml", "build.gradle", "build.gradle.kts", "gemfile", "composer.json",
     "pipfile", "environment.yml", "deno.json"}
)  # fmt: skip


# a request to remove one (`drop pin-utils dependency`, `Remove the dependency on X`, `remove
# the X crate`): the manifest declaring it changes too. QA on hyperium/hyper: `chore(
# dependencies): drop pin-utils dependency` left Cargo.toml out of the first four
_KIND_WORD = r"(?:dependency|dep|crate|gem)"  # not `module`, `package`: code has those
_REMOVE = re.compile(
    rf"""^\s*(?:[a-z]+(?:\([^()\n]{{1,40}}\))?!?:\s*)?
    (?:drop|remove|delete)\s+(?:the\s+)?(?:unused\s+)?
    (?:(?P<before>{_KIND_WORD}\s+(?:on\s+)?))?
    `?(?P<name>[A-Za-z@][\w.@/-]*)`?
    (?P<after>\s+{_KIND_WORD})?\s*$""",
    re.IGNORECASE | re.VERBOSE,
)


def updated_package(query: str) -> str | None:
    """The package a request to update (or remove) a dependency names, else None."""
    found = _UPDATE.match(query)
    if found is not None:
        return found.group("name")
    removed = _REMOVE.match(query)
    if removed is None or not (removed.group("before") or removed.group("after")):
        return None  # `remove the connection`: a request's words, no dependency
    return removed.group("name")


# Deno's convention: a module re-exporting the project's dependencies by their specifiers
# (`export { pathToRegexp } from "npm:path-to-regexp@^6.3.0"`), where their versions are
_DENO_DEPS = re.compile(r"^(?:dev_|test_)?deps(?:_test)?\.[jt]s$")


def is_manifest(path: str) -> bool:
    """Whether the file at `path` declares a project's dependencies."""
    name = path.rpartition("/")[2].casefold()
    return (
        name in _MANIFESTS
        or _DENO_DEPS.match(name) is not None
        or (name.startswith("requirements") and name.endswith((".txt", ".in")))
        or name.endswith((".csproj", ".fsproj"))
    )


def declares(body: str, package: str) -> bool:
    """Whether a manifest's text names `package` whole: `tikv-jemallocator`, not
    `jemallocator` inside it; a TOML table or dotted key may write it after or before a dot
    (`[dependencies.clap]`, `clap.workspace = true`); a specifier its version after an `@`
    (`npm:path-to-regexp@^6.3.0`, `jsr:@std/http@1.0.9`)."""
    whole = re.compile(
        rf"(?<![\w@/-]){re.escape(package)}(?![\w/-])(?!@(?![\^~=<>*v\d]))", re.IGNORECASE
    )
    return whole.search(body) is not None


# a GitHub Actions file (a workflow, a composite action) and its step using an action, at a
# version or commit after the `@`: `uses: actions/cache@0400d5f # v4`, a sub-action
# `uses: github/codeql-action/init@v3`
_ACTIONS_FILE = re.compile(r"(?:^|/)\.github/.+\.ya?ml$")


def may_declare(path: str) -> bool:
    """Whether the file at `path` may declare a dependency: a manifest or an Actions file."""
    return is_manifest(path) or _ACTIONS_FILE.search(path) is not None


def declaring_file(path: str, body: str, package: str) -> bool:
    """Whether the file at `path` declares the dependency `package`: a manifest naming it
    (declares), or a GitHub Actions file whose step uses it as an action. QA on
    apache/commons-collections: `Bump actions/cache from 6.0.0 to 6.1.0` ranked
    NodeCachingLinkedList.java and release-notes.vm above the workflows using the action,
    which are no manifest."""
    if is_manifest(path):
        return declares(body, package)
    if _ACTIONS_FILE.search(path) is None or "/" not in package:
        return False
    step = rf"^\s*-?\s*uses:\s*['\"]?{re.escape(package)}(?:/[\w./-]+)?@"
    return re.search(step, body, re.IGNORECASE | re.MULTILINE) is not None
