"""A memory writer to SIGKILL: `python -m tests.integration.memory_writer DATA_DIR START`.

Runs a fixed sequence of remember/update/forget calls through the real MemoryService (the
command topic, the memory processor, the view sink) from op START on, printing `ack N` once
op N's verdict arrived. Every op is idempotent by content (caller ids), so a restarted writer
re-runs the op it may have been killed in. `expected_after(n)` is the model of the first n ops.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel

REPO = "crash"
ENTRIES = 40
PHASES = 4
OPS = ENTRIES * PHASES


def key_of(k: int) -> str:
    return f"repo/{REPO}/mem/t{k % 4}/e{k}"


def op(i: int) -> tuple[str, dict[str, Any]]:
    """(tool, arguments) of op i: remember all, update all, forget a third, remember again."""
    k, phase = i % ENTRIES, i // ENTRIES
    key = key_of(k)
    if phase == 0:
        return "remember", {"topic": f"t{k % 4}", "id": f"e{k}", "title": f"t{i}", "tags": ["p0"]}
    if phase == 1:
        return "update", {"key": key, "fields": {"body": f"b{i}"}, "addTags": ["p1"]}
    if phase == 2 and k % 3 == 0:
        return "forget", {"key": key}
    if phase == 2:
        return "update", {"key": key, "fields": {"author": f"a{i}"}, "removeTags": ["p0"]}
    link = {"next": [key_of((k + 1) % ENTRIES)]}
    args = {"topic": f"t{k % 4}", "id": f"e{k}", "title": f"r{i}", "tags": ["p3"]}
    return "remember", {**args, "addLinks": link}


def expected_after(n: int) -> dict[str, dict[str, Any]]:
    """key -> {fields (without createdAt), tags, links} after the first n ops."""
    state: dict[str, dict[str, Any]] = {}
    for i in range(n):
        tool, args = op(i)
        if tool == "remember":
            key = f"repo/{REPO}/mem/{args['topic']}/{args['id']}"
            entry = state.setdefault(key, {"fields": {}, "tags": [], "links": {}})
            entry["fields"]["title"] = args["title"]
            entry["tags"] = sorted(set(entry["tags"]) | set(args["tags"]))
            for rel, targets in args.get("addLinks", {}).items():
                entry["links"][rel] = sorted(set(entry["links"].get(rel, [])) | set(targets))
        elif tool == "update":
            entry = state[args["key"]]
            entry["fields"].update(args["fields"])
            tags = set(entry["tags"]) - set(args.get("removeTags", []))
            entry["tags"] = sorted(tags | set(args.get("addTags", [])))
        else:
            del state[args["key"]]
    return state


async def run(data_dir: Path, start: int) -> None:
    from query_api.settings import Settings
    from repocontext.app import EmbeddedApp
    from schemas import memory_tools as m

    workspace = data_dir.parent / f"{data_dir.name}-workspace"
    (workspace / REPO).mkdir(parents=True, exist_ok=True)
    settings = Settings(
        data_dir=data_dir, embedder="none", processor_workers=0, workspace_root=workspace
    )
    models: dict[str, type[BaseModel]] = {
        "remember": m.RememberArgs,
        "update": m.UpdateArgs,
        "forget": m.ForgetArgs,
    }
    async with EmbeddedApp(settings, watch=False) as app:
        await app.start(resume=False)
        # memory belongs to a registered repository (registered, never walked)
        await app.service.ensure_repo(str(workspace / REPO), REPO, launch=False)
        memory = app.services.memory
        for i in range(start, OPS):
            tool, args = op(i)
            if tool == "remember":
                args = {"repoId": REPO, **args}
            await getattr(memory, tool)(models[tool].model_validate(args))
            sys.stdout.write(f"ack {i}\n")
            sys.stdout.flush()


if __name__ == "__main__":
    asyncio.run(run(Path(sys.argv[1]), int(sys.argv[2])))
