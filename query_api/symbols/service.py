"""The symbol tools: repocontext_outline, repocontext_related, repocontext_changed (spec §1.4).

Outline and related are bounded point reads of the views (symbols, reverse reference index);
they never touch disk. `changed` walks the indexed root (stat fast path) of a workspace
source, or fetches a git source's ref and diffs the indexed commit against its head
(streams/sources/git_changes.py), and asks the reverse index who depends on what changed.

Who depends on a file: query_api.symbols.dependents; related's pages: related.py.
"""

from __future__ import annotations

import asyncio
import functools
import os
import posixpath
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from processors.structural import is_generated
from processors.symbols.languages.js_ts import strip_js_extension
from processors.tokens import TokenEncoding, token_counter
from query_api.access.guard import WorkspaceGuard
from query_api.access.repo_paths import path_in_repo
from query_api.answers.freshness import brief_freshness
from query_api.errors import ConflictError, NotFoundError, ServiceUnavailable, ToolInputError
from query_api.symbols.dependents import DependentsResolver, language_family
from query_api.symbols.directory_files import MAX_DIRECTORY_SCAN, code_first
from query_api.symbols.export_outline import is_export_statement
from query_api.symbols.go_modules import import_path_note
from query_api.symbols.go_package_doc import package_doc
from query_api.symbols.import_names import ImportNames
from query_api.symbols.js_specifiers import JsSpecifiers, sources_of_built
from query_api.symbols.jvm_packages import folders_named, package_folders, package_note
from query_api.symbols.kotlin_locals import rows_by_enclosing_function
from query_api.symbols.outline import default_expression_line, outline_of
from query_api.symbols.path_suffix import (
    case_note,
    close_note,
    closest_file,
    files_ending_with,
    files_in_another_case,
    indexed_tail,
    suffix_note,
    tail_note,
)
from query_api.symbols.python_module_paths import (
    is_package_init,
    python_module_files,
    python_module_note,
)
from query_api.symbols.related import by_go_test_function, related_of
from query_api.symbols.rust_paths import declaring_files, module_files, outside_note, rust_segments
from query_api.symbols.rust_reexports import modules_only, reexports_note
from schemas import tools as t
from schemas.events import RepoRegistration
from schemas.symbols import (
    MAX_CHANGED_DEPENDENTS,
    MAX_CHANGED_PATHS,
    ChangedArgs,
    ChangedResult,
    OutlineArgs,
    OutlineResult,
    RelatedArgs,
    RelatedResult,
    SymbolAt,
)
from streams.errors import SourceError
from streams.ingest import IngestCoordinator
from streams.sources.changes import Changes, IndexedFile, diff_against_index
from streams.sources.git_changes import GitTarget, diff_git_against_index
from streams.stores.views.named_files import path_named_files, stem_named_files
from streams.stores.views.store import ViewStore
from streams.stores.views.symbols import SymbolViews

DIRECTORY_EXAMPLES = 3  # files a note about a directory names, so the caller can pick one
MAX_CLOSE = 2_000  # files of a folder, or of a name, a misspelt path is compared with
GO_PACKAGE_LOOKUP = 200  # files under a Go package's folder read to find its own
# a file at the repository root, importing a specifier written as a path (_specifier_note):
# the root's package.json and tsconfig resolve it
_ROOT_IMPORTER = "index.ts"
# a place in a file as search's text block (`src/app.ts:18-49`), editors and code hosts write
# it (`:12`, `:12:5`, `#L12`, `#L12-L30`)
_LINE_SUFFIX = re.compile(r"(?::\d+(?:[-:]\d+)?|#L\d+(?:-L?\d+)?)$")
# a declaration after the file, as Rust paths (`src/lib.rs::Parser`), test ids
# (`tests/test_app.py::test_run`) and Javadoc (`Retrofit.java#create`) write it
_SYMBOL_SUFFIX = re.compile(r"(?:::|#)[\w:.<>(),]+$")
# a declaration's name with no qualifier (`getCompletions`): _bare_name_note
_BARE_NAME = re.compile(r"[^\W\d][\w$]*")


