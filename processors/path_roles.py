"""What a file is for, read from its path: source, test, documentation, example, benchmark,
configuration or vendored code.

Search uses the role as a prior: an agent asking where to change something wants the source
file that does it, and a test, a doc page or a changelog that repeats the query's words ranks
above that file on words alone. A role the query itself asks for (`tests for the pager`,
`document the flag`) is not pushed down. Pure functions of the path and the query's words.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from enum import StrEnum

from processors.language import LANGUAGE_BY_EXTENSION
from processors.structural import is_template, is_vendored
from processors.tokenizer import CHANGE_VERBS


class Role(StrEnum):
    SOURCE = "source"
    TEST = "test"
    DOC = "doc"
    EXAMPLE = "example"
    BENCH = "bench"
    CONFIG = "config"
    VENDORED = "vendored"


_TEST_DIRS = frozenset(
    {"test", "tests", "testing", "__tests__", "spec", "specs", "testdata", "fixtures",
     "__fixtures__", "__snapshots__", "__mocks__", "e2e", "integration-tests", "test-utils",
     "testutil", "testutils", "it", "test-d", "type-tests", "typetests"}
)  # fmt: skip
_SOURCE_FOLDER = "src"  # a package's source folder (_test_package)
# a test folder with a qualifier: integration-tests, runtime_tests, test-helpers, test_data
_QUALIFIED_TEST_DIR = re.compile(r"^(tests?[-_].+|.+[-_]tests?)$", re.IGNORECASE)
# `*-test.ts`: Jest's and Playwright's testMatch where a project sets it so (remix-run/
# react-router's 280 suites: integration/link-test.ts, vite/combine-urls-test.ts)
_TEST_NAME = re.compile(
    r"^(test_.*\.py|conftest\.py|.*_test\.(py|go|rs|c|cc|cpp|rb|exs?)|.*_spec\.rb"
    r"|.*\.(test|spec|e2e|bench-test|test-d|tst|fuzz)\.[cm]?[jt]sx?|.*-test\.[cm]?[jt]sx?"
    r"|.*Tests?\.(java|kt|cs|swift|scala)"
    r"|.*IT\.java|.*Spec\.(kt|scala|groovy)|test\.[cm]?[jt]s|tests\.rs)$"
)
_DOC_DIRS = frozenset(
    {"docs", "doc", "documentation", "wiki", "site", "website", "websites", "man", "release-notes",
     "release_notes", "releasenotes", "changelogs", "changelog", "changelog.d",
     "newsfragments", "news.d", "changes.d"}
)  # fmt: skip
# a news fragment (towncrier and its kin): `1234.bugfix`, `5678.feature.rst`, wherever it lives
_NEWS_FRAGMENT = re.compile(
    r"^\d+\.(feature|bugfix|bug|fix|doc|docs|removal|misc|breaking|deprecation|trivial"
    r"|change|added|fixed|security|contrib|packaging|vendor|process|internal|improvement)"
    r"(\.\d+)?(\.(md|rst|txt))?$",
    re.IGNORECASE,
)
_DOC_EXT = frozenset({".md", ".mdx", ".rst", ".txt", ".adoc", ".asciidoc", ".org", ".html"})
_DOC_NAMES = re.compile(
    r"^(changes|changelog|history|news|authors|contributors|license|licence|copying|notice"
    r"|readme|security|code_of_conduct|contributing|upgrading|migrating|credits|maintainers"
    r"|\.mailmap)"
    r"([._-].*)?$",
    re.IGNORECASE,
)
# a name like a project document's is code in a programming language's file (fiber's
# `middleware/proxy/security.go`, a `history.py` module): only SECURITY.md, HISTORY or
# CHANGES.rst are documents
_CODE_EXT = frozenset(
    ext
    for ext, language in LANGUAGE_BY_EXTENSION.items()
    if language not in ("markdown", "json", "yaml", "xml", "html", "css", "toml")
)
# a Go file in a `doc/` folder is a package the module builds (cobra's doc/ generates man
# pages), not a page about one: every folder of .go files is a package
_PACKAGE_EXT = frozenset({".go"})
EXAMPLE_DIRS = frozenset(
    {
        "examples",
        "example",
        "samples",
        "sample",
        "demo",
        "demos",
        "_examples",
        "docs_src",
        "tutorials",
        # apps to try the library in by hand (remix-run/react-router's playground/framework/)
        "playground",
        "playgrounds",
    }
)
_BENCH_DIRS = frozenset({"bench", "benches", "benchmark", "benchmarks", "perf"})
# a JS/TS benchmark beside its code, by vitest's convention (`parse.bench.ts`) or `index.perf.js`
_BENCH_NAME = re.compile(r"^.*\.(bench|perf)\.[cm]?[jt]sx?$")
_ASIDE_DIRS = EXAMPLE_DIRS | _BENCH_DIRS
_CONFIG_DIRS = frozenset({".github", ".circleci", ".gitlab", ".devcontainer", ".vscode", "ci"})
_CONFIG_EXT = frozenset(
    {".json", ".yml", ".yaml", ".toml", ".ini", ".cfg", ".lock", ".xml", ".gradle",
     # JSON with comments: deno.jsonc, tsconfig.jsonc, biome.jsonc, .vscode's settings
     ".jsonc", ".json5",
     ".properties", ".editorconfig", ".gitignore", ".gitattributes", ".npmignore",
     # autoconf macros, CMake modules and Bazel's Starlark: build machinery, not the program
     ".m4", ".cmake", ".bzl"}
)  # fmt: skip
_CONFIG_NAMES = frozenset(
    {"makefile", "dockerfile", "justfile", "setup.py", "setup.cfg", "noxfile.py", "tox.ini",
     "build.rs", "cargo.toml", "go.mod", "go.sum", "pom.xml", "package.json", "tsconfig.json",
     "mkdocs.yml", "vite.config.ts", "vitest.config.ts", "jest.config.js", "eslint.config.js",
     "eslint.config.mjs", "rollup.config.js", "webpack.config.js", "build.gradle",
     # C and C++ build systems: autotools, CMake, Meson
     "makefile.am", "makefile.in", "gnumakefile", "configure.ac", "configure.in",
     "cmakelists.txt", "meson.build", "meson_options.txt", "meson.options",
     # Bazel's (and Buck's) build files: BUILD had no extension and read as source
     "build", "build.bazel", "workspace", "workspace.bazel", "workspace.bzlmod",
     "module.bazel", "buck",
     # dotfiles have no extension to go by
     ".gitignore", ".gitattributes", ".gitmodules", ".editorconfig", ".npmignore",
     ".dockerignore", ".prettierrc", ".eslintrc", ".git-blame-ignore-revs", "codeowners"}
)  # fmt: skip

# Words with which a query asks for a role; each role is pushed down unless one is present.
_ROLE_WORDS: dict[Role, frozenset[str]] = {
    Role.TEST: frozenset(
        {
            "test",
            "tests",
            "testing",
            "tested",
            "spec",
            "specs",
            "fixture",
            "fixtures",
            "flaky",
            "coverage",
            "snapshot",
            "snapshots",
            "assert",
            "assertion",
            "mock",
            "mocks",
            "unittest",
            "pytest",
            "jest",
            "vitest",
            "e2e",
        }
    ),
    Role.DOC: frozenset(
        {
            "doc",
            "docs",
            "documentation",
            "document",
            "documented",
            "readme",
            "changelog",
            "typo",
            "typos",
            "guide",
            "tutorial",
            "docstring",
            "docstrings",
            "wording",
            "spelling",
            "grammar",
            "wiki",
            "license",
            "translation",
        }
    ),
    Role.EXAMPLE: frozenset(
        {"example", "examples", "sample", "samples", "demo", "demos", "playground", "playgrounds"}
    ),
    Role.BENCH: frozenset({"bench", "benchmark", "benchmarks", "benches", "perf"}),
    Role.CONFIG: frozenset(
        {
            "ci",
            "workflow",
            "workflows",
            "config",
            "configuration",
            "dependency",
            "dependencies",
            "deps",
            "build",
            "lint",
            "linter",
            "eslint",
            "package",
            "packaging",
            "release",
            "publish",
            "docker",
            "makefile",
            "tsconfig",
            "cargo",
            "npm",
            "pnpm",
            "yarn",
            "gradle",
            "maven",
            "github",
            "action",
            "actions",
            "version",
            "bump",
            "upgrade",
        }
    ),
    Role.VENDORED: frozenset({"vendor", "vendored", "third_party", "thirdparty"}),
}


@functools.lru_cache(maxsize=65_536)  # search asks for every candidate of every query
def role_of(path: str) -> Role:
    """The role a repository-relative path plays; the first that applies of vendored, test,
    example, bench, doc, config, else source."""
    parts = path.replace("\\", "/").split("/")
    name = parts[-1]
    folders = {p.lower() for p in parts[:-1]}
    lowered = name.lower()
    dot = lowered.rfind(".")
    ext = lowered[dot:] if dot > 0 else ""
    if is_vendored(path):
        return Role.VENDORED
    if _test_folder_in(parts) or _TEST_NAME.match(name) or _in_qualified_test_dir(folders):
        return Role.TEST
    if folders & EXAMPLE_DIRS:
        return Role.EXAMPLE
    if (folders & _BENCH_DIRS and not _crate_module(parts)) or _BENCH_NAME.match(name):
        return Role.BENCH
    if _DOC_NAMES.match(name) and ext[1:] not in _CODE_EXT:
        return Role.DOC
    if folders & _DOC_DIRS and ext not in _PACKAGE_EXT:
        return Role.DOC
    if _NEWS_FRAGMENT.match(name):
        return Role.DOC
    if lowered in _CONFIG_NAMES:  # before the extensions: CMakeLists.txt is no prose
        return Role.CONFIG
    # a text the program renders (zoxide's templates/bash.txt) is its code, not prose
    if ext in _DOC_EXT and not is_template(path):
        return Role.DOC
    if ext in _CONFIG_EXT or folders & _CONFIG_DIRS:
        return Role.CONFIG
    if dot == 0:  # a dotfile of no extension is a tool's (.pylintrc, .coveragerc, .flake8)
        return Role.CONFIG
    return Role.SOURCE


def is_example_config(path: str) -> bool:
    """Whether `path` is a config file of an example program or a benchmark (examples/
    autobahn/config/fuzzingclient.json, examples/app/package.json): its role is the
    example's, yet a question about config asks for it as for any config file. QA on
    gorilla/websocket: `where is the autobahn config` ranked fuzzingclient.json 12th, below
    nine library files, as config questions lift only files whose role is config."""
    if role_of(path) not in (Role.EXAMPLE, Role.BENCH):
        return False
    parts = path.split("/")
    inside = next(
        (at for at, folder in enumerate(parts[:-1]) if folder.lower() in _ASIDE_DIRS), None
    )
    return inside is not None and role_of("/".join(parts[inside + 1 :])) == Role.CONFIG


def is_build_file_name(name: str) -> bool:
    """Whether a file name (no folders) is one a build or a tool reads by name: `go.mod`,
    `tox.ini`, `Cargo.toml`, `Makefile` (compared case-insensitively)."""
    return name.casefold() in _CONFIG_NAMES


def _test_folder_in(parts: list[str]) -> bool:
    """Whether a test folder (`tests`, `__tests__`, ...) holds the file of path `parts`."""
    folders = parts[:-1]
    return any(
        folder.lower() in _TEST_DIRS and not _test_package(folders, i)
        for i, folder in enumerate(folders)
    )


def _test_package(folders: Sequence[str], i: int) -> bool:
    """Whether folder `i` of `folders` is a monorepo package named for testing, with a source
    folder of its own (`packages/testing/src/`): pinia's @pinia/testing ships its test
    helpers as code, whose sources were tests (pushed down, never embedded) and whose
    specs tested nothing; QA on vuejs/pinia, where 'tests for createTestingPinia' found
    testing.spec.ts the test of no file."""
    inside = 0 < i < len(folders) - 1
    return inside and folders[i - 1] == "packages" and folders[i + 1] == _SOURCE_FOLDER


def _crate_module(parts: list[str]) -> bool:
    """Whether the Rust file of path `parts` is a module of its crate inside a folder named
    like benchmarks (`src/benchmark/executor.rs`, `mod benchmark;` in main.rs): Cargo builds
    its benchmarks from `benches/`, and every `.rs` file below `src/` is the crate's code,
    whatever its folder's name. QA on sharkdp/hyperfine, a benchmarking tool: its runner,
    scheduler and results were benchmarks (pushed down, never embedded), so 'Add iteration
    information to failure error message' and the runner's own pasted errors found none."""
    if not parts[-1].endswith(".rs"):
        return False
    folders = [folder.lower() for folder in parts[:-1]]
    if _SOURCE_FOLDER not in folders:
        return False
    return not set(folders[: folders.index(_SOURCE_FOLDER)]) & _BENCH_DIRS


def _in_qualified_test_dir(folders: set[str]) -> bool:
    return any(_QUALIFIED_TEST_DIR.match(folder) for folder in folders)


def roles_asked(words: set[str]) -> set[Role]:
    """The roles a query's (lower-cased) words ask for by name."""
    return {role for role, asked in _ROLE_WORDS.items() if asked & words}


