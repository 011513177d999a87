"""Stores the sinks materialise into: the SQLite views (and, later, the vector store).

Import the read API from here; the views_* modules are the store's internals.
"""

from streams.stores.views import DEFAULT_GROUP, Record, ViewStore
from streams.stores.views_handlers import default_registry
from streams.stores.views_read import ContentRow, FileRow, RepoRow
from streams.stores.views_registry import Item, TopicHandler, Tree, ViewRegistry
from streams.stores.views_search import KeywordHit

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
