"""The manifests a question about a project's dependencies asks for, though they hold none
of its words.

`what dependencies does hcl have` and `what version of go-cty does hcl use` are config
questions (path_roles.manifest_list) answered by the manifest listing them, and config files
are pushed down and never embedded: a go.mod holding only the module's path and a `require`
block is below the first fifty files holding `hcl`. QA on hashicorp/hcl: both questions left
go.mod out of the first ten. So such a question brings the manifests nearest the root in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import partial

from query_api.retrieval.dependency_updates import is_manifest
from query_api.retrieval.hit_details import PATH_REASON
from schemas import tools as t
from streams.stores import ViewStore
from streams.stores.views.read import files_with_path_words

DEPENDENCIES = "dependencies"  # the manifest's list a question for them names (manifest_list)
# the names of the manifests listing a project's dependencies, read by their path words
_NAMES = (
    "go.mod", "Cargo.toml", "package.json", "pyproject.toml", "setup.py", "setup.cfg",
    "pom.xml", "build.gradle", "build.gradle.kts", "Gemfile", "composer.json", "Pipfile",
    "requirements.txt", "deno.json",
)  # fmt: skip
MAX_READ = 64  # paths read per name: a monorepo has a manifest per package


def manifest_files(
    views: ViewStore,
    repo_id: str,
    hydrate: Callable[[str], t.SearchHit | None],
    words: Iterable[str],
) -> list[t.SearchHit]:
    """The manifests nearest the root, as hits `hydrate` makes with the reason
    `path-name-match`, when `words` name the dependencies list; none otherwise."""
    if DEPENDENCIES not in set(words):
        return []
    paths: set[str] = set()
    for name in _NAMES:
        read = partial(files_with_path_words, repo_id=repo_id, name=name, limit=MAX_READ)
        paths |= {p for p in views.read(read) if p.rpartition("/")[2].casefold() == name.casefold()}
    out: list[t.SearchHit] = []
    for path in dict.fromkeys(
        [*package_manifests(sorted(paths), words), *nearest_root(sorted(paths))]
    ):
        hit = hydrate(path)
        if hit is not None:
            out.append(hit.model_copy(update={"reasons": [PATH_REASON, *hit.reasons]}))
    return out


def package_manifests(paths: Sequence[str], words: Iterable[str]) -> list[str]:
    """The manifests of `paths` in a folder a word of the question names: `which dependencies
    does guice core have` asks for core/pom.xml, not the root's parent pom. QA on
    google/guice: it and `what dependencies does the servlet extension have` ranked the root
    pom.xml first and left core/pom.xml and extensions/servlet/pom.xml out of the first ten."""
    named = {word.casefold() for word in words}
    return [
        path
        for path in paths
        if is_manifest(path) and path.rpartition("/")[0].rpartition("/")[2].casefold() in named
    ]


def root_manifests(paths: Sequence[str]) -> set[str]:
    """The manifests of `paths` nearest the root."""
    return set(nearest_root([path for path in paths if is_manifest(path)]))


def nearest_root(paths: Sequence[str]) -> list[str]:
    """Those of `paths` in the folder nearest the root, in their order."""
    depth = min((path.count("/") for path in paths), default=0)
    return [path for path in paths if path.count("/") == depth]
