"""Query replicas sharded by repository (deploy/SCALING.md): shard `k` of `S` holds the
repositories whose partition `p` of the 6-partition record topics has `p mod S = k`.

Every record key starts with its repository id and every partitioned topic places a key by
crc32(repoId) mod its partition count (`schemas.topics.partition_for`), so with `S` dividing
each such count one repository lives in partitions of the same residue on every topic: a
shard reads only those partitions (by assignment, never through a consumer group) and, from
the single-partition topics (registrations, source status), only its repositories' records.
Which shard holds a repository is a pure function of its id, so any replica can say where a
repository it does not hold lives, without asking anyone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from schemas.topics import CATALOGUE, FILES, partition_for, repo_of_key

SHARD_PATTERN = r"^(0|[1-9][0-9]*)/([1-9][0-9]*)$"
# Shard counts every partitioned topic of the catalogue divides into (6 partitions: 1, 2, 3, 6)
PARTITION_COUNTS = sorted({t.partitions for t in CATALOGUE if t.partitions > 1})


def valid_counts() -> list[int]:
    return [
        s for s in range(1, min(PARTITION_COUNTS) + 1) if all(n % s == 0 for n in PARTITION_COUNTS)
    ]


@dataclass(frozen=True)
class ShardAssignment:
    """Shard `index` of `count` (0-based); `ShardAssignment(0, 1)` holds everything."""

    index: int
    count: int

    @classmethod
    def parse(cls, text: str, what: str = "REPOCONTEXT_REPLICA_SHARD") -> ShardAssignment:
        """`"k/S"`, e.g. `"1/3"`: a clear error naming `what` for anything else."""
        found = re.match(SHARD_PATTERN, text.strip())
        if found is None:
            raise ValueError(f"{what}={text!r}: expected K/S, e.g. 0/2 (shard K of S, from 0)")
        index, count = int(found.group(1)), int(found.group(2))
        if count not in valid_counts():
            raise ValueError(
                f"{what}={text!r}: {count} shards do not divide the record topics' "
                f"{PARTITION_COUNTS} partitions; use one of {valid_counts()}"
            )
        if index >= count:
            raise ValueError(f"{what}={text!r}: shard {index} of {count} (shards count from 0)")
        return cls(index, count)

    @property
    def label(self) -> str:
        return f"{self.index}/{self.count}"

    @property
    def whole(self) -> bool:
        return self.count == 1

    def owner_of(self, repo_id: str) -> int:
        """The shard that holds `repo_id` (the same on every partitioned topic)."""
        return partition_for(repo_id + "/", FILES.partitions) % self.count

    def holds_repo(self, repo_id: str) -> bool:
        return self.owner_of(repo_id) == self.index

    def holds_partition(self, partitions: int, partition: int) -> bool:
        """Whether this shard reads `partition` of a topic with `partitions` partitions
        (a single-partition topic is read by every shard, its records filtered by key)."""
        if partitions <= 1 or self.whole:
            return True
        if partitions % self.count:
            raise ValueError(
                f"{self.count} shards do not divide a topic of {partitions} partitions"
            )
        return partition % self.count == self.index

    def holds_key(self, key: str | None) -> bool:
        """Whether a record with this key belongs here (a keyless record: every shard)."""
        return key is None or self.whole or self.holds_repo(repo_of_key(key))
