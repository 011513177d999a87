"""The memory processor and claim fences as pure functions: every admission verdict of spec
§1.6, lease rules, determinism (replaying the same commands yields the same records)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from processors.claims import admit
from processors.memory import MAX_ENTRY_LINKS, MAX_ENTRY_TAGS, MemoryProcessor
from schemas import topics
from schemas.memory import CommandResult, MemoryCommand, MemoryEntry

T0 = 1_700_000_000.0


def cmd(op: str, n: int, **kw: Any) -> MemoryCommand:
    base = {
        "op": op,
        "command_id": f"c{n}",
        "issued_at": T0 + n,
        "repo_id": "r",
        "topic": "backlog",
        "id": "item",
    }
    return MemoryCommand.model_validate({**base, **kw})


class Driver:
    """Feeds commands through the processor the way the keyed runtime does."""

    def __init__(self) -> None:
        self.proc = MemoryProcessor()
        self.state: dict[str, BaseModel | None] = {}
        self.position = 0
        self.outputs: list[tuple[str, str | None, str | None]] = []

    def run(self, command: MemoryCommand) -> CommandResult:
        self.position += 1
        result: CommandResult | None = None
        for emit in self.proc.process_keyed(self.state, "r/backlog/item", command, self.position):
            value = None if emit.value is None else emit.value.model_dump_json()
            self.outputs.append((emit.topic, emit.key, value))
            if emit.topic == topics.MEMORY.name and emit.key is not None:
                self.state[emit.key] = emit.value
            if isinstance(emit.value, CommandResult):
                result = emit.value
        assert result is not None
        return result

    @property
    def entry(self) -> MemoryEntry:
        value = self.state["r/backlog/item"]
        assert isinstance(value, MemoryEntry)
        return value


def entry(**kw: Any) -> MemoryEntry:
    return MemoryEntry(repo_id="r", topic="t", id="i", created_at=T0, updated_at=T0, **kw)


def test_every_admission_verdict() -> None:
    never = entry()
    assert admit(never, None, "local") is None and admit(never, 99, "local") is None
    live = entry(fence=10, owner="a", region="local", lock_token=10, lock_owner="a")
    assert admit(live, None, "local") == "ClaimRequired"
    assert admit(live, 9, "local") == "StaleToken"
    assert admit(live, 11, "local") == "UnissuedToken"
    assert admit(live, 10, "eu") == "ForeignRegion"
    assert admit(live, 10, "local") is None
    released = live.model_copy(update={"released_fence": 10, "lock_owner": None})
    assert admit(released, None, "local") is None
    assert admit(released, 9, "local") == "StaleToken"  # even after release
    assert admit(released, 10, "local") == "ClaimReleased"
    assert admit(released, 12, "local") == "ClaimReleased"
    # lease expiry is never read by the write path: a lapsed holder still writes
    lapsed = live.model_copy(update={"lock_expires_at": T0 - 100})
    assert admit(lapsed, 10, "local") is None


def test_verdicts_through_the_processor() -> None:
    d = Driver()
    assert d.run(cmd("remember", 1, fields={"body": "x"})).ok
    granted = d.run(cmd("claim", 2, owner="a", lease_seconds=60))
    token = granted.data["fencingToken"]
    assert granted.data["granted"] and token == 2 and d.entry.fence == 2
    refused = d.run(cmd("update", 3, fields={"body": "y"}))
    assert not refused.ok and refused.verdict == "ClaimRequired" and refused.error == "conflict"
    # a writer never granted a token (or whose lease lapsed) is told how to get one
    assert refused.message is not None and "claim it first" in refused.message
    assert d.run(cmd("update", 4, fields={"body": "y"}, fencing_token=token)).ok
    assert d.run(cmd("forget", 5, lapse=True, fencing_token=token + 7)).verdict == "UnissuedToken"
    foreign = d.run(cmd("update", 6, fencing_token=token, region="eu"))
    assert foreign.verdict == "ForeignRegion"
    released = d.run(cmd("release", 7, fencing_token=token))
    assert released.data == {"released": True, "fencingToken": token, "reason": None}
    assert d.run(cmd("update", 8, fields={"title": "free"})).ok  # released + no token
    assert d.run(cmd("update", 9, fencing_token=token)).verdict == "ClaimReleased"
    again = d.run(cmd("claim", 10, owner="b"))
    assert again.data["fencingToken"] > token
    assert d.run(cmd("update", 11, fencing_token=token)).verdict == "StaleToken"
    assert d.entry.fields["body"] == "y"


def test_claim_missing_contended_fifo_and_release_reasons() -> None:
    d = Driver()
    assert d.run(cmd("claim", 1, owner="a")).data["reason"] == "missing"
    assert d.run(cmd("release", 2, fencing_token=1)).data["reason"] == "missing"
    d.run(cmd("remember", 3))
    assert d.run(cmd("release", 4, fencing_token=1)).data["reason"] == "unclaimed"
    first = d.run(cmd("claim", 5, owner="a", lease_seconds=10)).data
    busy = d.run(cmd("claim", 6, owner="b", ticket="tb", wait_until=T0 + 100)).data
    assert busy == {"granted": False, "reason": "contended", "queueDepth": 1}
    d.run(cmd("claim", 7, owner="c", ticket="tc", wait_until=T0 + 100))
    assert [w.owner for w in d.entry.queue] == ["b", "c"]
    d.run(cmd("release", 8, fencing_token=first["fencingToken"]))
    # the lock is free, but c is behind b in the FIFO queue
    assert (
        d.run(cmd("claim", 9, owner="c", ticket="tc", wait_until=T0 + 100)).data["reason"]
        == "contended"
    )
    won = d.run(cmd("claim", 10, owner="b", ticket="tb", wait_until=T0 + 100)).data
    assert won["granted"] and won["owner"] == "b"
    assert d.run(cmd("release", 11, fencing_token=first["fencingToken"])).data["reason"] == "stale"
    d.run(cmd("cancel_wait", 12, ticket="tc"))
    assert d.entry.queue == []


def test_leases_default_clamp_and_shortening() -> None:
    d = Driver()
    d.run(cmd("remember", 1))
    granted = d.run(cmd("claim", 2, owner="a")).data
    assert granted["leaseSeconds"] == 30.0  # the short default
    token = granted["fencingToken"]
    renewed = d.run(cmd("renew", 3, fencing_token=token)).data
    assert renewed["leaseSeconds"] == 30.0 and renewed["leaseShortened"] is False
    longer = d.run(cmd("renew", 4, fencing_token=token, lease_seconds=99_999)).data
    assert longer["leaseSeconds"] == 1800.0 and longer["leaseShortened"] is False  # clamped
    shorter = d.run(cmd("renew", 5, fencing_token=token)).data
    assert shorter["leaseShortened"] is True
    assert shorter["previousLeaseExpiresAt"] == longer["leaseExpiresAt"]
    # lapsed and reclaimed by someone else: superseded, with no reassuring false
    d.run(cmd("claim", 100, owner="b"))
    gone = d.run(cmd("renew", 101, fencing_token=token)).data
    assert gone == {"granted": False, "reason": "superseded"}


_ops = st.sampled_from(["remember", "update", "forget", "claim", "renew", "release"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(_ops, st.integers(0, 8), st.booleans()), max_size=25))
def test_replay_is_deterministic_and_tokens_only_increase(
    script: list[tuple[str, int, bool]],
) -> None:
    def play() -> Driver:
        d = Driver()
        for n, (op, token, lapse) in enumerate(script, start=1):
            d.run(
                cmd(
                    op,
                    n,
                    owner="o",
                    fencing_token=token or None,
                    lapse=lapse,
                    fields={"body": str(n)},
                    ttl_seconds=5.0 if lapse else None,
                )
            )
        return d

    a, b = play(), play()
    assert a.outputs == b.outputs
    fences = [
        MemoryEntry.model_validate_json(v).fence
        for t, _, v in a.outputs
        if t == topics.MEMORY.name and v is not None
    ]
    granted = [
        CommandResult.model_validate_json(v).data.get("fencingToken")
        for t, _, v in a.outputs
        if t == topics.MEMORY_RESULTS.name
        and v is not None
        and '"granted":true' in v
        and '"op":"claim"' in v
    ]
    tokens = [g for g in granted if isinstance(g, int)]
    assert tokens == sorted(set(tokens)) and len(tokens) == len(granted)
    assert all(f >= 0 for f in fences)


def test_guards() -> None:
    from processors.memory_guards import check_links, has_credential_url, leaked_framing

    leaked = 'Done.\n</body>\n<parameter name="tags">["x"]'
    message = leaked_framing(leaked + "</parameter>")
    assert message is not None and "body" in message and "tags" in message
    assert leaked_framing("Done.\n</invoke>") is None  # one tag is not a run
    assert leaked_framing("<b>bold</b> <i>it</i>") is None  # not framing tags
    assert leaked_framing("see <title><body>") is None  # no closing tag
    assert has_credential_url("x https://u:p@h/ y") and not has_credential_url("https://u@h/")
    assert check_links("addLinks", {"r": ["repo/x/file/a.py", "repo/x"]}) is None
    for bad in ("a.py", "repo//file/a", "repo/x/nope/a", "repo/x/mem/t", "repo/x/file/"):
        assert check_links("addLinks", {"r": [bad]}) is not None, bad


def test_a_redelivered_command_is_skipped_not_applied_twice() -> None:
    """At-least-once on Kafka: a worker that died after producing re-reads the batch; the
    entry records the position that made it, so the replay of that command changes nothing."""
    d = Driver()
    d.run(cmd("remember", 1, fields={"body": "x"}, tags=["a"]))
    assert d.run(cmd("update", 2, tags=["b"])).ok and d.entry.applied_position == 2
    before, outputs = d.entry, len(d.outputs)
    again = d.proc.process_keyed(d.state, "r/backlog/item", cmd("update", 2, tags=["b"]), 2)
    assert again == [] and d.entry == before and len(d.outputs) == outputs
    d.run(cmd("update", 3, fields={"body": "y"}))  # a new position still applies
    assert d.entry.fields["body"] == "y" and d.entry.applied_position == 3


def test_an_entry_links_at_most_max_entry_links_targets() -> None:
    """Writes of 256 targets each reach the entry's bound; the write past it is refused and
    changes nothing, and one that removes links is still taken."""
    d = Driver()
    for n in range(4):
        targets = [f"repo/r/file/src/f{n}_{i}.py" for i in range(256)]
        assert d.run(cmd("remember", n + 1, add_links={f"rel{n}": targets})).ok
    assert sum(len(t) for t in d.entry.links.values()) == MAX_ENTRY_LINKS
    refused = d.run(cmd("update", 10, add_links={"more": ["repo/r/file/src/x.py"]}))
    assert (
        not refused.ok and refused.error == "invalid" and "at most 1024" in (refused.message or "")
    )
    assert "more" not in d.entry.links
    again = {"rel0": ["repo/r/file/src/f0_0.py"]}  # already linked: the count stays
    assert d.run(cmd("update", 11, add_links=again)).ok
    swap = cmd("update", 12, add_links={"more": ["repo/r/file/x.py"]}, remove_links=again)
    assert d.run(swap).ok and d.entry.links["more"] == ["repo/r/file/x.py"]


def test_an_entry_holds_at_most_max_entry_tags() -> None:
    """Tags were unbounded across writes (a QA pass: twelve updates of 256 tags left an
    entry of 3,072, and scan answered every one of them each time). The write past the
    bound is refused and changes nothing; one that removes as many as it adds is taken."""
    d = Driver()
    assert d.run(cmd("remember", 1, add_tags=[f"t{i}" for i in range(MAX_ENTRY_TAGS)])).ok
    refused = d.run(cmd("update", 2, add_tags=["one-more"]))
    assert not refused.ok and refused.error == "invalid"
    assert f"at most {MAX_ENTRY_TAGS}" in (refused.message or "")
    assert "one-more" not in d.entry.tags and len(d.entry.tags) == MAX_ENTRY_TAGS
    assert d.run(cmd("update", 3, add_tags=["t0", "t1"])).ok  # already there: no growth
    swap = cmd("update", 4, add_tags=["one-more"], remove_tags=["t0"])
    assert d.run(swap).ok and "one-more" in d.entry.tags and "t0" not in d.entry.tags
