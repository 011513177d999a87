"""A query about documentation gets the documentation first.

Docs are pushed down (search.role_prior) and never embedded (processors/vectors.py), and a
request that merely names them (`fix docs`, `document X`) changes the source as often. A
question whose subject is documentation (`where is --reload-delay documented`, `docs for the
reload delay`: path_roles.roles_about) looks for the pages: on encode/uvicorn it never found
docs/settings.md in the top 10, below every file holding `reload` and `delay`. So when the
query is about docs, the doc files of the ranking that hold its subject come first, in their
order, the code after. A doc holding only a fragment of the name asked about is no page about
it: on spf13/pflag `docs for NoOptDefVal` put LICENSE 2nd (`IN NO EVENT` holds `no`), and
`where is ParseErrorsAllowlist documented` put README.md and LICENSE above flag.go, the one
file documenting it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import replace
from functools import partial

from processors.path_roles import (
    Role,
    config_subject,
    is_example_config,
    manifest_list,
    role_of,
    roles_about,
    without_example_words,
)
from processors.tokenizer import tokenize
from query_api.retrieval.ci_files import ci_files, ci_words, is_ci_file
from query_api.retrieval.config_sections import is_sectioned, section_naming
from query_api.retrieval.declarations_first import declarations_first
from query_api.retrieval.doc_words import DOC_WORDS
from query_api.retrieval.example_names import named_examples_first, named_pages_first
from query_api.retrieval.hit_details import PATH_REASON, QueryTerms, query_terms
from query_api.retrieval.man_pages_first import man_pages_first
from query_api.retrieval.manifest_files import (
    DEPENDENCIES,
    manifest_files,
    package_manifests,
    root_manifests,
)
from query_api.retrieval.sphinx_conf import is_sphinx_conf, names_sphinx, sphinx_conf_files
from query_api.retrieval.word_forms import forms
from schemas import tools as t
from streams.stores import ViewStore
from streams.stores.views.read import files_with_path_words

# a record of the project's history rather than a page about a thing: a changelog, release
# notes, a news fragment; an entry names a thing for a change made to it (QA on jquense/yup:
# `docs for addMethod` led with CHANGELOG.md's `* **addMethod:** allow Schema ...`)
_RECORD_NAME = re.compile(
    r"^(changes|changelog|history|news|release[-_]?notes|releases)([._-].*)?$", re.IGNORECASE
)
_RECORD_DIRS = frozenset(
    {"changelog", "changelogs", "changelog.d", "changes.d", "news.d", "newsfragments",
     "release-notes", "release_notes", "releasenotes"}
)  # fmt: skip


def asked_pages_first(
    query: str,
    hits: list[t.SearchHit],
    holds: Callable[[str, QueryTerms], bool],
    named: Callable[[frozenset[str]], list[t.SearchHit]] = lambda _: [],
    configures: Callable[[str, frozenset[str]], bool] = lambda _path, _words: False,
) -> list[t.SearchHit]:
    """`hits` with the files of the role the query is about first, those that `holds` (a
    path, the query's terms): the docs for `where is X documented`, the config files for
    `where is X configured`, the examples for `example of X` (path_roles.roles_about).
    Config files and examples are never embedded either: QA on Textualize/rich, `where is
    mypy configured` ranked eight files holding no `mypy` above pyproject.toml's
    `[tool.mypy]`, whose score was keyword alone. `named`: the config files the subject's
    words name though none matched (rc_files: `.prettierrc.yml` for `prettier`), which
    join the hits as a tool's own config. `configures`: whether a file has a section whose
    header names the subject (`[mypy]`, `[coverage:run]`: sectioned_config), which makes it
    the tool's own config too."""
    about = roles_about(query)
    if Role.DOC in about:
        terms = query_terms(query)
        # a flag is held whole (`--git-repos`), not by one of its words (`git`)
        flags = tuple(flag.lower() for flag in _FLAG.findall(query))
        subject = replace(terms, identifiers=(*terms.identifiers, *flags)) if flags else terms
        paged = docs_first(hits, lambda path: holds(path, subject))
        paged = named_pages_first(paged, terms.words, _is_page)  # the page named for it
        return man_pages_first(query, paged, _is_page)  # `the man page for --warmup`
    if Role.CONFIG in about:
        terms = query_terms(config_subject(query))
        held = {hit.entry.path for hit in hits}
        # `what dependencies does hcl have`: the list names the manifests (manifest_files)
        # and its features or rust-version (`which features does indicatif have`), brought
        # in for each list: config stays fused by score and a manifest holding none of the
        # subject's words fell out (QA on eza-community/eza, `which features does the crate
        # have`: Cargo.toml below the first fifty, under files writing `use crate::`)
        listed = manifest_list(query)
        asked = terms.words | {DEPENDENCIES} if listed is not None else terms.words
        workflow = _WORKFLOW.search(query) is not None  # `which workflow publishes to npm`
        asked = asked | {_CI} if workflow else asked  # its CI files join the hits
        hits = [*hits, *(hit for hit in named(asked) if hit.entry.path not in held)]
        paths = [h.entry.path or "" for h in hits]
        # a package's own manifest before the root's (`which dependencies does guice core have`)
        package = set(package_manifests(paths, terms.words)) if listed else set()
        manifests = root_manifests(paths) | package if listed else set()
        data = {hit.entry.path for hit in hits if _data_file(hit)}
        each = _each_word(terms)
        paged = docs_first(
            hits,
            lambda path: path not in data and all(_config_holds(holds, path, w) for w in each),
            Role.CONFIG,
        )
        ci = _ci_answers(paged, terms, holds, workflow)
        own = [
            hit
            for hit in paged
            if hit.entry.path not in data
            and (
                _own_config(hit, terms)
                or hit in ci
                or hit.entry.path in manifests
                or _sphinx_conf(hit, terms)
                or configures(hit.entry.path or "", terms.words)
            )
        ]
        own = [hit for hit in own if hit.entry.path in package] + [
            hit for hit in own if hit.entry.path not in package
        ]
        if workflow:  # the workflows asked for before a tool's own dotfile (`.npmrc`)
            own = [hit for hit in own if hit in ci] + [hit for hit in own if hit not in ci]
        top = max((hit.score for hit in hits), default=0.0)
        head = [hit.model_copy(update={"score": max(hit.score, top)}) for hit in own]
        return head + [hit for hit in paged if hit not in own]
    if Role.EXAMPLE in about:  # not embedded either (QA on rich: `example of a progress bar`)
        terms = query_terms(without_example_words(query))
        paged = docs_first(hits, lambda path: holds(path, terms), Role.EXAMPLE)
        return named_examples_first(paged, terms.words, _is_example)  # long-spinner.rs
    return declarations_first(query, hits, holds)  # `where are the type definitions for X`


def _config_holds(holds: Callable[[str, QueryTerms], bool], path: str, terms: QueryTerms) -> bool:
    """Whether a config file holds the subject, in its text or its path: a config file is
    often named for what it configures rather than naming it (examples/autobahn/config/
    fuzzingclient.json for `where is the autobahn config`, QA on gorilla/websocket)."""
    return holds_subject(path.replace("/", " "), terms) or holds(path, terms)


def _each_word(terms: QueryTerms) -> list[QueryTerms]:
    """The terms a config file must hold, each: every word of a subject of several words
    (`error field name`), since one of them is in any config file (a workflow's `name:`
    keys; QA on rs/zerolog: `where is the error field name configured` ranked
    .github/workflows/test.yml first, for `name:` and `continue-on-error`); `terms` itself
    for a compound name, which matches whole."""
    words = sorted(terms.words - DOC_WORDS)
    if terms.identifiers or len(words) < 2:
        return [terms]
    return [query_terms(word) for word in words]


def _own_config(hit: t.SearchHit, terms: QueryTerms) -> bool:
    """Whether a hit is the config file of a tool the query names (vitest.config.mts for
    `vitest`, .eslintrc.json for `eslint`): its own file configures it, where a workflow or
    package.json holding its name runs it. QA on pmndrs/jotai: `where is vitest configured`
    ranked package.json and three workflows above vitest.config.mts, a `.mts` that path_roles
    does not even count as config."""
    path = hit.entry.path or ""
    name = path.rpartition("/")[2].casefold()
    tool = re.split(r"[._-]", name.lstrip("."), maxsplit=1)[0]
    rc = len(tool) > 4 and tool.endswith("rc")
    tool = tool[:-2] if rc else tool
    if hit.entry.kind != "File" or tool not in terms.words:
        return False
    # a tool's dotfile is its config whatever its extension says (`.babelrc`, `.eslintrc.js`,
    # `.copywrite.hcl`: QA on hashicorp/hcl, `where is the copywrite config` put the Makefile
    # running `copywrite headers` first)
    dotfile = name.startswith(".")
    if dotfile or role_of(path) == Role.CONFIG or _CONFIG_MODULE.search(name) is not None:
        return True
    # a checker's file written in a config format, named for the tool and what it holds, is
    # its config in whichever folder: Maven keeps spotbugs-exclude-filter.xml and
    # pmd-ruleset.xml among the site's resources, which makes them docs (QA on
    # apache/commons-csv: `where is the spotbugs exclude filter configured` ranked the file
    # 7th); a page named for the tool alone (xdoc/spotbugs.xml) is no such file
    return _TOOL_FILE.match(name.removeprefix(tool)) is not None


# what follows a tool's name in the name of its config file written in a config format
_TOOL_FILE = re.compile(r"^[-_][\w.-]+\.(?:xml|ya?ml|json|toml|properties|ini|cfg|conf)$")


# a question asking for a workflow names CI, though config_subject takes the word out: QA on
# middyjs/middy, `which workflow publishes to npm` put websites/.npmrc and four package.json
# files holding `publishConfig` above .github/workflows/release.yml's `npm publish` job
_WORKFLOW = re.compile(r"\b(?:workflows?|pipelines?)\b", re.IGNORECASE)
_CI = "ci"


def _ci_answers(
    hits: list[t.SearchHit],
    terms: QueryTerms,
    holds: Callable[[str, QueryTerms], bool],
    workflow: bool = False,
) -> list[t.SearchHit]:
    """The CI files of `hits` answering a question naming CI (ci_files.py), or asking for a
    `workflow`: those holding the question's other words (`which workflow publishes the docs
    on CI` wants the workflow holding `docs`), else all of them, a workflow often running a
    tool the question does not name (`tox` for `which workflow runs the tests on CI`)."""
    named = ci_words(terms.words)
    if not named and not workflow:
        return []
    rest = [query_terms(word) for word in sorted(terms.words - named - DOC_WORDS)]
    ci = [hit for hit in hits if hit.entry.kind == "File" and is_ci_file(hit.entry.path or "")]
    holding = [hit for hit in ci if all(holds(hit.entry.path or "", w) for w in rest)]
    return holding or (ci if named else [])  # `the approval workflow`: no CI file


def _sphinx_conf(hit: t.SearchHit, terms: QueryTerms) -> bool:
    """Whether a hit is the Sphinx `conf.py` a question naming Sphinx or the docs asks for
    (sphinx_conf.py): a doc by its folder and named `conf`, it is Sphinx's own config."""
    path = hit.entry.path or ""
    return hit.entry.kind == "File" and names_sphinx(terms.words) and is_sphinx_conf(path)


# a tool's settings written as a module: vite.config.mts, jest.config.cjs, babel.config.mjs
_CONFIG_MODULE = re.compile(r"\.config\.[cm]?[jt]s$")


def _data_file(hit: t.SearchHit) -> bool:
    """Whether a config file's hit is data or generated rather than a tool's settings: a lock
    file, an ignore file, or one longer than the stored text (QA on Textualize/rich: `how is
    the console width configured?` put tools/cats.json, 120 kB of cat facts, first for
    `whiskers ... width`)."""
    name = (hit.entry.path or "").rpartition("/")[2].casefold()
    # an ignore file lists paths: `mypy_report` in .gitignore configures no mypy (QA on rich)
    ignores = name.startswith(".") and name.endswith("ignore")
    return name.endswith(".lock") or ignores or "truncated" in hit.entry.fields


def docs_first(
    hits: list[t.SearchHit], holds: Callable[[str], bool] = lambda _: True, role: Role = Role.DOC
) -> list[t.SearchHit]:
    """`hits` with its doc files (of `role`) that `holds` (by path) first, the records of
    changes (is_record) after the other pages, each list in its own order; `hits` as they
    are when only records of changes hold it."""

    def is_doc(hit: t.SearchHit) -> bool:
        path = hit.entry.path or ""
        of_role = role_of(path) == role or (role == Role.EXAMPLE and is_go_example(path))
        of_role = of_role or (role == Role.CONFIG and is_example_config(path))
        return hit.entry.kind == "File" and of_role and holds(path)

    docs = [hit for hit in hits if is_doc(hit)]
    pages = [hit for hit in docs if role != Role.DOC or not is_record(hit.entry.path or "")]
    if not pages:
        # no page documents it: a changelog entry is no documentation, and the code's own
        # comments are (QA on hyperium/hyper: `where is max_headers documented` lifted
        # CHANGELOG.md above src/client/conn/http1.rs and its `///` lines)
        return hits
    records = [hit for hit in docs if hit not in pages]
    # each scored as the first hit was at least, as declared_first does: the scores stay in
    # rank order (QA on hyperium/hyper: CHANGELOG.md led at 0.468, the next hit at 0.973)
    top = max((hit.score for hit in hits), default=0.0)
    head = [hit.model_copy(update={"score": max(hit.score, top)}) for hit in pages + records]
    return head + [hit for hit in hits if not is_doc(hit)]


def _is_page(hit: t.SearchHit) -> bool:
    path = hit.entry.path or ""
    return hit.entry.kind == "File" and role_of(path) == Role.DOC and not is_record(path)


def _is_example(hit: t.SearchHit) -> bool:
    path = hit.entry.path or ""
    return hit.entry.kind == "File" and (role_of(path) == Role.EXAMPLE or is_go_example(path))


# Go's example files: `example_test.go`, `hlog_example_test.go`, whose `func ExampleX()`
# godoc shows; tests by their name (QA on rs/zerolog: `example of using hlog` left
# hlog/hlog_example_test.go out of the first ten)
_GO_EXAMPLE = re.compile(r"(?:^|/|_)example_test\.go$")


def is_go_example(path: str) -> bool:
    """Whether `path` is a Go example file."""
    return _GO_EXAMPLE.search(path) is not None


def is_record(path: str) -> bool:
    """Whether a doc file records changes (CHANGELOG.md, HISTORY.rst, changelog.d/1.bugfix)
    rather than documenting the code."""
    *folders, name = path.split("/")
    return bool(_RECORD_NAME.match(name)) or any(f.lower() in _RECORD_DIRS for f in folders)


# a man page's troff font escape (`\fB`, `\fR`, `\f(CW`) beside the words it sets, and its
# escaped hyphens (`\fB\-\-warmup\fR` for `--warmup`): read away, the flag is held whole
_TROFF_FONT = re.compile(r"\\f(?:\(..|\[[^\]\n]*\]|.)")


def holds_subject(text: str, terms: QueryTerms) -> bool:
    """Whether `text` holds what a query about docs asks about: one of its compound names
    whole (a qualified one's last part will do: a doc writes `SortFlags` for
    `FlagSet.SortFlags`), else one of its words besides the doc words, in either number; any
    text when the query names nothing else."""
    lowered = _TROFF_FONT.sub(" ", text).lower().replace("\\-", "-")
    if terms.identifiers:
        return any(
            _whole(name).search(lowered) or _whole(re.split(r"\.#?|::?", name)[-1]).search(lowered)
            for name in terms.identifiers
        )
    words = terms.words - DOC_WORDS
    # in either number: examples/session/ shows `example of using sessions` (QA on tinyhttp)
    held = words | {form for word in words for form in forms(word)}
    return not words or not held.isdisjoint(tokenize(text))


# a long command-line flag a docs question names (QA on eza-community/eza: `where is --git-repos
# documented` ranked INSTALL.md and CONTRIBUTING.md, holding `git` and `repos` apart, above
# man/eza.1.md, documenting `--git-repos`)
_FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?![\w-])", re.IGNORECASE)