# The query's subject is tests: it starts with them (`tests for X`, `unit tests of X`, `test
# digest auth`), or asks where or which they are, or to find, show or list them, or where one
# should go (`where should I add a regression test for X`: QA on serde-rs/json ranked sources
# first and tests/regression/ nowhere). A request to
# add, fix or update tests mostly changes the source it names (the benchmark's change
# requests that mention tests did), so it is not one.
_ABOUT_TESTS = re.compile(
    r"""^\s*
    (?:(?:where|which|what)\s+(?:are|is|do|does|would)?\s*
      |(?:find|show|list|locate|open|get)\s+(?:me\s+)?
      |where\s+(?:should|would|do|can|could)\s+(?:i|we|you)\s+(?:add|put|write|place|create)\s+)?
    (?:the\s+|all\s+|any\s+|existing\s+|an?\s+(?:new\s+)?|new\s+)?
    (?:unit\s+|integration\s+|e2e\s+|end-to-end\s+|regression\s+)?
    (?:tests?|specs?)\b
    (?:\s+(?:files?|cases?|suites?)\b)?
    \s*(?:for|of|on|covering|that|about|in|\w)""",
    re.IGNORECASE | re.VERBOSE,
)


# where or how a thing is tested, as `where is X documented` asks for docs: QA on
# benoitc/gunicorn, `where is reap_workers tested` ranked both files declaring it above
# tests/test_arbiter.py
_ABOUT_TESTED = re.compile(
    r"^\s*(?:(?:where|how)\s+(?:is|are)|is|are)\s+.+\s+tested\W*$", re.IGNORECASE
)


