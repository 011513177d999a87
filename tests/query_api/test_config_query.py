"""A query about configuration (`where is mypy configured`, `how is the linter set up`,
`config for pytest`) weighs config files as source files, as `where is X documented` weighs
docs. QA on Textualize/rich: `where is mypy configured` ranked rich/logging.py (`if you have
configured logging`) first, and pyproject.toml, holding `[tool.mypy]`, not in the first three:
config files are pushed down unless a query asks for them. QA on pmndrs/jotai: `where do I
configure vitest` and `how do I set up eslint` ranked src/vanilla/internals.ts first."""

from __future__ import annotations

from pathlib import Path

import pytest

from processors.path_roles import Role, roles_about, without_config_words
from query_api.retrieval.docs_first import asked_pages_first, holds_subject
from query_api.retrieval.hit_details import QueryTerms
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

LOG = "".join(
    f"def handler_{i}():\n    # configured handlers, configured once\n    return {i}\n"
    for i in range(12)
)
FILES = {
    "pyproject.toml": '[project]\nname = "pkg"\n\n[tool.mypy]\nstrict = true\n',
    "pkg/log.py": LOG,
    "pkg/check.py": "def run():\n    # configured checks\n    return 'strict'\n",
}


@pytest.mark.parametrize(
    "query",
    [
        "where is mypy configured",
        "where is mypy configured?",
        "how is the linter set up",
        "config for pytest",
        "the configuration of coverage",
        "where do I configure vitest",
        "how do I set up eslint?",
        "how can we configure the linter",
    ],
)
def test_a_query_about_configuration(query: str) -> None:
    assert Role.CONFIG in roles_about(query)


@pytest.mark.parametrize(
    "query",
    [
        "configure the logger",
        "make the timeout configured by env",
        "fix mypy errors",
        "how do I configuration",
    ],
)
def test_a_request_is_not_about_configuration(query: str) -> None:
    assert Role.CONFIG not in roles_about(query)


def test_the_words_asking_for_configuration_are_not_searched() -> None:
    assert without_config_words("where is mypy configured?").split() == ["where", "is", "mypy", "?"]
    assert without_config_words("config for pytest").split() == ["for", "pytest"]
    assert without_config_words("configure the logger") == "configure the logger"
    assert without_config_words("where do I configure vitest").split() == [
        "where",
        "do",
        "I",
        "vitest",
    ]


async def test_the_config_file_comes_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        for query in ("where is mypy configured", "where do I configure mypy"):
            answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
            assert [h.entry.path for h in answer.hits][:1] == ["pyproject.toml"], answer.hits


def _hit(path: str, score: float) -> t.SearchHit:
    entry = t.EntryView(key=f"repo/r/file/{path}", exists=True, kind="File", path=path)
    return t.SearchHit(score=score, entry=entry, reasons=["content-match"])


def test_the_config_files_holding_the_subject_come_first() -> None:
    """Config files are not embedded: in hybrid search a semantic match outscores them (QA on
    Textualize/rich: eight files holding no `mypy` above pyproject.toml)."""
    hits = [_hit("rich/logging.py", 0.83), _hit("Makefile", 0.6), _hit("pyproject.toml", 0.58)]
    held = {"Makefile": "\tmypy -p rich\n", "pyproject.toml": "[tool.mypy]\n"}

    def holds(path: str, terms: QueryTerms) -> bool:
        return holds_subject(held.get(path, "configured logging"), terms)

    paths = [h.entry.path for h in asked_pages_first("where is mypy configured", hits, holds)]
    assert paths == ["Makefile", "pyproject.toml", "rich/logging.py"]
    assert asked_pages_first("fix mypy errors", hits, holds) == hits  # no such query


