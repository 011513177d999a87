"""Stores the sinks materialise into: the SQLite views (and, later, the vector store).

Import the read API from here; the views_* modules are the store's internals.
"""

from streams.stores.views.handlers import default_registry
from streams.stores.views.read import ContentRow, FileRow, RepoRow
from streams.stores.views.registry import Item, TopicHandler, Tree, ViewRegistry
from streams.stores.views.search import KeywordHit
from streams.stores.views.store import DEFAULT_GROUP, Record, ViewStore

__all__ = [
    "DEFAULT_GROUP",
    "ContentRow",
    "FileRow",
    "Item",
    "KeywordHit",
    "Record",
    "RepoRow",
    "TopicHandler",
    "Tree",
    "ViewRegistry",
    "ViewStore",
    "default_registry",
]