# `OptionGroup tests`, `where are the OptionGroup tests?`: a subject of a few words before
# `tests` (none a verb: `fix flaky tests`, `run unit tests` are changes or commands)
_SUBJECT_TESTS = re.compile(
    r"""^\s*
    (?:(?:where|which)\s+(?:are|is)\s+|(?:find|show|list|locate|open)\s+(?:me\s+)?)?
    (?:the\s+|all\s+)?
    ([\w.:#-]+(?:\s+[\w.:#-]+){0,2})
    \s+(?:unit\s+|integration\s+)?(?:tests|specs|test\s+(?:files?|cases?|suites?))
    \s*\??\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
_TEST_VERBS = CHANGE_VERBS | frozenset(
    {"write", "run", "rerun", "skip", "speed", "split", "rewrite", "disable", "enable",
     "delete", "mark", "port", "migrate", "convert", "stabilize", "deflake", "parallelize",
     "bump", "restore", "revert", "reorganize", "reorganise", "extend", "expand", "more",
     "missing", "broken", "failing", "flaky", "no", "all", "some", "other"}
)  # fmt: skip


def _subject_tests(query: str) -> bool:
    """Whether the query is a subject and `tests` (`OptionGroup tests`), not a change."""
    found = _SUBJECT_TESTS.match(query)
    return found is not None and found.group(1).split()[0].casefold() not in _TEST_VERBS


# The query's subject is documentation: where something is documented, or the docs of a
# thing. `Document that X ...` and `fix docs` are change requests, which change the source
# they name as often as its docs.
# Asked for by their noun after `where are` (`where are the docs for writing plugins`, `which
# docs cover X`): QA on PyCQA/flake8 matched no form and put docs/source/plugin-development/
# nowhere in the first ten, below every source file holding `plugins`.
# Asked for by their subject and noun (`where are the bloom filter docs`, `where is the user
# guide`): QA on apache/commons-collections matched no form and ranked ten source files
# under bloomfilter/ above src/site/markdown/bloomFilters.md (ninth).
_ABOUT_DOCS = re.compile(
    r"""^\s*(?:
      (?:where|how)\s+(?:is|are)\s+.+\s+documented\W*$
      |(?:where|which|what)\s+(?:is|are)\s+(?:the\s+|our\s+)?(?:[\w.-]+\s+){0,4}
        (?:docs?|documentation|guides?|manual|man\s?pages?)\W*$
      |(?:(?:where|which|what)\s+(?:is|are)\s+)?(?:the\s+|our\s+)?(?:docs?|documentation|man\s?pages?)
        \s+(?:for|of|on|about)\s
      |(?:which|what)\s+(?:docs?|documentation|pages?)\s+(?:covers?|describes?|explains?)\s
    )""",
    re.IGNORECASE | re.VERBOSE,
)


# a query about configuration: `where is mypy configured`, `how is the linter set up`,
# `config for pytest`. QA on Textualize/rich: `where is mypy configured` ranked rich/logging.py
# (`if you have configured logging`) first, pyproject.toml's `[tool.mypy]` not in the first three.
# Asked of a person (`where do I configure vitest`, `how do we set up eslint`): QA on
# pmndrs/jotai ranked src/vanilla/internals.ts (its `set` methods) above vitest.config.mts and
# eslint.config.mjs, pushed down as config files; `configure the logger` stays a request.
# Asked for by its noun (`where is the eslint config`, `where is the CI workflow that runs
# tests`, `which workflow publishes the package`, `where is the release workflow`): QA on
# typestack/class-validator put .eslintrc.yml 8th and no workflow in the top 10.
# A build tool's plugin or profile is its build file's (`which maven plugin checks the license
# headers`): QA on OpenFeign/feign ranked the wrapper scripts mvnw and mvnw.cmd first.
# Its dependencies are a manifest's (`what dependencies does serde_json have`, `which crates
# does it depend on`): QA on serde-rs/json ranked Cargo.toml 19th, below sources naming
# `serde_json`. So are its features (_ABOUT_FEATURES).
# where the dependencies are (`where are the dependencies declared`, `where are the dev
# dependencies`), no subject of them: QA on python-jsonschema/jsonschema matched no config form
# and, read as a definition of `dependencies`, ranked the JSON Schema keyword's function first
_WHERE_DEPENDENCIES = r"""(?:where|how)\s+(?:is|are)\s+(?:the\s+|its\s+|our\s+)?
        (?:(?:project|package|crate|library)(?:'s)?\s+)?
        (?:(?:dev|build|runtime|optional|test)[\s-])?(?:dependencies|deps)
        (?:\s+(?:defined|declared|listed|specified|set|kept|pinned))?\W*$"""
# one named dependency's declaration (`where is the askama dependency declared`, `where is the
# serde dep`): QA on ajeetdsouza/zoxide matched no config form and ranked src/shell.rs, using
# askama, above Cargo.toml's `askama = ...`
_WHERE_NAMED_DEPENDENCY = r"""(?:where|how)\s+(?:is|are)\s+(?:the\s+|its\s+|our\s+)?
        [\w.@/-]+(?:\s+[\w.@/-]+){0,2}\s+(?:dependency|dependencies|deps?)
        (?:\s+(?:defined|declared|listed|specified|set|kept|pinned|added))?\W*$"""
_ABOUT_CONFIG = re.compile(
    r"""^\s*(?:
      (?:where|how)\s+(?:is|are)\s+.+\s+(?:configured|set\s+up)\W*$
      |(?:where|how)\s+(?:do|does|can|could|should|would)\s+(?:i|we|you|one)
        \s+(?:configure|set\s+up)\s+\S
      |(?:the\s+)?(?:config|configuration|settings)\s+(?:for|of)\s
      |(?:where|which|what)\s+(?:is|are)\s+(?:the\s+|our\s+)?[\w.@/-]+(?:\s+[\w.@/-]+){0,2}
        \s+(?:config|configuration)(?:\s+files?)?\W*$
      |(?:where|which|what)\s+(?:is|are)\s+(?:the\s+|our\s+)?(?:[\w.-]+\s+){0,2}
        (?:workflows?|pipelines?)\b
      |(?:which|what)\s+(?:ci\s+|github\s+)?(?:workflows?|pipelines?)\s+(?!is\b|are\b)\w
      |(?:what|which)\s+(?:maven|gradle|sbt)\s+(?:plugins?|profiles?)\b
      |(?:what|which)\s+(?:are\s+(?:the\s+|its\s+|our\s+)?|(?:\w+\s+)?)
        (?:(?:dev|build|runtime|optional)[\s-])?(?:dependencies|deps)\b
      |{_WHERE_DEPENDENCIES}
      |{_WHERE_NAMED_DEPENDENCY}
      |(?:what|which)\s+(?:crates|packages|libraries|gems|modules|version\s+of\s+\S+)
        \s+(?:does|do)\s+.+\s+depend\s+on\W*$
      |(?:what|which)\s+version\s+of\s+\S+\s+(?:does|do|is|are)\s+(?:.+\s+)?
        (?:use|used|using|require|required|pinned)\W*$
    )""".replace("{_WHERE_DEPENDENCIES}", _WHERE_DEPENDENCIES).replace(
        "{_WHERE_NAMED_DEPENDENCY}", _WHERE_NAMED_DEPENDENCY
    ),
    re.IGNORECASE | re.VERBOSE,
)

# a question for a project's features, a manifest's list (Cargo.toml's `[features]`): `which
# features does indicatif have`, `what cargo features are there`, `where are the feature flags
# defined`. QA on console-rs/indicatif matched no config form and left Cargo.toml out of the
# first ten; `what features does the ProgressBar support` asks for its code, `which features does
# the crate have` (QA on eza-community/eza: no config form) for the manifest's.
_PROJECT = r"(?:crate|project|library|package|app|application|program|tool|binary)"
_ABOUT_FEATURES = re.compile(
    rf"""^\s*(?:
      (?:what|which)\s+(?:are\s+(?:the\s+|its\s+|our\s+)?)?(?:cargo\s+|crate\s+|optional\s+)?
        (?:features|features?\s+flags?)
        (?:\s+(?:does\s+\S+\s+have|do\s+we\s+have|are\s+there|exist|are\s+(?:defined|available)
          |does\s+(?:the|this|our)\s+{_PROJECT}\s+(?:have|support|provide|offer)))?
        \W*$
      |(?:where|how)\s+(?:is|are)\s+(?:the\s+|its\s+|our\s+)?(?:cargo\s+)?
        (?:features|features?\s+flags?)\s+(?:defined|declared|listed)\W*$
      |(?:the\s+)?cargo\s+features\W*$
    )""",
    re.IGNORECASE | re.VERBOSE,
)
# or the version of one it uses (`what version of go-cty does hcl use`: QA on hashicorp/hcl
# matched no config form and left go.mod out of the first ten)
# a question about a Rust crate's minimum supported Rust version, its manifest's
# `rust-version` and the CI job checking it: `where is the MSRV set`, `what is the minimum
# supported rust version`. QA on console-rs/indicatif answered ten files holding `set_`
# methods; `Bump MSRV to 1.85` is a change request
_ABOUT_MSRV = re.compile(
    r"^\s*(?:where|what|which|how)\b.*(?:\bmsrv\b|\bminimum\s+(?:supported\s+)?rust\s+version"
    r"|\brust\s+version\b.*\bminimum\s+supported\b)",
    re.IGNORECASE,
)
# a question about the Python versions a package supports, its manifest's `requires-python`
# (`python_requires` in setup.py and setup.cfg): `what Python versions are supported`, `what is
# the minimum python version`, `the python version requirement` (QA on
# python-jsonschema/jsonschema: the noun missed). QA on nedbat/coveragepy answered env.py's
# PYVERSION, cmdline.py and igor.py, no manifest; `Drop support for Python 3.9` is a change
# request
_ABOUT_PYTHON_VERSIONS = re.compile(
    r"^\s*(?:where|what|which|how)\b.*(?:\b(?:minimum|min|oldest|supported|required)\s+python"
    r"\s+versions?\b|\bpython\s+versions?\b.*\b(?:supported|support|required|requires?"
    r"|requirements?)\b|\brequires[-_]python\b|\bpython[-_]requires\b)",
    re.IGNORECASE,
)
# a question about the Node.js versions a package supports, its package.json's `engines`:
# `where is the node version set`, `what node version is required`. QA on middyjs/middy
# answered ten files holding `version` (resolveHttpEventVersion first) and no package.json;
# `Drop support for Node 18` is a change request
_ABOUT_NODE_VERSIONS = re.compile(
    r"^\s*(?:where|what|which|how)\b.*(?:\b(?:minimum|min|oldest|supported|required)\s+node"
    r"(?:\.?js)?\s+versions?\b|\bnode(?:\.?js)?\s+versions?\b.*\b(?:supported|support"
    r"|required|requires?|requirements?|set|pinned|declared|defined)\b)",
    re.IGNORECASE,
)
# a question about the Java versions a project builds for, its build's release level (Maven's
# `<release>11</release>`, Gradle's `release = 11`): `what java version does guice require`,
# `which Java versions are supported`. QA on google/guice answered ten source files holding
# `require` or `java` and no pom.xml; `Adopt java 11 in guice builds` is a change request.
# Where it is configured, used or compiled for asks the same (QA on
# apache/commons-collections: `where is the Java version configured` answered ten
# `serialVersionUID` fields and no pom.xml)
_ABOUT_JAVA_VERSIONS = re.compile(
    r"^\s*(?:where|what|which|how)\b.*(?:\b(?:minimum|min|oldest|supported|required)\s+(?:java|jdk)"
    r"\s+versions?\b|\b(?:java|jdk)\s+(?:versions?|release(?:\s+level)?)\b.*\b(?:supported|support"
    r"|required|requires?|requirements?|set|pinned|declared|defined|targeted|targets?|configured"
    r"|specified|used|uses?|needs?|needed|compiled?|compiles)\b"
    r"|\b(?:versions?|release)\s+of\s+(?:java|the\s+jdk)\b)",
    re.IGNORECASE,
)
# a question about the Go versions a module builds with, its go.mod's `go` directive (and
# `toolchain`): `what Go version does the module require`, `which go version is used`. QA on
# spf13/afero ranked path.go (a comment's `require`) first and go.mod third, at its `module`
# line; `Bump minimum go version to 1.16` is a change request
_ABOUT_GO_VERSIONS = re.compile(
    r"^\s*(?:where|what|which|how)\b.*(?:\b(?:minimum|min|oldest|supported|required)\s+go(?:lang)?"
    r"\s+versions?\b|\bgo(?:lang)?\s+(?:versions?|toolchain)\b.*\b(?:supported|support|required"
    r"|requires?|requirements?|set|pinned|declared|defined|targeted|targets?|used|uses?|needs?"
    r"|needed)\b|\b(?:versions?)\s+of\s+go(?:lang)?\b)",
    re.IGNORECASE,
)
# how the project runs its tests (its CI workflow, its Makefile's target, its manifest's
# script): `how do I run the tests`, `what command runs the tests`. QA on console-rs/indicatif
# answered ten files' `mod tests` blocks and no workflow; `run the tests on windows` asks a
# change
_ABOUT_TEST_RUN = re.compile(
    r"""^\s*(?:how\s+(?:do|can|should)\s+(?:i|we|you|one)\s+run|how\s+to\s+run|how\s+(?:are|is)
      |what\s+commands?\s+runs?|which\s+commands?\s+runs?)
    \s+(?:the\s+|all\s+)?(?:unit\s+|integration\s+)?(?:tests|test\s+suite|specs)(?:\s+run)?\W*$""",
    re.IGNORECASE | re.VERBOSE,
)
_ABOUT_DEPENDENCIES = re.compile(
    r"^\s*(?:(?:what|which)\s+(?:(?:.*[\s-])?(?:dependencies|deps|depend\s+on)\b|version\s+of\s)"
    r"|(?:where|how)\s+(?:is|are)\b.*\b(?:dependencies|dependency|deps?)\b)",
    re.IGNORECASE,
)
# the words asking for a manifest's list, no subject of it: the config file answering `which
# crates does indicatif depend on` holds `indicatif`, not `crates` or `depend` (QA on
# console-rs/indicatif: each word was a subject Cargo.toml had to hold)
_MANIFEST_WORDS = re.compile(
    r"(?<![\w$.#:/-])(?:dependencies|dependency|deps?|depends?\s+on|crates|packages|libraries"
    r"|gems|modules|features|features?\s+flags?|have|has|there|exist|defined|declared|listed"
    r"|available|version|use|used|using|require|required|pinned|msrv|minimum|supported|set"
    r"|versions|support|requires|(?:the|this|our)\s+" + _PROJECT + ")"
    r"(?![\w$.#:/-])",
    re.IGNORECASE,
)


def manifest_list(query: str) -> str | None:
    """The manifest's list a config question asks for: `dependencies` for `which crates does
    X depend on`, `features` for `what cargo features are there`; None for another query."""
    if _ABOUT_FEATURES.match(query):
        return "features"
    if _ABOUT_MSRV.match(query):
        return "rust-version"
    if _ABOUT_PYTHON_VERSIONS.match(query):
        return "requires-python"
    if _ABOUT_NODE_VERSIONS.match(query):
        return "engines"
    if _ABOUT_JAVA_VERSIONS.match(query):
        return "release"
    if _ABOUT_GO_VERSIONS.match(query):
        return "go"
    if _ABOUT_CONFIG.match(query) and _ABOUT_DEPENDENCIES.match(query):
        return "dependencies"
    return None


_CONFIG_WORDS = re.compile(
    r"(?<![\w$.#:/-])(?:(?:config|configuration)\s+files?|configured|configure|set\s+up|config"
    r"|configuration|settings|workflows?|pipelines?)"
    r"(?![\w$.#:/-])",
    re.IGNORECASE,
)


# a query asking for examples: `example of a progress bar`, `show me an example using Live`,
# `examples for Table`. QA on Textualize/rich: `example of a progress bar with multiple tasks`
# ranked rich/progress.py first and examples/dynamic_progress.py 5th. `example of using hlog`
# asks for hlog: `using` is the asking's (QA on rs/zerolog: a file holding `using` was lifted).
# A project may call them samples (QA on typestack/class-validator: `sample for validation
# groups` ranked nothing under sample/ in the top 10, sample/sample2-using-groups/ first after)
# `which examples show per-layer filtering` asks the same (QA on tokio-rs/tracing placed
# examples/examples/per-layer-filter.rs in none of the first ten)
_ABOUT_EXAMPLES = re.compile(
    r"""^\s*(?:(?:where\s+(?:is|are)|show\s+me|find|is\s+there|are\s+there)\s+)?
    (?:an?\s+|the\s+|some\s+|any\s+)?(?:examples?|samples?)\s+(?:of|for|showing|using|that|with)\s
    (?:\s*(?:using|showing|calling)\s)?
    |^\s*(?:which|what)\s+(?:examples?|samples?|demos?)\s+
    (?:show|use|demonstrate|cover|exercise|illustrate)s?\s""",
    re.IGNORECASE | re.VERBOSE,
)


def without_example_words(query: str) -> str:
    """A query about examples (roles_about) without the words asking for them (`example of
    a progress bar` -> `a progress bar`); any other query as it is."""
    found = _ABOUT_EXAMPLES.match(query)
    return query[found.end() :] if found is not None else query


def without_config_words(query: str) -> str:
    """A query about configuration (roles_about) without the words asking for it (`where is
    mypy configured` -> `where is mypy`, `the CI workflow` -> `the CI`), which say what kind
    of file it asks for and matched prose (rich/logging.py's `configured logging`), or only
    its path (a workflow rarely writes `workflow`), with the name of the manifest's list it
    asks for (manifest_list); any other query as it is."""
    if Role.CONFIG not in roles_about(query):
        return query
    rest = _CONFIG_WORDS.sub(" ", query)
    if (listed := manifest_list(query)) is not None:
        # a manifest writes the list by its section's name (`[features]`), which `where are
        # the feature flags defined` or `which crates does it depend on` do not
        rest = f"{rest} {listed}"
    return rest if re.search(r"\w", rest) else query


def config_subject(query: str) -> str:
    """What a query about configuration asks a config file to hold: the query less the words
    asking for configuration (without_config_words), and for a manifest's list those asking
    for the list (`which crates does indicatif depend on` -> `indicatif`), which the keyword
    search still reads (`[features]` holds `features`)."""
    if _ABOUT_TEST_RUN.match(query):  # the files running them hold `test`, not `run`
        return "test"
    if manifest_list(query) is None:
        return without_config_words(query)
    # not the list's name without_config_words adds for the keyword search (`rust-version`)
    rest = _MANIFEST_WORDS.sub(" ", _CONFIG_WORDS.sub(" ", query))
    return rest if re.search(r"\w", rest) else query


def roles_about(query: str) -> set[Role]:
    """The roles a query is about, not merely names: {TEST} for `tests for retry conditions`,
    `where are the tests for X?` and `X tests`, none for `add tests for X`; {DOC} for `where is X
    documented` and `docs for X`, none for `document X`; {CONFIG} for `where is X configured`,
    `config for X`, `where do I configure X` and `where is the X config` or `the CI workflow`,
    none for `configure X`; {EXAMPLE} for
    `example of X`."""
    tested = _ABOUT_TESTED.match(query) is not None
    about = {Role.TEST} if _ABOUT_TESTS.match(query) or _subject_tests(query) or tested else set()
    manifest = _ABOUT_FEATURES.match(query) or _ABOUT_MSRV.match(query)
    manifest = manifest or _ABOUT_PYTHON_VERSIONS.match(query)
    manifest = manifest or _ABOUT_NODE_VERSIONS.match(query) or _ABOUT_JAVA_VERSIONS.match(query)
    manifest = manifest or _ABOUT_GO_VERSIONS.match(query) or _ABOUT_TEST_RUN.match(query)
    about |= {Role.CONFIG} if _ABOUT_CONFIG.match(query) or manifest else set()
    about |= {Role.EXAMPLE} if _ABOUT_EXAMPLES.match(query) else set()
    return (about | {Role.DOC}) if _ABOUT_DOCS.match(query) else about


# the words with which a query about tests names them: `tests` in `tests for reach`
TEST_NOUNS = frozenset({"test", "tests", "spec", "specs"})
_TEST_NOUNS = re.compile(r"(?<![\w$.#:/-])(?:tests?|specs?)(?![\w$.#:/-])", re.IGNORECASE)


def without_test_nouns(query: str) -> str:
    """A query about tests (roles_about) without the words naming them, which say what kind
    of file it asks for, not what the file holds: QA on jquense/yup, `tests for reach` ranked
    src/schema.ts first for its `tests` field. Any other query, or one with nothing else
    left (`tests`), as it is."""
    if Role.TEST not in roles_about(query):
        return query
    rest = _TEST_NOUNS.sub(" ", query)
    return rest if re.search(r"\w", rest) else query


# a question's opening words (`where is the`, `how do I`, `which of the`): what it asks,
# never what a file holds
_QUESTION = re.compile(
    r"^\s*(?:where|how|what|which|who|when|why)\b"
    r"(?:\s+(?:is|are|was|were|do|does|did|can|could|should|would|will|i|we|you|one|of|the"
    r"|a|an|our|my|this)\b)*",
    re.IGNORECASE,
)


def without_question_words(query: str, text: str) -> str:
    """`text` (what is searched of `query`) less its opening question words when `query` is
    a question about tests, docs, config or examples (roles_about): `where` is rare in code
    and weighed above the subject. QA on sinclairzx81/typebox, whose every source file
    writes `deno-fmt-ignore-file`: `where is the deno config` ranked first the files writing
    `where` in comments (src/value/repair/repair.ts) and left deno.jsonc out of the pool."""
    if not roles_about(query):
        return text
    rest = _QUESTION.sub(" ", text, count=1)
    return rest if re.search(r"\w", rest) else text


_TS_SOURCE = (".ts", ".mts", ".cts", ".tsx")
_TS_DECLARATIONS = (".d.ts", ".d.mts", ".d.cts")
_TYPE_STEMS = frozenset({"types", "type", "typings"})
_TYPE_DIRS = frozenset({"types", "typings", "@types"})
# the words of a request about types themselves (`update h3.fetch type`, `infer the
# overloads`): then a declarations file is what it asks for
TYPE_WORDS = frozenset(
    {"type", "types", "typing", "typings", "typed", "interface", "interfaces", "generic",
     "generics", "infer", "inference", "overload", "overloads", "dts", "declaration",
     "declarations", "typescript", "stub", "stubs", "pyi"}
)  # fmt: skip


@functools.lru_cache(maxsize=65_536)
def is_type_declarations(path: str) -> bool:
    """Whether `path` is a file of type declarations: a TypeScript `.d.ts`, `types.ts`
    (`types.wrangler.ts`) or file under a `types/` folder, or a Python stub (`.pyi`). Such a
    hub holds the documented shape of every option or function, so a request's words all
    meet there, while the change goes into the code that reads the option."""
    parts = path.split("/")
    name = parts[-1].lower()
    if name.endswith(".pyi"):
        return True
    if not name.endswith(_TS_SOURCE):
        return False
    if name.endswith(_TS_DECLARATIONS) or name.split(".", 1)[0] in _TYPE_STEMS:
        return True
    return any(folder.lower() in _TYPE_DIRS for folder in parts[:-1])


# A test file's name with its test marker taken out is its subject's: `fr.test.ts` tests
# `fr.ts`, `test_termui.py` tests `termui.py`, `router_test.go` tests `router.go`.
_SUBJECT_OF = (
    re.compile(r"^test_(?P<stem>.+)(?P<ext>\.py)$"),
    re.compile(r"^(?P<stem>.+)_(?:test|spec)(?P<ext>\.(?:py|go|rs|c|cc|cpp|rb|exs?))$"),
    re.compile(r"^(?P<stem>.+)\.(?:test|spec|e2e|test-d|tst)(?P<ext>\.[cm]?[jt]sx?)$"),
    re.compile(r"^(?P<stem>.+)-test(?P<ext>\.[cm]?[jt]sx?)$"),
    re.compile(r"^(?P<stem>.+?)(?:Tests?|IT|Spec)(?P<ext>\.(?:java|kt|cs|swift|scala|groovy))$"),
)


def home_of_test(path: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(home, tail) of a test file's folders: those above its first test folder (`tests`,
    `__tests__`, ...) and those below it; a test beside its code (`router_test.go`) has all
    of its folders as home and no tail. Where a test's subject may live: under its home, or
    beside its home with the tail's folders (`v4/core/tests/locales/fr.test.ts` and
    `v4/locales/fr.ts`)."""
    folders = tuple(path.replace("\\", "/").split("/")[:-1])
    for i, folder in enumerate(folders):
        if folder.lower() in _TEST_DIRS and not _test_package(folders, i):
            return folders[:i], folders[i + 1 :]
    return folders, ()


def subject_name(path: str) -> str | None:
    """The file name of what a test file tests, read from its own name (None when the name
    carries no test marker: `tests/helpers.py` names no subject)."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    for pattern in _SUBJECT_OF:
        found = pattern.match(name)
        if found:
            return found["stem"] + found["ext"]
    return None