class SymbolService:
    def __init__(
        self,
        views: ViewStore,
        ingest: IngestCoordinator,
        guard: WorkspaceGuard,
        freshness: Callable[[str], Awaitable[t.Freshness]],
        token_encoding: TokenEncoding = "o200k_base",
        git_staging: Path | None = None,
    ) -> None:
        self.git_staging = git_staging  # where git sources' bare staging repositories live
        # how far the views this answer read trail the log (RepoContextService.freshness)
        self.freshness = freshness
        self.views = views
        self.count = token_counter(token_encoding)
        self.symbols = SymbolViews(views)
        self.resolver = DependentsResolver(self.symbols, self._text_of)
        self.ingest = ingest
        self.guard = guard

    def _text_of(self, repo_id: str, path: str) -> str | None:
        """A file's stored text (tsconfig.json path aliases for dependents)."""
        content = self.views.get_content(repo_id, path)
        return content.body if content is not None else None

    def _registration(self, repo_id: str) -> RepoRegistration:
        reg = self.ingest.registrations.get(repo_id)
        if reg is not None:
            return reg
        row = self.views.get_repo(repo_id)
        if row is None:
            raise NotFoundError(
                f"unknown repository {repo_id!r}; repocontext_list_repos shows registered ones"
            )
        return row.registration

    # -- outline ---------------------------------------------------------------------------

    async def outline(self, args: OutlineArgs) -> OutlineResult:
        path = path_in_repo(args.path, self._registration(args.repoId))
        result = await asyncio.to_thread(self._outline, args.repoId, path, args.offset)
        fresh = brief_freshness(await self.freshness(args.repoId))  # no vectors used here
        return result.model_copy(update={"freshness": fresh})

    def _outline(self, repo_id: str, path: str, offset: int) -> OutlineResult:
        result = outline_of(self.views, self.symbols, self.count, repo_id, path, offset)
        if result.exists:
            if offset:
                return result
            if all(is_export_statement(s.signature) for s in result.symbols):  # a barrel
                return result.model_copy(update={"note": self._imports_note(repo_id, path)})
            if is_package_init(path) and all(s.kind == "Field" for s in result.symbols):
                return result.model_copy(update={"note": self._init_imports_note(repo_id, path)})
            if path.endswith(".rs") and (note := self._reexports_note(repo_id, path)):
                return result.model_copy(update={"note": note})  # lib.rs of `mod x;` lines
            return result
        return result.model_copy(update={"note": self._directory_note(repo_id, path)})

    def _imports_note(self, repo_id: str, path: str) -> str | None:
        """A file declaring nothing itself (a barrel re-exporting its modules, an entry point
        calling them): the modules it imports, where the code an agent looks for is; an
        empty outline alone said nothing of it. They are named as related's `imports`
        resolves them, a TS/JS or Python module as its file: the stored entries carry the
        extractor's marks (`lib/client#=*` for `export * from './lib/client'`) and a build's
        path. A
        TS/JS file whose code is an expression it exports by default is no barrel: the note
        names the line it starts on."""
        names = ImportNames(self.symbols, repo_id)
        imports = [names.shown(m, path) for m in self.resolver.imports(repo_id, path)]
        js = language_family(path) == "js"
        if js:
            imports = [self._module_file(repo_id, module) for module in imports]
        elif language_family(path) == "python":  # `typer._click.core` as typer/_click/core.py
            indexed = [p for p, _, _ in self.views.text_file_sizes(repo_id)]
            files = [python_module_files(module, indexed) for module in imports]
            imports = [f[0] if f else module for f, module in zip(files, imports, strict=True)]
        named = _listed(imports)
        # axios' resolveConfig.js is `export default (config) => {...}`: its code is its
        # own, and "outline those" sent the agent to eight files none of which held it
        line = default_expression_line(self._text_of(repo_id, path) or "") if js else None
        if line is not None:
            code = f"{path} declares no name: its code is the expression it exports by default"
            return f"{code}, from line {line}" + (f"; it imports {named}" if named else "")
        doc = package_doc(self._text_of(repo_id, path) or "") if path.endswith(".go") else None
        if doc is not None:
            return self._package_doc_note(repo_id, path, *doc)
        if not imports:
            return None
        if language_family(path) in ("js", "python") and not self.symbols.indexed_paths(
            repo_id, imports
        ):  # oak's deps.ts, re-exporting `jsr:` modules: there was nothing to outline
            return f"{path} declares nothing itself; it imports {named}, no file indexed here"
        return f"{path} declares nothing itself; it imports {named}: outline those"

    def _package_doc_note(self, repo_id: str, path: str, package: str, line: int) -> str:
        """A Go file of its package's documentation alone (go_package_doc.py): what it is,
        and the package's other files, beside it, where its declarations are."""
        folder = path.rpartition("/")[0]
        others = sorted(
            p
            for p, _, _ in self.views.text_file_sizes(repo_id)
            if p.rpartition("/")[0] == folder
            and p.endswith(".go")
            and not p.endswith("_test.go")
            and p != path
        )
        said = f"{path} declares nothing: it is package {package}'s documentation comment, "
        said += f"before `package {package}` (line {line})"
        if not others:
            return said
        return f"{said}; outline the package's other files: {_listed(others)}"

    def _reexports_note(self, repo_id: str, path: str) -> str | None:
        """A Rust file declaring only modules: the names it re-exports (rust_reexports.py)."""
        if not modules_only(self.symbols.symbols_of_file(repo_id, path)):
            return None
        indexed = [p for p, _, _ in self.views.text_file_sizes(repo_id)]
        return reexports_note(path, self._text_of(repo_id, path) or "", indexed)

    def _init_imports_note(self, repo_id: str, path: str) -> str | None:
        """A Python package's __init__.py declaring constants only (`__version__`, `__all__`)
        while it re-exports the package's names: the package's files it imports, where
        those names are declared (typer's re-exports Typer, Option, echo and 24 more, and its
        outline listed `__version__` alone); the standard library's modules are left out."""
        indexed = [p for p, _, _ in self.views.text_file_sizes(repo_id)]
        found = (python_module_files(m, indexed) for m in self.resolver.imports(repo_id, path))
        files = sorted({f[0] for f in found if f and f[0] != path})
        if not files:
            return None
        return f"{path} declares no function or class; it imports {_listed(files)}: outline those"

    def _module_file(self, repo_id: str, module: str) -> str:
        """A TS/JS module's one indexed file (`src/client` -> `src/client.ts`), which outline
        takes as its path; the module as named when it is no file or several."""
        files = self.symbols.module_files(repo_id, module)
        return files[0] if len(files) == 1 else module

    def _directory_note(self, repo_id: str, path: str) -> str | None:
        """Why a path is no indexed file, where the views can tell: it is a directory with
        indexed files under it, a TS/JS module named as an import names it (related's
        `imports`, an ESM `./options.js` of `options.ts`), or a file with a line after it
        (`path:18-49`, as search's text block names a hit) or a declaration (`lib.rs::Parser`).
        'not indexed' read as a file the index left out."""
        prefix = path.rstrip("/") + "/" if path else ""
        under = self.views.files_under(repo_id, prefix, limit=MAX_DIRECTORY_SCAN)
        if not under:
            return (
                self._line_note(repo_id, path)
                or self._module_note(repo_id, path)
                or self._specifier_note(repo_id, path)
                or self._go_import_note(repo_id, path)
                or self._rust_path_note(repo_id, path)
                or self._python_module_note(repo_id, path)
                or self._declaration_note(repo_id, path)
                or self._package_note(repo_id, path)
                # before the disk: a case-insensitive one (macOS) finds `ZAPCORE/LEVEL.GO`
                or self._case_note(repo_id, path)
                or self._on_disk_note(repo_id, path)
                or self._suffix_note(repo_id, path)
                or self._tail_note(repo_id, path)
                or self._bare_name_note(repo_id, path)
                or self._close_note(repo_id, path)
            )
        where = f"{path.rstrip('/')} is a directory" if path else "the path is the repository root"
        examples = ", ".join(code_first([f.path for f in under], DIRECTORY_EXAMPLES))
        return f"{where} (indexed files under it include {examples}): name a file"

    def _line_note(self, repo_id: str, path: str) -> str | None:
        bare = _LINE_SUFFIX.sub("", path)
        if bare != path and bare and self.views.get_file(repo_id, bare) is not None:
            return f"{path} names lines of the indexed file {bare}: name the file alone"
        bare = _SYMBOL_SUFFIX.sub("", path)
        if bare != path and bare and self.views.get_file(repo_id, bare) is not None:
            return f"{path} names a declaration of the indexed file {bare}: name the file alone"
        return None

    def _declaration_note(self, repo_id: str, path: str) -> str | None:
        """A declaration's name written as the path (`gorm.DB`, or a Python name as outline
        shows it, `flask.testing.FlaskClient`): the files declaring it, which are what
        outline and related take; `exists: false` alone read as a name nothing declares."""
        name = _javadoc_member(path.split("(", 1)[0])
        if "/" in name or "." not in name.strip("."):
            return None
        return self._declared_in(repo_id, path, name)

    def _python_module_note(self, repo_id: str, path: str) -> str | None:
        """A Python module as related's `imports` lists it (`typer._click.core`), or its path
        without `.py`: the module's file (query_api/symbols/python_module_paths.py)."""
        indexed = (p for p, _, _ in self.views.text_file_sizes(repo_id))
        return python_module_note(path, python_module_files(path, indexed), DIRECTORY_EXAMPLES)

    def _package_note(self, repo_id: str, path: str) -> str | None:
        """A Java/Kotlin package's name (`retrofit2.http`): its folders
        (query_api/symbols/jvm_packages.py); one read of the text files' paths."""
        indexed = (p for p, _, _ in self.views.text_file_sizes(repo_id))
        return package_note(path, indexed, DIRECTORY_EXAMPLES)

    def _bare_name_note(self, repo_id: str, path: str) -> str | None:
        """A declaration's name alone written as the path (`getCompletions`,
        `CompletionOptions`, as an agent copies it from the code or a snippet): the files
        declaring it, as for a qualified one. Asked after the file on disk, since a name
        without a dot may be a file's too (`Makefile`)."""
        name = path.split("(", 1)[0]
        if not _BARE_NAME.fullmatch(name):
            return None
        declaring = self._declaring_files(repo_id, name)
        # axios' lib/helpers/resolveConfig.js exports an anonymous arrow function by default:
        # only the builds declared `resolveConfig`, and the note named them alone
        named = [
            f
            for f in self.views.read(lambda c: stem_named_files(c, repo_id, name))
            if f not in declaring and not is_generated(f, "")
        ]
        if not named:
            return self._declared_note(path, declaring)
        verb = "is" if len(named) == 1 else "are"
        note = f"{path} is no file; {_listed(named)} {verb} named so"
        if declaring:
            declaring = sorted(declaring, key=lambda f: is_generated(f, ""))
            note += f", and {_listed(declaring)} declare{'s' if len(declaring) == 1 else ''} it"
        return note + (": name that file" if len(named) == 1 and not declaring else ": name one")

    def _rust_path_note(self, repo_id: str, path: str) -> str | None:
        """A Rust path (`crate::filter::TimeFilter`, `crate::filter::time`): the file of the
        declaration or module it names, or that it names nothing of the repository
        (query_api/symbols/rust_paths.py)."""
        segments = rust_segments(path)
        if segments is None:
            return None
        # a module's file first: `crate::filter::time` is time.rs, not filter/mod.rs, which
        # declares `mod time;`
        indexed = [p for p, _, _ in self.views.text_file_sizes(repo_id)]
        files = module_files(segments, indexed)
        if files:
            named = ", ".join(files[:DIRECTORY_EXAMPLES])
            return f"{path} is no file; as a Rust module it is {named}: name that file"
        found = declaring_files(segments, lambda name: self._declaring_files(repo_id, name))
        if found is not None:
            return self._declared_note(path, found[1])
        return outside_note(path, segments, indexed, repo_id)

    def _declaring_files(self, repo_id: str, name: str) -> list[str]:
        """The files declaring `name`, whole or as the tail of a qualified name."""
        simple = name.rpartition(".")[2]
        names = ImportNames(self.symbols, repo_id)
        return list(
            dict.fromkeys(
                s.path
                for s in self.symbols.symbols_named(repo_id, [simple])
                if _names_declaration(
                    name, s.fq_name.split("(", 1)[0], names.shown(s.fq_name, s.path)
                )
            )
        )

    def _declared_in(self, repo_id: str, path: str, name: str) -> str | None:
        """The note naming the files that declare `name` (see _declaration_note), if any."""
        return self._declared_note(path, self._declaring_files(repo_id, name))

    def _declared_note(self, path: str, files: list[str]) -> str | None:
        if not files:
            return None
        # a committed build (axios' dist/axios.js, dist/node/axios.cjs) declares each name of
        # the source again, and came first by path: the file to edit goes first
        files = sorted(files, key=lambda f: is_generated(f, ""))
        if len(files) == 1:
            return f"{path} is no file; it is declared in {next(iter(files))}: name that file"
        named = _listed(list(files))
        # a Go name (`main.main`) is declared in each folder of that package clause
        return f"{path} is no file; it is declared in {len(files)} files, {named}: name one"

    def _on_disk_note(self, repo_id: str, path: str) -> str | None:
        """A file of the workspace that the index left out (a binary, an ignored file, one
        too large, or one written since the last read): `exists: false` alone read as a
        typo. A path that leaves the root through a symbolic link is not looked at."""
        registration = self._registration(repo_id)
        if registration.source != "workspace" or not registration.root or not path:
            return None
        root = os.path.realpath(registration.root)
        full = os.path.realpath(os.path.join(root, path))
        if not full.startswith(root + os.sep) or not os.path.isfile(full):
            return None
        return (
            f"{path} is on disk but not indexed: a binary, a file ignored (.gitignore or the "
            "walk's filters) or too large, or one not read yet (repocontext_refresh re-reads "
            "it)"
        )

    def _suffix_note(self, repo_id: str, path: str) -> str | None:
        """A path without its leading folders (`jinja2/utils.py`, `utils.py`): the indexed
        files it ends (query_api/symbols/path_suffix.py). One read of the text files' paths,
        made only for a path that named nothing else."""
        if not path or path.startswith("/"):
            return None
        indexed = (p for p, _, _ in self.views.text_file_sizes(repo_id))
        return suffix_note(path, files_ending_with(path, indexed), DIRECTORY_EXAMPLES)

    def _tail_note(self, repo_id: str, path: str) -> str | None:
        """A path with leading folders too many (`src/zapcore/level.go`): the indexed file
        its longest end is (query_api/symbols/path_suffix.py), one point read per folder."""
        found = indexed_tail(path, lambda tail: self.views.get_file(repo_id, tail) is not None)
        return tail_note(path, found)

    def _close_note(self, repo_id: str, path: str) -> str | None:
        """A misspelt path (`proxy_header.py` for proxy_headers.py): the indexed file it is
        closest to (query_api/symbols/path_suffix.py), from two bounded reads, the files of
        its folder and the files of its name."""
        folder, _, name = path.rpartition("/")
        if not name or path.startswith("/"):
            return None
        prefix = folder + "/" if folder else ""
        in_folder = [f.path for f in self.views.files_under(repo_id, prefix, limit=MAX_CLOSE)]
        same_name = self.views.read(lambda c: path_named_files(c, repo_id, name))[:MAX_CLOSE]
        return close_note(path, closest_file(path, in_folder, same_name))

    def _case_note(self, repo_id: str, path: str) -> str | None:
        """A path in another case (`ZAPCORE/LEVEL.GO`): the indexed files it is, casefolded
        (query_api/symbols/path_suffix.py); one read of the text files' paths."""
        indexed = (p for p, _, _ in self.views.text_file_sizes(repo_id))
        return case_note(path, files_in_another_case(path, indexed))

    def _module_note(self, repo_id: str, path: str) -> str | None:
        module = strip_js_extension(path)
        files = [f for f in self.symbols.module_files(repo_id, module) if f != path]
        if not path:
            return None
        if not files and (module != path or "." not in posixpath.basename(path)):
            return self._built_note(repo_id, path, module)  # a TS/JS file or module
        if not files:
            return None
        named = ", ".join(files[:DIRECTORY_EXAMPLES])
        return f"{path} is no indexed file; as a TS/JS module it is {named}: name that file"

    def _built_note(self, repo_id: str, path: str, module: str) -> str | None:
        """A TS/JS file in a build folder that is not indexed (`dist/readonly/index.js`, as
        kysely's tests import it): the source file it is built from, as related's `imports`
        names it (js_specifiers.sources_of_built); a built declaration file (`index.d.ts`)
        alike."""
        module = module.removesuffix(".d")
        for source in sources_of_built(module):
            files = self.symbols.module_files(repo_id, source)
            if files:
                named = ", ".join(files[:DIRECTORY_EXAMPLES])
                return (
                    f"{path} is a build output, not indexed; it is built from {named}: "
                    "name that file"
                )
        return None

    def _specifier_note(self, repo_id: str, path: str) -> str | None:
        """A TS/JS import specifier written as the path, as an agent copies it from the code
        (`nitro/app`, `#nitro/runtime/app`, `@/components/Button`): the file it names when
        imported from the repository root (its package.json `exports`/`imports`, its
        tsconfig's path aliases); 'not indexed' read as a file the index left out."""
        if not path or path.startswith((".", "/")):
            return None
        js = JsSpecifiers(self.symbols, repo_id, lambda p: self._text_of(repo_id, p))
        module = js.repository_module(_ROOT_IMPORTER, path)
        files = self.symbols.module_files(repo_id, module) if module != path else []
        if not files:
            return None
        named = ", ".join(files[:DIRECTORY_EXAMPLES])
        return f"{path} is an import specifier, no file; it names {named}: name that file"

    def _go_import_note(self, repo_id: str, path: str) -> str | None:
        """A Go import path written as the path, as related's `imports` lists it: the folder
        of the repository's module that holds the package (query_api/symbols/go_modules)."""
        return import_path_note(
            path,
            (p for p, _, _ in self.views.text_file_sizes(repo_id)),
            lambda p: self._text_of(repo_id, p),
            lambda prefix: [
                f.path for f in self.views.files_under(repo_id, prefix, limit=GO_PACKAGE_LOOKUP)
            ],
            DIRECTORY_EXAMPLES,
        )

    # -- related ---------------------------------------------------------------------------

    async def related(self, args: RelatedArgs) -> RelatedResult:
        path = path_in_repo(args.path, self._registration(args.repoId))
        result = await asyncio.to_thread(self._related, args.repoId, path, args.offset)
        fresh = brief_freshness(await self.freshness(args.repoId))
        return result.model_copy(update={"freshness": fresh})

    def _related(self, repo_id: str, path: str, offset: int = 0) -> RelatedResult:
        if self.views.get_file(repo_id, path) is None:
            note = self._directory_note(repo_id, path)
            return RelatedResult(repoId=repo_id, path=path, exists=False, note=note)
        return related_of(self.resolver, self.symbols, repo_id, path, offset)

    # -- changed ---------------------------------------------------------------------------

    async def changed(self, args: ChangedArgs) -> ChangedResult:
        reg = self._registration(args.repoId)
        if reg.source == "git":
            return await self._changed_git(reg, path_in_repo(args.path, reg))
        if not reg.root:
            raise ConflictError(f"repository {args.repoId!r} has no indexed root")
        scope = path_in_repo(args.path, reg)
        # re-resolved through the workspace guard (spec §4.5): symlinks, the root itself
        target = self.guard.resolve(os.path.join(reg.root, scope))
        root = Path(os.path.realpath(reg.root))
        if target != root and not str(target).startswith(str(root).rstrip(os.sep) + os.sep):
            raise ToolInputError(
                f"path {args.path!r} is outside the indexed root of {args.repoId!r}: {root}"
            )
        scope = "" if target == root else target.relative_to(root).as_posix()
        if not target.is_dir():
            self._check_removed_folder(args.path, reg.repo_id, scope, target)
        result = await asyncio.to_thread(self._changed, reg, root, scope)
        if self.ingest.pending_files(reg.repo_id) is not None and not (
            result.added or result.updated or result.removed
        ):
            # "nothing changed since it was indexed" read as "nothing was edited": a watched
            # repository's edits are indexed as they are saved (a QA pass edited three files)
            watched = (
                f"{reg.repo_id} is watched: files saved on disk are indexed within seconds, so "
                "this lists only changes not indexed yet, not the edits made since it started"
            )
            result = result.model_copy(update={"note": watched})
        return result

    def _check_removed_folder(self, path: str, repo_id: str, scope: str, target: Path) -> None:
        """Refuse a scope that is no folder on disk, unless it is one the index holds files
        under: a folder deleted since, whose files are what was removed. A file, or a path
        naming nothing, is said to be one (both read "is not a directory")."""
        if target.exists():
            parent = posixpath.dirname(scope) or "."
            raise ToolInputError(
                f"path {path!r} is a file; changed takes a directory, the repository root or "
                f"a folder in it ({parent!r} holds this file)"
            )
        if not self.views.files_under(repo_id, f"{scope}/", limit=1):
            indexed = [p for p, _, _ in self.views.text_file_sizes(repo_id)]
            folders = [folder for folder, _ in package_folders(path, indexed)]
            if folders:  # `retrofit2.http`, as a file's package line writes it
                raise ToolInputError(
                    f"path {path!r} is a Java/Kotlin package, no folder; its files are in "
                    f"{folders_named(folders, DIRECTORY_EXAMPLES)}: name one of them"
                )
            # `typer._click`, as related's imports and the code name it
            inits = [f for f in python_module_files(path, indexed) if is_package_init(f)]
            if inits:
                named = folders_named([posixpath.dirname(f) for f in inits], DIRECTORY_EXAMPLES)
                verb = "that folder" if len(inits) == 1 else "one of them"
                raise ToolInputError(
                    f"path {path!r} is a Python package, no folder; its files are in {named}: "
                    f"name {verb}"
                )
            raise ToolInputError(
                f"path {path!r} does not exist, and no indexed file is under it: name the "
                "repository root or a folder in it"
            )

    def _indexed_files(self, repo_id: str, scope: str) -> dict[str, IndexedFile]:
        prefix = f"{scope}/" if scope else ""
        indexed: dict[str, IndexedFile] = {}
        after: str | None = None
        while rows := self.views.files_under(repo_id, prefix, after, 1000):
            for r in rows:
                indexed[r.path] = IndexedFile(r.digest, r.size, r.mtime_ns, r.ingested_at)
            after = rows[-1].path
        return indexed

    def _changed(self, reg: RepoRegistration, root: Path, scope: str) -> ChangedResult:
        changes = diff_against_index(
            root, reg.filters, self._indexed_files(reg.repo_id, scope), scope
        )
        return self._with_dependents(reg.repo_id, changes)

    async def _changed_git(self, reg: RepoRegistration, scope: str) -> ChangedResult:
        """A git source: the indexed commit against the ref's head, fetched now (no disk walk;
        `scope` is a normalised repo-relative directory, '' for the whole tree)."""
        repo = self.views.get_repo(reg.repo_id)
        if repo is None or repo.indexed_commit is None:
            raise ConflictError(f"repository {reg.repo_id!r} has no indexed commit yet")
        if self.git_staging is None or not reg.url:
            raise ConflictError(f"repository {reg.repo_id!r}: no git staging area here")
        target = GitTarget(
            reg.repo_id, reg.url, reg.ref or "HEAD", self.git_staging / f"{reg.repo_id}.git"
        )
        indexed = await asyncio.to_thread(self._indexed_files, reg.repo_id, scope)
        digests = {p: f.digest for p, f in indexed.items()}
        try:
            head, changes = await diff_git_against_index(
                target, repo.indexed_commit, digests, scope
            )
        except SourceError as exc:
            raise ServiceUnavailable(f"{exc}; the index keeps serving, retry later") from exc
        result = await asyncio.to_thread(self._with_dependents, reg.repo_id, changes)
        return result.model_copy(update={"indexedCommit": repo.indexed_commit, "headCommit": head})

    def _with_dependents(self, repo_id: str, changes: Changes) -> ChangedResult:
        touched = set(changes.added) | set(changes.updated) | set(changes.removed)
        declared = [
            s
            for p in changes.updated + changes.removed
            for s in self.symbols.symbols_of_file(repo_id, p)
        ]
        found = by_go_test_function(self.resolver.dependents(repo_id, declared, exclude=touched))
        # a Kotlin local `val` by its function, as related names it (kotlin_locals)
        found = rows_by_enclosing_function(
            found, functools.partial(self.symbols.symbols_of_files, repo_id)
        )
        dependents = _shown(ImportNames(self.symbols, repo_id), found)
        return bounded_changes(repo_id, changes, dependents)