def _whole(name: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w$])" + re.escape(name) + r"(?![\w$])")


# The run-commands file of a tool a configuration query names (`.prettierrc.yml` for `where is
# the prettier config`), though no word of the query matches it: a tool's dotfile is named by
# the tool and `rc` run together (`.prettierrc`, `.babelrc`, `.mocharc.json`), one word the
# index holds whole, and its body often never names the tool (`printWidth: 120`), so keyword
# search did not find it for the config path to lift. QA on typestack/class-validator: `where
# is the prettier config` ranked package.json and .eslintrc.yml first, .prettierrc.yml nowhere.
MIN_TOOL = 3  # letters a tool's name has at least (`nyc`, `npm`)
MAX_RC_FILES = 8  # paths read per word: a tool has one, or one per package of a monorepo


def rc_files(
    views: ViewStore,
    repo_id: str,
    hydrate: Callable[[str], t.SearchHit | None],
    words: Iterable[str],
) -> list[t.SearchHit]:
    """The dotfiles named `<word>rc` (before any extension) for each of `words`, as hits
    `hydrate` makes with the reason `path-name-match`, of at most MAX_RC_FILES paths read
    per word."""
    out: list[t.SearchHit] = []
    for word in sorted(w for w in words if len(w) >= MIN_TOOL and w.isalpha()):
        wanted = f"{word}rc"
        paths = views.read(
            partial(files_with_path_words, repo_id=repo_id, name=wanted, limit=MAX_RC_FILES)
        )
        for path in paths:
            name = path.rpartition("/")[2].casefold()
            # a dotfile (`.babelrc`, `.eslintrc.js`, which path_roles counts as source)
            if name.startswith(".") and name[1:].split(".", 1)[0] == wanted:
                hit = hydrate(path)
                if hit is not None:  # named by the query's word, as a path match is
                    out.append(hit.model_copy(update={"reasons": [PATH_REASON, *hit.reasons]}))
    return out


