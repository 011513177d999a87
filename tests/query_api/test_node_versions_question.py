"""A question about the Node.js versions a package supports (`where is the node version set`,
`what node version is required`) is about its package.json's `engines`. QA on middyjs/middy:
both matched no config form and answered ten files holding `version` (util's
resolveHttpEventVersion first), no package.json."""

from __future__ import annotations

from pathlib import Path

import pytest

from processors.path_roles import Role, manifest_list, roles_about
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    "query",
    [
        "where is the node version set",
        "what node version is required",
        "which Node.js versions are supported",
        "what is the minimum node version",
    ],
)
def test_a_question_about_node_versions_is_about_the_engines(query: str) -> None:
    assert Role.CONFIG in roles_about(query), query
    assert manifest_list(query) == "engines", query


def test_a_change_of_the_versions_is_a_request() -> None:
    assert roles_about("Drop support for Node 18") == set()
    assert manifest_list("Fix the node version check in the router") is None


VERSIONED = (
    "// the version of an event: `version` names it\n"
    "export const resolveVersion = (event) => event.version ?? '1.0';\n"
    "export const setVersion = (node, version) => {\n  node.version = version;\n};\n"
)
FILES = {
    "package.json": (
        '{\n  "name": "@mw/monorepo",\n  "version": "7.8.0",\n  "private": true,\n'
        '  "engines": {\n    "node": ">=22"\n  },\n  "workspaces": ["packages/*"]\n}\n'
    ),
    "packages/util/index.js": VERSIONED,
    "packages/router/index.js": VERSIONED,
    "packages/cors/index.js": VERSIONED,
}


async def test_the_root_manifest_answers_at_its_engines(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "mw") as app:
        query = "where is the node version set"
        found = await app.service.search(t.SearchArgs(repoId="mw", query=query))
        assert found.hits[0].entry.path == "package.json", [h.entry.path for h in found.hits]
        hit = found.hits[0]
        # at `"engines": {`, not at the package's own `"version": "7.8.0"`
        assert (hit.startLine, hit.endLine) == (5, 7), hit