def test_a_data_file_is_no_configuration() -> None:
    """QA on Textualize/rich: `how is the console width configured?` put tools/cats.json (120
    kB of cat facts, one of which holds `width`) first; a lock file is generated alike, and an
    ignore file lists paths (`where is mypy configured` led with .gitignore's `mypy_report`)."""
    data = _hit("tools/cats.json", 0.5)
    data = data.model_copy(
        update={"entry": data.entry.model_copy(update={"fields": {"truncated": "true"}})}
    )
    hits = [_hit("rich/console.py", 1.0), data, _hit("poetry.lock", 0.4), _hit(".gitignore", 0.3)]

    def holds(path: str, terms: QueryTerms) -> bool:
        return True

    assert asked_pages_first("how is the console width configured?", hits, holds) == hits


PYPROJECT = (
    "[project]\n"
    'name = "pkg"\n\n'
    "[dependency-groups]\n"
    'dev = [\n    "mypy >=1.19.1",\n    "pytest >=8",\n    "ruff >=0.15.0",\n]\n\n'
    "[tool.pytest]\n"
    'addopts = ["--strict-markers"]\n\n'
    "[tool.mypy]\n"
    "strict = true\n\n"
    "[[tool.mypy.overrides]]\n"
    'module = "pkg.tests.*"\n'
    "ignore_errors = true\n\n"
    "[tool.ruff.lint]\n"
    'select = ["E", "F"]\n'
)


async def test_a_config_files_hit_is_the_section_naming_the_subject(tmp_path: Path) -> None:
    """QA on fastapi/typer: `where is ruff configured` pointed pyproject.toml at its dev
    dependency `"ruff >=0.15.0",` and `how is mypy set up` at `"mypy >=1.19.1",`, not at their
    `[tool.ruff.lint]` and `[tool.mypy]` tables."""
    files = {**FILES, "pyproject.toml": PYPROJECT, "setup.cfg": "[metadata]\nname = pkg\n"}
    files["setup.cfg"] += "\n[flake8]\nmax-line-length = 99\n\n[tool:pytest]\nmypy = off\n"
    async with indexed_app(tmp_path, files) as app:
        for query, path, header in (
            ("where is ruff configured", "pyproject.toml", "[tool.ruff.lint]"),
            ("how is mypy set up", "pyproject.toml", "[tool.mypy]"),
            ("config for pytest", "pyproject.toml", "[tool.pytest]"),
            ("config for pytest", "setup.cfg", "[tool:pytest]"),
            ("where is flake8 configured?", "setup.cfg", "[flake8]"),
        ):
            answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
            hit = next(h for h in answer.hits if h.entry.path == path)
            line = files[path].split("\n").index(header) + 1
            assert hit.snippet and hit.snippet.startswith(f"{line}: {header}"), (query, hit)
            assert hit.startLine == line, (query, hit)
        # a request to change it is no configuration query: its lines are the words'
        answer = await app.service.search(t.SearchArgs(repoId="repo", query="bump ruff"))
        hit = next(h for h in answer.hits if h.entry.path == "pyproject.toml")
        assert hit.startLine == PYPROJECT.split("\n").index('    "ruff >=0.15.0",') + 1, hit


@pytest.mark.parametrize(
    "query", ["where is vitest configured", "where do I configure vitest", "config for vitest"]
)
def test_the_tools_own_config_file_leads_the_config_files(query: str) -> None:
    """A tool's own config file (vitest.config.mts, .eslintrc.json) configures it; a workflow
    or package.json holding its name runs it. QA on pmndrs/jotai: `where is vitest configured`
    ranked package.json, eslint.config.mjs and three workflows above vitest.config.mts."""
    hits = [
        _hit("package.json", 5.0),
        _hit(".github/workflows/test.yml", 5.0),
        _hit("vitest.config.mts", 5.0),
        _hit("src/store.ts", 2.0),
    ]

    def holds(path: str, terms: QueryTerms) -> bool:
        return path != "src/store.ts"

    paths = [h.entry.path for h in asked_pages_first(query, hits, holds)]
    assert paths == [
        "vitest.config.mts",
        "package.json",
        ".github/workflows/test.yml",
        "src/store.ts",
    ]


