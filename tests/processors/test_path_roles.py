"""The role of a file by its path, and the roles a query asks for or is about
(processors/path_roles.py): moved from tests/streams/test_search_ranking.py, which ranks
with them."""

from __future__ import annotations

import pytest

from processors.path_roles import Role, role_of, roles_about, roles_asked


@pytest.mark.parametrize(
    ("path", "role"),
    [
        ("src/click/termui.py", Role.SOURCE),
        ("tests/test_termui.py", Role.TEST),
        ("context_test.go", Role.TEST),
        ("src/parse.test.ts", Role.TEST),
        ("src/main/java/org/jsoup/Jsoup.java", Role.SOURCE),
        ("src/test/java/org/jsoup/JsoupTest.java", Role.TEST),
        ("CHANGES.md", Role.DOC),
        ("wiki/compile.md", Role.DOC),
        ("packages/docs/content/index.mdx", Role.DOC),
        ("release-notes/VERSION-2.x", Role.DOC),
        ("changelog.d/1234.bugfix", Role.DOC),
        ("CREDITS", Role.DOC),
        ("MAINTAINERS", Role.DOC),
        (".mailmap", Role.DOC),
        (".gitattributes", Role.CONFIG),
        # a tool's dotfile, however it is named (QA on PyCQA/flake8: .pylintrc, 470 lines of
        # commented settings, ranked as code among the first four on 37 of 135 commit
        # subjects and filled a 8,192-token bundle's fourth place)
        (".pylintrc", Role.CONFIG),
        (".coveragerc", Role.CONFIG),
        (".flake8", Role.CONFIG),
        ("web/.babelrc", Role.CONFIG),
        (".eslintrc.js", Role.SOURCE),
        ("CODEOWNERS", Role.CONFIG),
        ("src/mailmap.py", Role.SOURCE),
        ("src/main/java/com/fasterxml/jackson/core/Version.java", Role.SOURCE),
        ("examples/pager/pager.py", Role.EXAMPLE),
        ("packages/bench/compile.ts", Role.BENCH),
        ("package.json", Role.CONFIG),
        (".github/workflows/ci.yml", Role.CONFIG),
        ("vendor/github.com/x/y.go", Role.VENDORED),
        ("lib/reply.js", Role.SOURCE),
        ("types/reply.d.ts", Role.SOURCE),
        ("m4/ax_pthread.m4", Role.CONFIG),
        ("src/Makefile.am", Role.CONFIG),
        ("configure.ac", Role.CONFIG),
        ("CMakeLists.txt", Role.CONFIG),
        ("cmake/FindZLIB.cmake", Role.CONFIG),
        ("docs/CMakeLists.txt", Role.DOC),
        # Bazel's build files are build config, not source (QA on google/re2: BUILD.bazel,
        # MODULE.bazel and python/BUILD.bazel ranked as code)
        ("BUILD", Role.CONFIG),
        ("BUILD.bazel", Role.CONFIG),
        ("python/BUILD.bazel", Role.CONFIG),
        ("MODULE.bazel", Role.CONFIG),
        ("WORKSPACE", Role.CONFIG),
        ("bazel/re2.bzl", Role.CONFIG),
        ("src/build/__init__.py", Role.SOURCE),
        ("notes.txt", Role.DOC),
        # a project document's name on a program's file is code (gofiber/fiber's proxy
        # middleware was pushed down and never embedded as documentation)
        ("middleware/proxy/security.go", Role.SOURCE),
        ("src/history.py", Role.SOURCE),
        ("lib/credits.js", Role.SOURCE),
        ("SECURITY.md", Role.DOC),
        ("HISTORY", Role.DOC),
        ("license.html", Role.DOC),
        # what the benchmark's gold rule (query_api/evaluation/gold_paths.py) calls a test is
        # one for the ranking too: tsd's type tests and their folder (a `mock` folder is
        # not: testify's `mock/mock.go` is that library's program)
        ("packages-private/dts-test/defineComponent.test-d.tsx", Role.TEST),
        ("test-d/index.test-d.ts", Role.TEST),
        ("test-d/helpers.ts", Role.TEST),
        # TSTyche's type tests (`index.tst.ts` beside `index.d.ts`): on middyjs/middy 'what uses
        # getInternal' ranked eight of them as code above the middlewares calling it
        ("packages/core/index.tst.ts", Role.TEST),
        ("src/types.tst.tsx", Role.TEST),
        # Jazzer.js's fuzz tests, and benchmarks beside their code (vitest's `.bench.ts`):
        # on middyjs/middy 'fix: small perf boost' ranked five index.perf.js files first
        ("packages/core/index.fuzz.js", Role.TEST),
        ("packages/core/index.perf.js", Role.BENCH),
        ("src/parse.bench.ts", Role.BENCH),
        # a folder of the project's websites, as `website/` is: on middyjs/middy
        # websites/middy.js.org/src/routes/+page.svelte's code sample ranked third for 'where
        # is middy defined' and filled a quarter of a 4,000-token bundle for a change to core
        ("websites/middy.js.org/src/routes/+page.svelte", Role.DOC),
        ("websites/middy.js.org/src/lib/docs-content.js", Role.DOC),
        ("src/perf.ts", Role.SOURCE),
        ("mock/mock.go", Role.SOURCE),
        ("src/type-tests/infer.ts", Role.TEST),
        ("src/mockery.ts", Role.SOURCE),
        # a test folder with a qualifier, and a news fragment wherever it lives
        ("test-helpers/context.js", Role.TEST),
        ("runtime-tests/bun/index.ts", Role.TEST),
        ("plugin/metrics/test_data/metrics.go", Role.TEST),
        ("src/latest/version.py", Role.SOURCE),
        ("src/pytest_plugin/hooks.py", Role.SOURCE),
        ("newsfragments/1234.feature", Role.DOC),
        ("CHANGES/5678.bugfix", Role.DOC),
        ("changes/91.removal.md", Role.DOC),
        # a Go file in a doc folder is a package (cobra's doc/md_docs.go), its pages are docs
        ("doc/md_docs.go", Role.SOURCE),
        ("doc/md_docs.md", Role.DOC),
        ("docs/conf.py", Role.DOC),
        # tutorial programs beside the docs (typer's and FastAPI's docs_src/, bubbletea's
        # tutorials/) are examples, not the library: typer's 200 ranked as its code
        ("docs_src/commands/help/tutorial006_py310.py", Role.EXAMPLE),
        ("tutorials/commands/main.go", Role.EXAMPLE),
        ("docs/tutorial/index.md", Role.DOC),
        # a template the program renders (askama's `#[template(path = "bash.txt")]`, a
        # Jinja page, a `go:embed`ded text) is its code, not prose: on ajeetdsouza/zoxide
        # templates/fish.txt ranked below the first ten for 'Simplify fish init script'
        ("templates/bash.txt", Role.SOURCE),
        ("app/templates/registration/email.txt", Role.SOURCE),
        ("src/web/templates/index.html", Role.SOURCE),
        ("src/download/template/index.html", Role.SOURCE),
        ("templates/README.md", Role.DOC),
        ("docs/_templates/layout.html", Role.DOC),
        ("examples/app/templates/index.html", Role.EXAMPLE),
        ("tests/templates/page.html", Role.TEST),
    ],
)
def test_roles_from_paths(path: str, role: Role) -> None:
    assert role_of(path) == role


