"""A query about configuration points a sectioned config file's hit at the section naming its
subject.

`where is ruff configured` asks for `[tool.ruff.lint]`, but in a pyproject.toml the first line
holding `ruff` is most often its dependency list's `"ruff >=0.15.0",`: QA on fastapi/typer
pointed pyproject.toml at line 87 (and `how is mypy set up` at `"mypy >=1.19.1",`, line 80),
not at the `[tool.mypy]` table of line 137. A TOML, INI or setup.cfg file is read by its
section headers (`[tool.mypy]`, `[[tool.mypy.overrides]]`, `[mypy]`, `[tool:pytest]`), so the
hit is the first header whose words hold the most of the query's subject, with its section.
A tool's settings written as a module (vitest.config.mts) are its default export: QA on
pmndrs/jotai pointed `where is vitest configured` at vitest.config.mts's comment
`// https://vitest.dev/guide/migration.html` (line 28), the one line holding `vitest`, not at
`export default defineConfig({` (line 6).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from processors.path_roles import manifest_list, without_config_words
from processors.tokenizer import tokenize
from query_api.retrieval.manifest_keys import dependency_entry as toml_dependency_entry
from query_api.retrieval.manifest_keys import list_naming, listed_in, named_beside

# files read by `[section]` headers; a dotfile named for its tool (`.coveragerc`, `.flake8`)
SECTIONED = (".toml", ".cfg", ".ini", ".coveragerc", ".flake8", ".pylintrc")
_HEADER = re.compile(r"^\s*\[\[?([^\]\n]+)\]\]?\s*(?:[#;].*)?$")
# a JSON manifest's dependency entry, `"typescript": "^6.0.3",`
_DEPENDENCY_ENTRY = re.compile(r'^\s*"([^"]+)"\s*:\s*"[^"]*"\s*,?\s*$')
# package.json's lists of dependencies, the one a user of the package must install first
_DEPENDENCY_LISTS = ("peerdependencies", "dependencies", "optionaldependencies", "devdependencies")
DEPENDENCIES = "dependencies"  # the manifest list path_roles.manifest_list names


def subject_words(query: str, words: Collection[str]) -> frozenset[str]:
    """The words of a configuration query that name what is configured (`ruff` of `where is
    ruff configured`): the query's locating `words` less those asking for configuration; and
    the manifest's list a question asks for, whose section is its answer (`[features]` for
    `which features does indicatif have`, `[dependencies]` for `which crates does it depend
    on`)."""
    listed = manifest_list(query)
    subject = frozenset(tokenize(without_config_words(query))).intersection(words)
    return subject | {listed} if listed else subject


def section_naming(
    lines: Sequence[str], subject: Collection[str], query: str = ""
) -> tuple[int, int] | None:
    """The first and last line (1-based) of the first section whose header holds the most of
    `subject`'s words, its trailing blank lines left out; None when no header holds one. A
    manifest list the subject names (`requires-python`, `dependencies`) is its table or key
    (manifest_keys.list_naming) unless a header names another of its words (`[tool.poetry.
    dev-dependencies]` for `the dev dependencies`); of the dependencies, the entry of one the
    `query` names (manifest_keys.dependency_entry: `serde = "1"`, not all of them)."""
    listed = listed_in(subject)
    if listed == DEPENDENCIES and query and (entry := toml_dependency_entry(lines, query)):
        return entry
    if listed is not None and not _header_holding(lines, named_beside(subject, listed)):
        found = list_naming(lines, listed)
        if found is not None:
            return found
    best, best_held = 0, 0
    headers: list[int] = []
    for n, line in enumerate(lines, 1):
        header = _HEADER.match(line)
        if header is None:
            continue
        headers.append(n)
        held = len(set(tokenize(header.group(1))).intersection(subject))
        if held > best_held:
            best, best_held = n, held
    if not best:
        return _key_naming(lines, subject)
    end = next((n - 1 for n in headers if n > best), len(lines))
    while end > best and not lines[end - 1].strip():
        end -= 1
    return best, end


_KEY = re.compile(r"^\s*([\w.-]+)\s*=")  # a setting's key: `rust-version = "1.85"`


def _header_holding(lines: Sequence[str], words: Collection[str]) -> bool:
    """Whether a section header of `lines` holds one of `words`."""
    return bool(words) and any(
        (header := _HEADER.match(line)) is not None
        and not set(tokenize(header.group(1))).isdisjoint(words)
        for line in lines
    )


def _key_naming(lines: Sequence[str], subject: Collection[str]) -> tuple[int, int] | None:
    """The line setting the key of the most words that is one of `subject`'s words whole or
    all of whose words it holds, when no header holds one: the manifest's `rust-version =
    "1.85"` for an MSRV question (QA on console-rs/indicatif left Cargo.toml's hit without
    lines, and pointed it at `version = "0.18.4"` for `what is the minimum supported rust
    version`)."""
    best, best_held = 0, 0
    for n, line in enumerate(lines, 1):
        key = _KEY.match(line)
        if key is None:
            continue
        words = set(tokenize(key.group(1)))
        # the key whole, else all its words: `rust-version` over `version`
        named = key.group(1).casefold() in subject or (words and words <= set(subject))
        if named and len(words) > best_held:
            best, best_held = n, len(words)
    return (best, best) if best else None


def is_sectioned(path: str) -> bool:
    """Whether `path` is a config file read by section headers."""
    return path.lower().endswith(SECTIONED)


# a tool's settings module (`vitest.config.mts`, `jest.config.cjs`) and its exported settings
_CONFIG_MODULE = re.compile(r"^([\w-]+)\.config\.[cm]?[jt]s$")
_EXPORT = re.compile(r"^\s*(?:export\s+default\b|module\.exports\s*=)")


def exported_settings(
    path: str, lines: Sequence[str], subject: Collection[str]
) -> tuple[int, int] | None:
    """The first and last line (1-based) of the settings a config module named for a tool of
    `subject` exports (from `export default` or `module.exports =` to its last line); None for
    another file, or one exporting none."""
    named = _CONFIG_MODULE.match(path.rpartition("/")[2].casefold())
    if named is None or named.group(1) not in subject:
        return None
    start = next((n for n, line in enumerate(lines, 1) if _EXPORT.match(line)), None)
    if start is None:
        return None
    end = len(lines)
    while end > start and not lines[end - 1].strip():
        end -= 1
    return start, end


# a setting a build script passes as an argument: setup.py's `python_requires=">=3.10",`
_ARGUMENT = re.compile(r"^\s*([\w-]+)\s*=(?!=)")


def argument_naming(
    path: str, lines: Sequence[str], subject: Collection[str]
) -> tuple[int, int] | None:
    """The line of a Python build script (setup.py) passing the keyword argument the
    question's manifest list names in either spelling (`python_requires` for
    `requires-python`): QA on nedbat/coveragepy pointed setup.py at an extras line for `what
    Python versions are supported`, not at `python_requires=">=3.10"`; None for another file."""
    if not path.endswith(".py"):
        return None
    spelled = {word.replace("-", "_") for word in subject if "-" in word}
    names = spelled | {"_".join(reversed(word.split("_"))) for word in spelled}
    for n, line in enumerate(lines, 1):
        found = _ARGUMENT.match(line)
        if found is not None and found.group(1).casefold() in names:
            return n, n
    return None


# a JSON key opening an object or a list: `"engines": {`, `"dependencies": {`
_JSON_BLOCK = re.compile(r'^(\s*)"([\w@./-]+)"\s*:\s*[{\[]\s*$')


def json_block_naming(
    path: str, lines: Sequence[str], subject: Collection[str]
) -> tuple[int, int] | None:
    """The first and last line of a JSON file's first object or list whose key is one of
    `subject`'s words (the manifest's list a question asks for among them): package.json's
    `"engines": {` for `where is the node version set` (QA on middyjs/middy pointed it at
    `"version": "7.8.0"`, the package's own version); None for another file or no such key."""
    if not path.endswith(".json"):
        return None
    wanted = {word.casefold() for word in subject}
    for n, line in enumerate(lines, 1):
        block = _JSON_BLOCK.match(line)
        if block is None or block.group(2).casefold() not in wanted:
            continue
        indent = len(block.group(1))
        for m in range(n + 1, len(lines) + 1):
            text = lines[m - 1]
            if text.strip()[:1] in ("}", "]") and len(text) - len(text.lstrip()) <= indent:
                return n, m
        return n, n
    return None


# an XML build file's element holding a value: Maven's `<release>11</release>`,
# `<maven.compiler.release>17</maven.compiler.release>`
_XML_VALUE = re.compile(r"^\s*<([\w.-]+)>([^<]*)</\1>")
# the manifest lists (path_roles.manifest_list) a pom.xml writes as one element's value: not
# the question's other words, which name many elements (`<version>` of each dependency)
_XML_SETTINGS = frozenset({"release"})


def manifest_block_naming(
    path: str, lines: Sequence[str], subject: Collection[str], query: str = ""
) -> tuple[int, int] | None:
    """The entry of a dependency the question names (dependency_entry), else json_block_naming's
    block, or a Maven pom.xml's element holding the Java release level a `release` question
    asks for (_release_rank): `<release>11</release>` for `what java version does guice
    require` (QA on google/guice pointed pom.xml at its artifactId)."""
    if (entry := dependency_entry(path, lines, query)) is not None:
        return entry
    if (entry := pom_dependency_entry(path, lines, query)) is not None:
        return entry
    if not path.endswith(".xml"):
        block = json_block_naming(path, lines, subject)
        # no `"dependencies"` list: a library's peer or development dependencies are its own
        lists = _DEPENDENCY_LISTS if DEPENDENCIES in subject else ()
        return block or next(
            filter(None, (json_block_naming(path, lines, [k]) for k in lists)), None
        )
    if "release" not in {word.casefold() for word in subject} & _XML_SETTINGS:
        return _plugin_block(path, lines, subject)
    best: tuple[int, int] | None = None  # (the tag's rank, the line)
    for n, line in enumerate(lines, 1):
        element = _XML_VALUE.match(line)
        rank = None if element is None else _release_rank(element.group(1), element.group(2))
        if rank is not None and (best is None or rank < best[0]):
            best = (rank, n)
    return (best[1], best[1]) if best is not None else None


# a Maven plugin's artifact (`<artifactId>japicmp-maven-plugin</artifactId>`): words every
# plugin's name holds name none of them
_PLUGIN_ARTIFACT = re.compile(r"^\s*<artifactId>\s*([\w.-]*plugin)\s*</artifactId>", re.IGNORECASE)
_PLUGIN_WORDS = frozenset({"maven", "plugin", "plugins"})


def _plugin_block(
    path: str, lines: Sequence[str], subject: Collection[str]
) -> tuple[int, int] | None:
    """The `<plugin>` block of a pom.xml whose artifactId holds the most of `subject`'s words,
    the first of those holding as many: `japicmp-maven-plugin` for `where is the japicmp API
    compatibility check configured` (QA on OpenFeign/feign pointed pom.xml at the license
    plugin's `<strictCheck>`, for `check`); None for another file or no such plugin."""
    if path.rpartition("/")[2].casefold() != "pom.xml":
        return None
    wanted = {word.casefold() for word in subject} - _PLUGIN_WORDS
    best: tuple[int, int] | None = None  # (words held, the artifactId's line)
    for n, line in enumerate(lines, 1):
        artifact = _PLUGIN_ARTIFACT.match(line)
        held = len(wanted.intersection(tokenize(artifact.group(1)))) if artifact else 0
        if held and (best is None or held > best[0]):
            best = (held, n)
    if best is None:
        return None
    at = best[1]
    start = next((n for n in range(at, 0, -1) if lines[n - 1].strip() == "<plugin>"), at)
    end = next((n for n in range(at, len(lines) + 1) if lines[n - 1].strip() == "</plugin>"), at)
    return start, end


# Maven's compiler level where no `<release>` is written: the source and target
_COMPILER_TAGS = frozenset({"maven.compiler.source", "maven.compiler.target"})


def _release_rank(tag: str, value: str) -> int | None:
    """How well a pom.xml element answers a question about the Java release level, best 0:
    a `<release>` (`<maven.compiler.release>`), then a property holding the Java version as
    a literal (`<java.version>17</java.version>`, `<main.java.version>1.8</...>`, which the
    compiler's settings read: QA on OpenFeign/feign pointed pom.xml at its artifactId), then
    Maven's compiler source and target; None for another element."""
    tag = tag.casefold()
    if tag.rpartition(".")[2] == "release":
        return 0
    versioned = tag in ("java.version", "jdk.version") or tag.endswith(
        (".java.version", ".jdk.version")
    )
    if versioned and not value.strip().startswith("$"):
        return 1
    return 2 if tag in _COMPILER_TAGS else None


def dependency_entry(path: str, lines: Sequence[str], query: str) -> tuple[int, int] | None:
    """The line of a JSON manifest's dependency lists naming a package the dependencies
    question `query` writes whole (`what version of typescript does react-hook-form use`:
    `"typescript": "^6.0.3",`, not `react` of the project's own name), of its peer
    dependencies first. QA on react-hook-form/react-hook-form pointed package.json at its
    `"name": "react-hook-form"` for that question, and at `"require": "./dist/index.cjs.js"`
    for `which version of react is required`; None for another file or question."""
    if not path.endswith(".json") or not query or manifest_list(query) != DEPENDENCIES:
        return None
    named = {word.strip(".-/").casefold() for word in re.findall(r"[\w@./-]+", query)}
    best: tuple[int, int] | None = None  # (the list's rank, the line)
    listed = ""
    for n, line in enumerate(lines, 1):
        if (block := _JSON_BLOCK.match(line)) is not None:
            listed = block.group(2).casefold()
            continue
        entry = _DEPENDENCY_ENTRY.match(line)
        if entry is None or listed not in _DEPENDENCY_LISTS:
            continue
        if entry.group(1).casefold() in named:
            rank = _DEPENDENCY_LISTS.index(listed)
            best = (rank, n) if best is None or rank < best[0] else best
    return (best[1], best[1]) if best is not None else None


# a property holding a dependency's version (`<jackson.version>2.22.2</jackson.version>`) and
# a dependency's artifact (`<artifactId>jackson-databind</artifactId>`)
_VERSION_PROPERTY = re.compile(r"^\s*<([\w.-]+)\.version>[^<]*</\1\.version>")
_ARTIFACT = re.compile(r"^\s*<artifactId>\s*([\w.-]+)\s*</artifactId>")
# the blocks whose artifactId names something the build uses, not the project itself
_USED_BLOCK = re.compile(r"^\s*<(/?)(dependency|plugin|extension|parent)>")
_NAME_JOINS = re.compile(r"[._-]")


def pom_dependency_entry(path: str, lines: Sequence[str], query: str) -> tuple[int, int] | None:
    """The line of a pom.xml holding the version of a dependency the dependencies question
    `query` names whole (_entry_rank): the property `<jackson.version>` for `which version of
    jackson does feign use`, else the `<artifactId>` of one named so (`jackson-databind`). QA on
    OpenFeign/feign pointed the root pom.xml at `<artifactId>feign-hystrix</artifactId>`;
    None for another file or question. Names are compared with `.`, `_` and `-` left out, as
    Maven properties spell a dashed artifact with dots (`commons.io.version` for commons-io),
    and only the artifacts of the blocks a build uses count (its dependencies, plugins,
    extensions and parent): QA on apache/commons-csv
    pointed `which version of commons-io does commons-csv use` at the project's own
    `<artifactId>commons-csv</artifactId>`."""
    if path.rpartition("/")[2].casefold() != "pom.xml" or not query:
        return None
    if manifest_list(query) != DEPENDENCIES:
        return None
    named = {_folded(word.strip(".-/")) for word in re.findall(r"[\w@./-]+", query)}
    found: dict[int, int] = {}  # rank -> the first line of that rank
    used = False  # inside a <dependency>, <plugin> or <extension> block
    for n, line in enumerate(lines, 1):
        if (block := _USED_BLOCK.match(line)) is not None:
            used = not block.group(1)
        rank = _entry_rank(line, named, used)
        if rank == 0:
            return n, n
        if rank is not None:
            found.setdefault(rank, n)
    return (found[min(found)], found[min(found)]) if found else None


def _folded(name: str) -> str:
    """`name` as pom names are compared: casefolded, its `.`, `_` and `-` left out."""
    return _NAME_JOINS.sub("", name.casefold())


def _entry_rank(line: str, named: set[str], used: bool) -> int | None:
    """How well a pom.xml line answers for the version of a dependency `named` holds (folded
    names), best 0: its version property (`<jackson.version>`), one of its major version
    (`<okhttp3.version>` for okhttp), its artifact named whole in a block the build `used`,
    one whose first word is named (`junit-jupiter` for junit); None for another line."""
    if (held := _VERSION_PROPERTY.match(line)) is not None:
        name = _folded(held.group(1))
        if name in named:
            return 0
        return 1 if name.rstrip("0123456789") in named else None
    artifact = _ARTIFACT.match(line)
    if artifact is None or not used:
        return None
    if _folded(artifact.group(1)) in named:
        return 2
    return 3 if _folded(artifact.group(1).split("-")[0]) in named else None