def test_a_dotted_rc_file_is_its_tools_own() -> None:
    hits = [_hit("package.json", 5.0), _hit(".eslintrc.json", 4.0), _hit("src/a.ts", 1.0)]
    paths = [
        h.entry.path for h in asked_pages_first("how is eslint set up", hits, lambda p, t: True)
    ]
    assert paths[:2] == [".eslintrc.json", "package.json"]


VITEST = (
    "/// <reference types='vitest/config' />\n"  # 1
    "import { resolve } from 'path'\n"  # 2
    "import { defineConfig } from 'vitest/config'\n"  # 3
    "\n"
    "export default defineConfig({\n"  # 5
    "  test: {\n"
    "    environment: 'jsdom',\n"
    "    // https://vitest.dev/guide/migration.html\n"
    "    setupFiles: [resolve('tests/setup.ts')],\n"
    "  },\n"
    "})\n"  # 11
)


async def test_a_config_modules_hit_is_its_exported_settings(tmp_path: Path) -> None:
    """QA on pmndrs/jotai: `where is vitest configured` pointed vitest.config.mts at its
    comment `// https://vitest.dev/guide/migration.html`, not at `export default
    defineConfig({`."""
    files = {"vitest.config.mts": VITEST, "src/store.ts": "export const store = 1\n"}
    async with indexed_app(tmp_path, files) as app:
        for query in ("where is vitest configured", "how do I set up vitest"):
            answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
            hit = next(h for h in answer.hits if h.entry.path == "vitest.config.mts")
            assert hit.startLine == 5, (query, hit)
            assert hit.snippet and hit.snippet.startswith("5: export default defineConfig"), hit
        # a request to change it is no configuration query: its lines are the words'
        answer = await app.service.search(t.SearchArgs(repoId="repo", query="vitest migration"))
        hit = next(h for h in answer.hits if h.entry.path == "vitest.config.mts")
        assert hit.startLine != 5, hit


@pytest.mark.parametrize(
    "query",
    [
        "where is the eslint config",
        "where is the jest configuration?",
        "where are the typescript compiler config files",
        "where is the CI workflow that runs tests",
        "which are the github workflows?",
        "which workflow publishes the package to npm",
        "where is the release workflow",
        "where is the deploy pipeline?",
    ],
)
def test_a_question_naming_the_config_it_asks_for(query: str) -> None:
    """QA on typestack/class-validator: `where is the eslint config` put .eslintrc.yml 8th,
    below three sources holding `eslint-disable` comments, and `where is the CI workflow that
    runs tests` put no workflow in the top 10: neither was read as a query about config."""
    assert Role.CONFIG in roles_about(query)


@pytest.mark.parametrize(
    "query",
    [
        "update eslint config",
        "fix the jest config",
        "where is the config loaded",
        "eslint config",  # a subject alone may be a declaration's (`user config`)
        "fix the release workflow",
        "add a workflow for the docs",
    ],
)
def test_a_change_to_a_config_is_no_question_about_it(query: str) -> None:
    assert Role.CONFIG not in roles_about(query)


def test_the_nouns_naming_a_config_file_are_not_searched() -> None:
    """A workflow holds `ci` and `tests` but rarely `workflow`: its path does."""
    assert without_config_words("where is the CI workflow that runs tests").split() == [
        "where",
        "is",
        "the",
        "CI",
        "that",
        "runs",
        "tests",
    ]
    assert without_config_words("where is the eslint config file").split() == [
        "where",
        "is",
        "the",
        "eslint",
    ]