def test_roles_a_query_asks_for() -> None:
    assert roles_asked({"add", "tests", "for", "pager"}) == {Role.TEST}
    assert roles_asked({"fix", "pager", "flush"}) == set()
    assert Role.DOC in roles_asked({"fix", "typo", "in", "readme"})


@pytest.mark.parametrize(
    ("query", "about"),
    [
        ("tests for retry conditions", {Role.TEST}),
        ("Where are the tests for the router?", {Role.TEST}),
        ("which test covers parse_args", {Role.TEST}),
        ("find the unit tests for the parser", {Role.TEST}),
        ("test digest auth", {Role.TEST}),
        # a subject and `tests` (QA on apache/commons-cli: OptionGroupTest.java was 13th)
        ("OptionGroup tests", {Role.TEST}),
        ("where are the OptionGroup tests?", {Role.TEST}),
        ("retry middleware unit tests", {Role.TEST}),
        ("fix flaky tests", set()),
        ("run integration tests", set()),
        ("add missing tests", set()),
        ("Improve Windows tests", set()),
        # a change that mentions tests mostly changes the source it names
        ("add tests for the pager", set()),
        ("fix the flaky retry tests", set()),
        ("testing the parser", set()),
        ("tests", set()),
        # where or how a thing is tested (QA on benoitc/gunicorn: `where is reap_workers
        # tested` ranked the files declaring it above tests/test_arbiter.py)
        ("where is reap_workers tested", {Role.TEST}),
        ("how is the reloader tested?", {Role.TEST}),
        ("is reap_workers tested", {Role.TEST}),
        ("Fix reap_workers so it can be tested", set()),
        ("where is --reload-delay documented", {Role.DOC}),
        ("where is the reload delay documented?", {Role.DOC}),
        ("docs for the reload delay", {Role.DOC}),
        ("the documentation of reload delay", {Role.DOC}),
        # asked for by the noun after `where are` (QA on PyCQA/flake8: `where are the docs for
        # writing plugins` put no page of docs/source/plugin-development/ in the first ten)
        ("where are the docs for writing plugins", {Role.DOC}),
        ("where is the documentation for the --jobs option?", {Role.DOC}),
        ("which docs cover per-file-ignores", {Role.DOC}),
        # by their subject and noun (QA on apache/commons-collections: `where are the bloom
        # filter docs` ranked ten source files above src/site/markdown/bloomFilters.md)
        ("where are the bloom filter docs", {Role.DOC}),
        ("where is the bloom filter documentation?", {Role.DOC}),
        ("where is the user guide", {Role.DOC}),
        ("Update the bloom filter docs", set()),
        # a man page is a doc (QA on eza-community/eza: `where is the man page for --icons`
        # matched no docs form and put no page of man/ in the first ten)
        ("where is the man page for --icons", {Role.DOC}),
        ("man page for EZA_COLORS", {Role.DOC}),
        ("the manpage of eza", {Role.DOC}),
        ("Fix the man page for --icons", set()),
        ("Fix the docs for the reload delay", set()),
        # a change request that documents something changes its source as often
        ("Document that HideHelpCommand is inherited by subcommands", set()),
        ("document printPrettyStack and harden NoColor panic test", set()),
        ("Fix docs and changelog", set()),
    ],
)
def test_the_roles_a_query_is_about(query: str, about: set[Role]) -> None:
    assert roles_about(query) == about