def config_files_named(
    views: ViewStore,
    repo_id: str,
    hydrate: Callable[[str], t.SearchHit | None],
    words: Iterable[str],
) -> list[t.SearchHit]:
    """The config files a config question's subject names though no word of it matched: a
    tool's rc dotfile (rc_files), the CI files for a question naming CI (ci_files), the
    manifests for one asking for the dependencies (manifest_files), Sphinx's conf.py for one
    naming Sphinx (sphinx_conf)."""
    held = sorted(words)
    found = rc_files(views, repo_id, hydrate, held) + ci_files(views, repo_id, hydrate, held)
    found += sphinx_conf_files(views, repo_id, hydrate, held)
    return found + manifest_files(views, repo_id, hydrate, held)


# subject words a section header must hold all of: more are a sentence, not a tool's name
MAX_SECTION_WORDS = 3


def sectioned_config(views: ViewStore, repo_id: str, path: str, words: frozenset[str]) -> bool:
    """Whether `path` is a sectioned config file (config_sections.is_sectioned) with a section
    whose header holds every word of the subject (`[mypy]`, `[coverage:run]`, `[tool.ruff]`):
    it configures the tool, where a file merely naming it runs or ignores it. QA on
    PyCQA/flake8: `how is mypy configured` ranked .pre-commit-config.yaml (`id: mypy`) above
    setup.cfg's `[mypy]`, and `where is coverage configured` tox.ini (`coverage run -m
    pytest`) above its `[coverage:run]`."""
    subject = words - DOC_WORDS
    if not subject or len(subject) > MAX_SECTION_WORDS or not is_sectioned(path):
        return False
    row = views.get_content(repo_id, path)
    if row is None:
        return False
    lines = row.body.split("\n")
    found = section_naming(lines, subject)
    return found is not None and subject <= set(tokenize(lines[found[0] - 1]))
