"""What each distributed process may do on Kafka: the ACLs of its Kafka user.

Derived from the topology (streams/topology.py) and the code that produces: the broker refuses
anything else, so a compromised or misconfigured pod cannot write what it does not own.
deploy/k8s/base/users.yaml holds the same lists as Strimzi KafkaUsers (tests/deploy checks they
agree) and tests/kafka gives them to the SASL test broker.

Who writes what (the rules an ACL change must keep):
- files.v1 and repos.v1: git sources only (they publish the trees; nothing else invents code).
- memory.commands.v1: query replicas, whose MCP tools (remember/update/forget/claim) append
  commands after checking the caller's grants; the memory step is the single writer of
  memory.v1 and memory.results.v1. `repocontext memory import` is an operator's action and
  runs with the query user's login. A read-only replica fleet may use a user without it.
- record topics (structure, content, symbols, xrefs): the processor worker only.
- deadletter.v1: every consumer that can fail to handle an event (worker, vectors, query).

Consumer groups: a worker step's group is its step id (faust app id), later versions of a
step add a suffix, so the worker's groups are prefixes; replicas commit as `views.<id>`, the
vector step as `vectors-<space fingerprint>`, whose offsets replicas may read (Describe, not
Read: they cannot join it or move its offsets) to report the embedding backlog.

Every user may Describe and DescribeConfigs every catalogue topic: each process checks the
catalogue at start (`create_topics` on an existing, matching topic only describes it);
creating and altering topics is the Topic Operator's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from schemas import topics
from schemas.topics import CATALOGUE
from streams.topology import (
    VECTORS_STEP_ID,
    VIEW_SINK_GROUP,
    VIEW_TOPICS,
    vector_step,
    worker_steps,
)

PatternType = Literal["literal", "prefix"]


@dataclass(frozen=True)
class Acl:
    """One allowed (resource, operation) of a principal, in Strimzi's vocabulary."""

    resource_type: Literal["topic", "group"]
    name: str
    pattern: PatternType
    operation: Literal["Read", "Write", "Describe", "DescribeConfigs"]


@dataclass(frozen=True)
class ComponentAccess:
    """A process kind's Kafka user: topics it reads, topics it writes, groups it commits."""

    component: str  # worker | vectors | query | git-source; the KafkaUser is repocontext-<it>
    reads: tuple[str, ...]
    writes: tuple[str, ...]
    group_prefixes: tuple[str, ...] = ()
    watched_group_prefixes: tuple[str, ...] = ()  # groups whose offsets it reads (Describe only)

    def acls(self, prefix: str = "") -> list[Acl]:
        """Its ACLs; `prefix` is the log URL's topic/group prefix (`?prefix=`)."""
        out = [Acl("topic", prefix + t.name, "literal", "Describe") for t in CATALOGUE]
        out += [Acl("topic", prefix + t.name, "literal", "DescribeConfigs") for t in CATALOGUE]
        out += [Acl("topic", prefix + t, "literal", "Read") for t in self.reads]
        out += [Acl("topic", prefix + t, "literal", "Write") for t in self.writes]
        out += [Acl("group", prefix + g, "prefix", "Read") for g in self.group_prefixes]
        out += [
            Acl("group", prefix + g, "prefix", "Describe")
            for g in (*self.group_prefixes, *self.watched_group_prefixes)
        ]
        return out


def _worker() -> ComponentAccess:
    steps = worker_steps()
    reads = {t for s in steps for t in s.inputs} | {topics.MEMORY.name}  # keyed state: memory.v1
    writes = {t for s in steps for t in s.outputs} | {topics.DEADLETTER.name}
    return ComponentAccess(
        "worker", tuple(sorted(reads)), tuple(sorted(writes)), tuple(s.step_id for s in steps)
    )


def component_access() -> tuple[ComponentAccess, ...]:
    """Every component's access, in the order of the manifests."""
    return (
        _worker(),
        ComponentAccess(
            "vectors",
            tuple(sorted(vector_step().inputs)),
            (topics.DEADLETTER.name,),
            (f"{VECTORS_STEP_ID}-",),
        ),
        ComponentAccess(
            "query",
            tuple(sorted(VIEW_TOPICS)),
            (topics.DEADLETTER.name, topics.MEMORY_COMMANDS.name),
            (f"{VIEW_SINK_GROUP}.",),
            ("vectors-",),  # readiness reports the vector worker's backlog (its offsets)
        ),
        ComponentAccess(
            "git-source",
            (topics.REPOS.name,),
            tuple(sorted((topics.FILES.name, topics.REPOS.name, topics.SOURCES.name))),
        ),
    )
