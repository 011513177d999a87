"""Sphinx's configuration, a `conf.py` beside the pages it builds, for a config question naming
Sphinx (`where is the sphinx config`, `how is sphinx configured`).

A Python module in a docs folder is a doc by its folder (path_roles.role_of), and its name says
`conf`, not `sphinx`, so neither a config file's lift nor a tool's own file (docs_first) took it:
QA on PyCQA/flake8, `where is the sphinx config` ranked tox.ini, .readthedocs.yaml and eight
source files first and docs/source/conf.py (`extensions = ["sphinx.ext.autodoc", ...]`)
nowhere in the first ten.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial

from processors.path_roles import Role, role_of
from query_api.retrieval.hit_details import PATH_REASON
from schemas import tools as t
from streams.stores import ViewStore
from streams.stores.views.read import files_with_path_words

TOOL = "sphinx"
# a config question's words naming the documentation, whose build Sphinx's conf.py configures
# (QA on python-jsonschema/jsonschema: `where is the docs config` left docs/conf.py out of the
# first ten, below noxfile.py's docs session and dependabot.yml)
_DOCS = frozenset({"docs", "doc", "documentation"})
MAX_CONF_FILES = 16  # `conf` paths read: a repository has one Sphinx project, a few at most


def is_sphinx_conf(path: str) -> bool:
    """Whether `path` is a `conf.py` among a project's doc pages (docs/conf.py,
    docs/source/conf.py, doc/conf.py)."""
    return path.rpartition("/")[2] == "conf.py" and role_of(path) == Role.DOC


def names_sphinx(words: Iterable[str]) -> bool:
    """Whether a config question's words name Sphinx, or the docs its conf.py builds."""
    written = set(words)
    return TOOL in written or not _DOCS.isdisjoint(written)


def sphinx_conf_files(
    views: ViewStore,
    repo_id: str,
    hydrate: Callable[[str], t.SearchHit | None],
    words: Iterable[str],
) -> list[t.SearchHit]:
    """The Sphinx `conf.py` files when `words` name Sphinx or the docs (names_sphinx), as
    hits `hydrate` makes with the reason `path-name-match`, sorted by path; none otherwise."""
    if not names_sphinx(words):
        return []
    read = partial(files_with_path_words, repo_id=repo_id, name="conf", limit=MAX_CONF_FILES)
    out: list[t.SearchHit] = []
    for path in sorted(p for p in views.read(read) if is_sphinx_conf(p)):
        hit = hydrate(path)
        if hit is not None:  # named by the tool it configures, as a tool's rc file is
            out.append(hit.model_copy(update={"reasons": [PATH_REASON, *hit.reasons]}))
    return out
