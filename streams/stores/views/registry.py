"""How the view store grows: tables, per-repository trees and per-topic handlers, as data.

Each record family (structure and content now; symbols, xrefs, memory, sessions later) adds
its DDL, declares the row sets it keeps per repository ("trees") and registers one handler for
its topic, without editing the store or a central if-chain:

    registry.add_schema("CREATE TABLE IF NOT EXISTS symbols (...)")
    registry.add_tree(Tree("symbols", "DELETE FROM symbols WHERE repo_id = ?"))
    registry.add_topic(topics.SYMBOLS.name, apply_symbols)

Trees are what repository removal and `reset_index` sweep: removal deletes every tree (so a
future memory tree goes with its repository), reset deletes only `code_index` trees (memory
declares `code_index=False` and survives, as the reference requires).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from pydantic import BaseModel

from streams.errors import StoreError

Item = tuple[str | None, BaseModel | None]  # (key, value); value None = tombstone
# A handler applies consecutive records of its topic inside the store's open transaction.
TopicHandler = Callable[[sqlite3.Connection, Sequence[Item]], None]


@dataclass(frozen=True, slots=True)
class Tree:
    """One per-repository row set. `delete_repo_sql` takes the repoId as its only parameter."""

    name: str
    delete_repo_sql: str
    code_index: bool = True  # False: kept by reset_index (memory, job progress)


class ViewRegistry:
    """The schema, trees and topic handlers one ViewStore is built from."""

    def __init__(self) -> None:
        self._ddl: list[str] = []
        self._trees: dict[str, Tree] = {}
        self._handlers: dict[str, TopicHandler] = {}

    def add_schema(self, *statements: str) -> None:
        """Idempotent DDL (`CREATE ... IF NOT EXISTS`), run in order when a store opens."""
        self._ddl.extend(statements)

    def add_tree(self, tree: Tree) -> None:
        if tree.name in self._trees:
            raise StoreError(f"tree {tree.name!r} is already registered")
        self._trees[tree.name] = tree

    def add_topic(self, topic: str, handler: TopicHandler) -> None:
        if topic in self._handlers:
            raise StoreError(f"topic {topic!r} already has a view handler")
        self._handlers[topic] = handler

    @property
    def ddl(self) -> tuple[str, ...]:
        return tuple(self._ddl)

    def trees(self, *, code_index_only: bool = False) -> Iterator[Tree]:
        """Trees in registration order (the stable order reset counts are reported in)."""
        return (t for t in self._trees.values() if t.code_index or not code_index_only)

    def handler_for(self, topic: str) -> TopicHandler | None:
        return self._handlers.get(topic)

    def delete_repo_rows(
        self, conn: sqlite3.Connection, repo_id: str, *, code_index_only: bool
    ) -> dict[str, int]:
        """Delete a repository's rows tree by tree; returns rows deleted per tree, in order."""
        return {
            tree.name: conn.execute(tree.delete_repo_sql, (repo_id,)).rowcount
            for tree in self.trees(code_index_only=code_index_only)
        }