def _listed(files: list[str]) -> str:
    """The first files a note names, and how many more there are."""
    more = len(files) - DIRECTORY_EXAMPLES
    return ", ".join(files[:DIRECTORY_EXAMPLES]) + (f" and {more} more" if more > 0 else "")


def _javadoc_member(name: str) -> str:
    """`Retrofit.create` of a member written as Javadoc links it (`Retrofit#create`)."""
    head, hash_, member = name.partition("#")
    return f"{head}.{member}" if hash_ and head and member else name


def _names_declaration(name: str, stored: str, shown: str) -> bool:
    """Whether `name` is the declaration stored as `stored` (shown as `shown`): either name
    whole, or its tail on a dot (`InvoiceCalculator.compute_total`)."""
    return any(fq == name or fq.endswith("." + name) for fq in (stored, shown))


def bounded_changes(repo_id: str, changes: Changes, dependents: list[SymbolAt]) -> ChangedResult:
    """The answer with each list cut to its bound (MAX_CHANGED_PATHS, MAX_CHANGED_DEPENDENTS),
    the totals of a cut list, and a note saying how to see the rest."""
    lists: dict[str, tuple[list[str] | list[SymbolAt], int]] = {
        "added": (changes.added, MAX_CHANGED_PATHS),
        "updated": (changes.updated, MAX_CHANGED_PATHS),
        "removed": (changes.removed, MAX_CHANGED_PATHS),
        "dependents": (dependents, MAX_CHANGED_DEPENDENTS),
    }
    fields: dict[str, Any] = {"repoId": repo_id}
    cut: list[str] = []
    for name, (items, bound) in lists.items():
        fields[name] = items[:bound]
        if len(items) > bound:
            fields[f"{name.removesuffix('s')}Count"] = len(items)
            cut.append(f"{name} {bound:,} of {len(items):,}")
    if cut:
        fields["note"] = (
            f"listed {', '.join(cut)}; pass a directory inside the repository as `path` "
            "to see the rest of it"
        )
    return ChangedResult.model_validate(fields)


def _shown(names: ImportNames, found: list[SymbolAt]) -> list[SymbolAt]:
    """Dependents and tests named as their files' code imports them (import_names.py)."""
    return [SymbolAt(symbol=names.shown(d.symbol, d.path), path=d.path) for d in found]
