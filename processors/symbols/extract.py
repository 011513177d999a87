"""Symbols and references of one file, from a tree-sitter parse and the language's query, in
three steps: matching (matching.py: the query's matches read into declarations, imports and
reference sites, the capture names documented there), nesting (nesting.py: fq names, kinds,
records) and references (references.py: qualifiers, owners). Where languages differ, each
step asks the language's rules (languages/), so no step names a language.

Performance (the stage must cost at most 2x a bare parse): one walk over the tree for all
patterns but the root-anchored ones, which run in a pass limited to the root
(grammars.QueryPlan); node texts are str slices (ASCII files) not decodes; records are
validated once per file from plain dicts and tuples (processor.py); digests hash memoryview
slices.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tree_sitter import Node, Tree

from processors.symbols.declaration import MAX_NAME_CHARS, Found
from processors.symbols.grammars import Grammar, parser_of, plan_of
from processors.symbols.languages import LanguageRules, rules_for
from processors.symbols.languages.js_ts import JS_EXTENSIONS, strip_js_extension
from processors.symbols.matching import Matcher
from processors.symbols.nesting import (
    disambiguate,
    kept,
    nest,
    records,
    with_decorations,
    without_declared_only,
)
from processors.symbols.reference_sites import Sites, reference_sites
from processors.symbols.references import MAX_REFERENCES, references_of
from processors.symbols.signatures import _separated_signatures, _slicer
from schemas.symbols import Reference

# what other layers import from here (query_api, streams), kept where they look for it
__all__ = [
    "JS_EXTENSIONS",
    "MAX_NAME_CHARS",
    "MAX_REFERENCES",
    "Extracted",
    "extract",
    "module_prefix",
    "strip_js_extension",
]


@dataclass(slots=True)
class Extracted:
    """The fields of schemas.symbols.SymbolDef as plain dicts, and the references as the
    record's tuples: the records validate them in one call per file."""

    symbols: list[dict[str, Any]]
    imports: list[str]
    references: list[Reference]
    references_dropped: int = 0  # distinct references past MAX_REFERENCES, left out


def module_prefix(path: str, language: str) -> str:
    """The module a file's declarations live in by its path (Python's `pkg/mod.py` ->
    `pkg.mod`), "" in languages where a file's path names no module."""
    return rules_for(language).module_prefix(path)


def extract(body: str, language: str, path: str, grammar: Grammar) -> Extracted:
    src = body.encode("utf-8")
    rules = rules_for(language)
    tree = _parse(grammar, rules, src)
    text = _slicer(body, src)
    found = Matcher(text, src, grammar.package_sep, rules, path).run(tree, plan_of(grammar))
    ref_nodes = found.ref_nodes
    selects = rules.member_selection
    if selects is not None:
        ref_nodes = [n for n in ref_nodes if not selects(n, src, found.aliases)]
    if rules.without_own_members is not None:
        ref_nodes = rules.without_own_members(ref_nodes, src)
    if rules.package_reads is not None:
        ref_nodes = ref_nodes + rules.package_reads(tree, src, found.aliases)
    aliases = found.aliases
    if found.scoped:  # the names whose qualifier an import may resolve, somewhere in the file
        aliases = {**{a.local: a.qualified for a in found.scoped if not a.shadows}, **aliases}
    imported = rules.imported_member
    if found.value_nodes and imported is not None and aliases:
        values = [n for n in found.value_nodes if imported(n, src, aliases)]
        if found.scoped and values:
            values = [n for n in values if _imported_here(n, src, imported, found)]
        ref_nodes = ref_nodes + values
    sites = reference_sites(
        ref_nodes,
        found.import_calls,
        aliases,
        body,
        src,
        text,
        rules.js_modules or rules.dotted_modules,
        rules.qualified_paths,
        rules.path_from_file,
    )
    if rules.local_shadows is not None and (found.aliases or found.scoped):
        # before the scopes' own imports: where a span has both, the import wins
        found.scoped[:0] = rules.local_shadows(tree, found, src, _heads(sites))
    prefix = found.package or rules.module_prefix(path)
    symbols = nest(kept(found.defs, grammar.key).values(), prefix)
    if found.has_decl_only:
        symbols = without_declared_only(symbols, text, src)
    if len(symbols) > 1:
        disambiguate(text, src, symbols)
    out = records(symbols, grammar, text, src, found.decorated)
    references, dropped = references_of(
        sites,
        with_decorations(symbols, grammar, found.decorated),
        found.aliases,
        found.namespaces,
        found.bound,
        rules.references_through_imports,
        rules.qualified_paths,
        found.scoped,
    )
    return Extracted(out, rules.imports_of(found), references, dropped)


def _heads(sites: Sites) -> set[str]:
    """The names the file's references start with, each bare name and each qualifier's
    first: the only imported names whose shadowing can change a reference."""
    heads = set(sites.names)
    heads.update(q.partition(".")[0] for q in set(sites.qualifiers) if q)
    return heads


def _imported_here(
    node: Node,
    src: bytes,
    imported: Callable[[Node, bytes, dict[str, str]], bool],
    found: Found,
) -> bool:
    """Whether a value `node` is read through an import in force where it stands: the file's,
    or one a function around it binds (Found.scoped), not another function's."""
    if found.aliases and imported(node, src, found.aliases):
        return True
    at = node.start_byte
    here = {a.local: a.qualified for a in found.scoped if a.start <= at < a.end and not a.shadows}
    return bool(here) and imported(node, src, here)


def _parse(grammar: Grammar, rules: LanguageRules, src: bytes) -> Tree:
    """The tree of `src` as repaired for its language (offsets and lines unchanged), parsed
    a second time with the language's repair for errors when the first parse has one."""
    parser = parser_of(grammar)
    source = rules.repair_source(_separated_signatures(src, grammar.key))
    tree = parser.parse(source)
    if rules.repair_on_error is not None and tree.root_node.has_error:
        repaired = rules.repair_on_error(source)
        if repaired != source:
            tree = parser.parse(repaired)
    return tree
