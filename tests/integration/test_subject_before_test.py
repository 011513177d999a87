"""A test file never outranks the file it tests for a query that does not ask for tests
(issue 20 item 4), even when only the test holds the query's words: the real index, the
keyword ladder, the MCP client."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    # the French locale holds French messages, not the words "french" or "translation"
    "src/locales/fr.ts": 'export const messages = { invalid: "Entrée invalide" };\n',
    "src/locales/de.ts": 'export const messages = { invalid: "Ungültige Eingabe" };\n',
    "src/core/errors.ts": "export function format(issue: string): string { return issue; }\n",
    "tests/locales/fr.test.ts": (
        'import { messages } from "../../src/locales/fr";\n'
        'describe("french translation", () => {\n'
        '  it("translates the invalid message to french", () => {\n'
        '    expect(messages.invalid).toBe("Entrée invalide"); // french translation\n'
        "  });\n});\n"
    ),
}


async def test_the_subject_ranks_above_its_test_unless_tests_are_asked(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(
            s, "repocontext_search", {"repoId": "repo", "query": "improve french translation"}
        )
        paths = [h["entry"]["path"] for h in found["hits"]]
        assert paths[:2] == ["src/locales/fr.ts", "tests/locales/fr.test.ts"], found["hits"]
        assert "tested-by:tests/locales/fr.test.ts" in found["hits"][0]["reasons"]
        asked = await call(
            s, "repocontext_search", {"repoId": "repo", "query": "fix the french translation tests"}
        )
        assert asked["hits"][0]["entry"]["path"] == "tests/locales/fr.test.ts", asked["hits"]


GO_FILES = {
    "retry.go": (
        "package resty\n\n// RetryConditionFunc decides whether a request is retried.\n"
        "type RetryConditionFunc func(status int) bool\n\n"
        "// retryConditions holds the retry conditions a client checks.\n"
        "var retryConditions []RetryConditionFunc\n\n"
        "func AddRetryCondition(condition RetryConditionFunc) {\n"
        "\tretryConditions = append(retryConditions, condition)\n}\n"
    ),
    "retry_test.go": (
        'package resty\n\nimport "testing"\n\n'
        "func TestAddRetryCondition(t *testing.T) {\n"
        "\tAddRetryCondition(func(status int) bool { return status == 503 })\n"
        "\tif len(retryConditions) != 1 {\n\t\tt.Fatal(len(retryConditions))\n\t}\n}\n"
    ),
    "client.go": (
        "package resty\n\n// Client sends requests; its retry count bounds the retries.\n"
        "type Client struct {\n\tRetryCount int\n}\n"
    ),
}


@pytest.mark.parametrize(
    "query",
    ["tests for retry conditions", "where are the tests for the retry conditions?"],
)
async def test_a_query_about_tests_ranks_the_tests_first(tmp_path: Path, query: str) -> None:
    """An agent asking for the tests of a thing gets them first, each just above the file
    it tests (which still holds the query's words best); a change request that only mentions
    tests (`fix ... tests` above, `add tests for ...`) keeps its subject first."""
    write_files(tmp_path / "ws" / "repo", GO_FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        paths = [h["entry"]["path"] for h in found["hits"]]
        assert paths[:2] == ["retry_test.go", "retry.go"], found["hits"]
        assert "tests:retry.go" in found["hits"][0]["reasons"], found["hits"][0]
        change = await call(
            s, "repocontext_search", {"repoId": "repo", "query": "add tests for retry conditions"}
        )
        assert change["hits"][0]["entry"]["path"] == "retry.go", change["hits"]


DOC_FILES = {
    "uvicorn/config.py": (
        "class Config:\n    def __init__(self, reload_delay: float = 0.25):\n"
        "        self.reload_delay = reload_delay  # the reload delay between checks\n"
    ),
    "uvicorn/supervisors/reload.py": (
        "def wait(config):\n    # sleep the reload delay\n    sleep(config.reload_delay)\n"
    ),
    "docs/settings.md": (
        "# Settings\n\n## Reloading\n\n* `--reload-delay <float>` - Delay between previous and"
        " next check. The reload delay defaults to 0.25 seconds.\n"
    ),
}


async def test_a_query_about_docs_ranks_the_docs_first(tmp_path: Path) -> None:
    """QA on encode/uvicorn: `where is --reload-delay documented` never found docs/settings.md
    in the top 10; a request to document something still ranks the code first."""
    write_files(tmp_path / "ws" / "repo", DOC_FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        for query in ["where is --reload-delay documented", "docs for the reload delay"]:
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            assert found["hits"][0]["entry"]["path"] == "docs/settings.md", found["hits"]
        change = await call(
            s, "repocontext_search", {"repoId": "repo", "query": "document the reload delay"}
        )
        assert change["hits"][0]["entry"]["path"] != "docs/settings.md", change["hits"]


USAGE_FILES = {
    "pkg/utils.py": "def get_client_addr(scope):\n    return scope.get('client')\n",
    "pkg/config.py": (
        "from pkg.utils import get_client_addr\n\n\n"
        "def log_request(scope):\n    return get_client_addr(scope)\n"
    ),
    "pkg/proxy.py": (
        "# the client addr of a request, the client address behind a proxy\n"
        "def client_address(headers):\n    return headers['x-forwarded-for']  # client addr\n"
    ),
}


@pytest.mark.parametrize(
    "query",
    ["what calls get_client_addr", "callers of get_client_addr", "where is get_client_addr used?"],
)
async def test_a_query_for_the_users_of_a_name_ranks_them_first(tmp_path: Path, query: str) -> None:
    """QA on uber-go/zap: for `what calls AddCallerSkip` the one caller came 4th-7th, below
    files that never name it; on encode/uvicorn the callers' hits pointed at their imports."""
    write_files(tmp_path / "ws" / "repo", USAGE_FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        first = found["hits"][0]
        assert first["entry"]["path"] == "pkg/config.py", found["hits"]
        assert "uses:get_client_addr" in first["reasons"], first
        assert first["snippet"].startswith("5: "), first  # the call, not the import