LINTED = "".join(
    f"// eslint-disable-next-line @typescript-eslint/ban-ts-comment\nexport const v{i} = {i};\n"
    for i in range(6)
)
LINT_FILES = {
    ".eslintrc.yml": "parser: '@typescript-eslint/parser'\nplugins:\n  - '@typescript-eslint'\n",
    "package.json": '{\n  "devDependencies": {\n    "eslint": "^8.0.0",\n'
    '    "@typescript-eslint/parser": "^5.62.0"\n  }\n}\n',
    "src/global.ts": LINTED,
    "src/ip.ts": LINTED.replace("v", "ip"),
    ".github/workflows/continuous-integration-workflow.yml": "name: CI\njobs:\n  tests:\n"
    "    name: Tests\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm ci\n"
    "      - run: npm run test:ci\n",
    "src/runner.ts": "// runs the validation tests once\nexport function runs() {}\n",
}


async def test_the_named_config_file_comes_first(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, LINT_FILES) as app:
        for query, path in (
            ("where is the eslint config", ".eslintrc.yml"),
            (
                "where is the CI workflow that runs tests",
                ".github/workflows/continuous-integration-workflow.yml",
            ),
        ):
            answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
            assert [h.entry.path for h in answer.hits][:1] == [path], (query, answer.hits)


RC_FILES = {
    ".prettierrc.yml": "printWidth: 120\ntabWidth: 2\nsingleQuote: true\n",
    ".babelrc": '{\n  "presets": ["@babel/preset-env"]\n}\n',
    "package.json": '{\n  "scripts": {\n    "prettier:fix": "prettier --write src",\n'
    '    "build": "babel src -d lib"\n  },\n  "devDependencies": {\n'
    '    "prettier": "^3.0.0",\n    "eslint-config-prettier": "^9.1.0"\n  }\n}\n',
    "src/colors.ts": "// prettier output of the colour table\nexport const width = 120;\n",
}


async def test_a_tools_rc_file_holding_no_word_of_the_query_comes_first(tmp_path: Path) -> None:
    """QA on typestack/class-validator: `where is the prettier config` ranked package.json
    and .eslintrc.yml first and .prettierrc.yml (`printWidth: 120`, no `prettier` in it)
    nowhere: no word of the query matched it, so it was never a hit to lift."""
    async with indexed_app(tmp_path, RC_FILES) as app:
        for query, path in (
            ("where is the prettier config", ".prettierrc.yml"),
            ("where is prettier configured", ".prettierrc.yml"),
            ("how is babel set up", ".babelrc"),
        ):
            answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
            assert [h.entry.path for h in answer.hits][:1] == [path], (query, answer.hits)
            if path == ".prettierrc.yml":  # brought in by its name (`.babelrc` holds `babel`)
                assert "path-name-match" in answer.hits[0].reasons, answer.hits[0]
        # a request to change it is no configuration query: no file is brought in
        answer = await app.service.search(t.SearchArgs(repoId="repo", query="bump prettier"))
        assert ".prettierrc.yml" not in [h.entry.path for h in answer.hits], answer.hits


def test_a_tools_own_config_file_in_a_site_folder_is_its_own() -> None:
    """Maven projects keep a checker's file among the site's resources
    (src/site/resources/spotbugs/spotbugs-exclude-filter.xml), a folder that makes it a doc.
    QA on apache/commons-csv: `where is the spotbugs exclude filter configured` ranked it
    7th, below four library files the vectors found; `how is the PMD ruleset configured`
    put pmd-ruleset.xml below pom.xml's plugin block."""
    filter_file = "src/site/resources/spotbugs/spotbugs-exclude-filter.xml"
    hits = [
        _hit("pom.xml", 5.0),
        _hit("src/main/java/org/x/Parser.java", 4.0),
        _hit(filter_file, 2.0),
        _hit("src/site/xdoc/spotbugs.xml", 1.5),
    ]
    query = "where is the spotbugs exclude filter configured"
    paths = [h.entry.path for h in asked_pages_first(query, hits, lambda p, t: "x/" not in p)]
    assert paths[0] == filter_file, paths
    # a page of the site written in XML is no tool's config: it keeps its place
    assert paths.index("src/site/xdoc/spotbugs.xml") > paths.index("pom.xml"), paths
