"""A request to update a dependency (`Update tikv-jemallocator to 0.6`, `chore(deps): bump
serde from 1.0.1 to 1.0.2`) ranks first the manifests declaring it (Cargo.toml, package.json,
go.mod, pyproject.toml, ...), where the version is written. QA on sharkdp/fd: `Update
tikv-jemallocator to 0.6` and `Depend on jemallocator as tikv-jemallocator` left Cargo.toml
out of the first ten (a config file is pushed down; main.rs, which uses the allocator, led)."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.dependency_lines import declaration_lines
from query_api.retrieval.dependency_updates import (
    declares,
    declaring_file,
    is_manifest,
    updated_package,
)
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "Cargo.toml": (
        '[package]\nname = "fd-find"\nversion = "10.3.0"\n\n[dependencies]\n'
        'regex = "1.11"\nserde = "1.0.1"\n\n'
        "[target.'cfg(all(unix, not(target_os = \"illumos\")))'.dependencies]\n"
        'tikv-jemallocator = { version = "0.5.0", optional = true }\n'
    ),
    "src/main.rs": (
        "// the allocator: tikv-jemallocator, updated with the jemallocator crate's versions\n"
        '#[cfg(feature = "use-jemalloc")]\n'
        "#[global_allocator]\n"
        "static ALLOC: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;\n\n"
        "/// update the allocator to the tikv jemallocator\n"
        "fn main() {\n    let _ = &ALLOC;\n}\n"
    ),
    "src/walk.rs": "/// update the walker to 0.6\npub fn walk() {}\n",
}


async def test_a_dependency_update_ranks_its_manifest_first(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        for query in (
            "Update tikv-jemallocator to 0.6",
            "chore(deps): bump serde from 1.0.1 to 1.0.2",
            "build(deps): Bump `regex` to v1.12",
        ):
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            assert found["hits"][0]["entry"]["path"] == "Cargo.toml", (query, found["hits"])


def test_what_reads_as_a_dependency_update() -> None:
    assert updated_package("Update tikv-jemallocator to 0.6") == "tikv-jemallocator"
    assert updated_package("chore(deps): bump serde from 1.0.1 to 1.0.2") == "serde"
    assert updated_package("Bump the @types/node package to 20.1.0") == "@types/node"
    assert updated_package("update the walker to use rayon") is None
    assert updated_package("Update README") is None
    assert is_manifest("Cargo.toml") and is_manifest("web/package.json")
    assert is_manifest("requirements-dev.txt") and not is_manifest("Cargo.lock")
    assert declares("[dependencies.clap]\nversion = 4", "clap")  # a TOML table (fd's clap)
    assert not declares('tikv-jemallocator = "0.5"', "jemallocator")


POM = {
    "pom.xml": (
        "<project>\n  <parent>\n    <groupId>org.apache.commons</groupId>\n"
        "    <artifactId>commons-parent</artifactId>\n    <version>103</version>\n"
        "  </parent>\n  <artifactId>commons-things</artifactId>\n  <dependencies>\n"
        "    <dependency>\n      <groupId>org.junit.jupiter</groupId>\n"
        "      <artifactId>junit-jupiter</artifactId>\n      <version>5.11.0</version>\n"
        "    </dependency>\n  </dependencies>\n</project>\n"
    ),
    "src/main/java/org/apache/commons/things/ThingList.java": (
        "package org.apache.commons.things;\n\n"
        "/** A list of things, the commons parent of every bag: bump it from 103 to 104. */\n"
        "public class ThingList {\n    /** Bumps the parent count. */\n"
        "    public int bump(int parent) {\n        return parent + 104;\n    }\n}\n"
    ),
}


async def test_a_maven_coordinate_update_ranks_its_pom_first(tmp_path: Path) -> None:
    """Dependabot names a Maven package by `groupId:artifactId`, which a pom.xml writes
    apart. QA on apache/commons-collections: `Bump org.apache.commons:commons-parent from
    103 to 104.` left pom.xml out of the first ten."""
    write_files(tmp_path / "ws" / "repo", POM)
    async with memory_rig(tmp_path, index=True) as (_, s):
        for query in (
            "Bump org.apache.commons:commons-parent from 103 to 104.",
            "build(deps): bump org.junit.jupiter:junit-jupiter from 5.11.0 to 5.12.0",
        ):
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            assert found["hits"][0]["entry"]["path"] == "pom.xml", (query, found["hits"])
        # at the artifact and its version, not at the other lines holding the request's words
        query = "Bump org.apache.commons:commons-parent from 103 to 104."
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        assert (found["hits"][0]["startLine"], found["hits"][0]["endLine"]) == (4, 5)


def test_a_maven_coordinate_names_its_artifact() -> None:
    query = "Bump org.apache.commons:commons-parent from 103 to 104."
    assert updated_package(query) == "commons-parent"
    assert updated_package("Bump com.google.guava:guava to 33.0") == "guava"
    # a verb written twice (QA on apache/commons-collections, commit 9bbda635b)
    assert updated_package("Bump Bump actions/cache from 5.0.3 to 5.0.4") == "actions/cache"
    assert declares("<artifactId>commons-parent</artifactId>", "commons-parent")


WORKFLOWS = {
    ".github/workflows/maven.yml": (
        "name: Java CI\non: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
        "    - uses: actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1\n"
        "    - uses: actions/cache@55cc8345863c7cc4c66a329aec7e433d2d1c52a9 # v6.0.0\n"
        "      with:\n        path: ~/.m2/repository\n"
        "    - name: Set up JDK\n"
        "      uses: actions/setup-java@b6effb05e454b25005698d916606bd # 5.6.0\n"
    ),
    ".github/workflows/codeql.yml": (
        "name: CodeQL\non: [push]\njobs:\n  analyze:\n    runs-on: ubuntu-latest\n    steps:\n"
        "    - uses: actions/cache@55cc8345863c7cc4c66a329aec7e433d2d1c52a9 # v6.0.0\n"
        "    - name: Initialize CodeQL\n"
        "      uses: github/codeql-action/init@ff2f1c621b7f889edc0d3c761ac2e6a3f8cdb0dd # 4.37.6\n"
    ),
    "src/main/java/app/NodeCachingList.java": (
        "package app;\n\n"
        "/** A list caching its nodes: the cache holds removed nodes from 6 to 600. */\n"
        "public class NodeCachingList {\n    /** Bumps the cache size. */\n"
        "    void cache(int from, int to) {}\n    /** The cache's actions. */\n"
        "    void actions() {}\n}\n"
    ),
    "src/changes/release-notes.vm": (
        "## Bump the cache from 6.0.0 to 6.1.0: actions for the release\n"
    ),
}


async def test_an_action_update_ranks_the_workflows_using_it_first(tmp_path: Path) -> None:
    """A GitHub Action is declared where a workflow step `uses:` it. QA on
    apache/commons-collections: `Bump actions/cache from 6.0.0 to 6.1.0` ranked
    NodeCachingLinkedList.java and release-notes.vm above the workflows."""
    write_files(tmp_path / "ws" / "repo", WORKFLOWS)
    async with memory_rig(tmp_path, index=True) as (_, s):
        for query, expected in (
            (
                "Bump actions/cache from 6.0.0 to 6.1.0",
                {".github/workflows/maven.yml", ".github/workflows/codeql.yml"},
            ),
            ("Bump github/codeql-action from 4.37.6 to 4.37.7", {".github/workflows/codeql.yml"}),
            ("Bump actions/setup-java from 5.6.0 to 5.7.0", {".github/workflows/maven.yml"}),
        ):
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            paths = [hit["entry"]["path"] for hit in found["hits"]]
            assert set(paths[: len(expected)]) == expected, (query, paths)
            # each at the step using the action (dependency_lines.py), not at another step
            for hit in found["hits"][: len(expected)]:
                assert (
                    hit["snippet"]
                    .split(": ", 1)[1]
                    .startswith(("- uses: " + query.split()[1], "uses: " + query.split()[1]))
                ), hit


def test_a_workflow_declares_the_actions_it_uses() -> None:
    body = WORKFLOWS[".github/workflows/codeql.yml"]
    assert declaring_file(".github/workflows/codeql.yml", body, "github/codeql-action")
    assert declaring_file(".github/workflows/codeql.yml", body, "actions/cache")
    assert not declaring_file(".github/workflows/codeql.yml", body, "actions/checkout")
    assert not declaring_file("docs/codeql.yml", body, "actions/cache")  # no workflow


def test_the_lines_declaring_a_dependency() -> None:
    pom = POM["pom.xml"].split("\n")
    assert declaration_lines(pom, "junit-jupiter") == (11, 12)
    assert declaration_lines(pom, "commons-parent") == (4, 5)
    cargo = FILES["Cargo.toml"].split("\n")
    assert declaration_lines(cargo, "tikv-jemallocator") == (10, 10)
    workflow = WORKFLOWS[".github/workflows/codeql.yml"].split("\n")
    assert declaration_lines(workflow, "github/codeql-action") == (9, 9)
