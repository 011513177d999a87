"""A definition question for a name a module declares at its top level and other files only
as members puts the top-level declaration's file first (query_api/retrieval/
top_level_first.py). QA on statelyai/xstate: `where is createMachine defined` ranked setup.ts
(`SetupReturn.createMachine`, a property, and the method `setup()` returns) above
createMachine.ts, declaring `export function createMachine`."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.top_level_first import top_level
from schemas import tools as t
from streams.stores.views.symbols import SymbolRow
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

SETUP = """\
import { createMachine } from './createMachine';

/** What setup returns: createMachine with the implementations given to setup. */
export interface SetupReturn {
  /** createMachine, typed by setup: see createMachine. */
  createMachine: (config: MachineConfig) => Machine;
}

/** Call createMachine on the result to create a machine with these implementations. */
export function setup(implementations: Implementations): SetupReturn {
  return {
    createMachine: (config) => createMachine({ ...config, implementations })
  };
}
"""

CREATE = """\
/** Creates a state machine from its config. */
export function createMachine(config: MachineConfig): Machine {
  return new Machine(config);
}
"""

FILES = {
    "package.json": '{"name": "pkg"}\n',
    "src/setup.ts": SETUP,
    "src/createMachine.ts": CREATE,
    "src/machine.ts": "export class Machine {\n  constructor(public config: MachineConfig) {}\n}\n",
}


async def test_the_top_level_declaration_comes_before_members(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        plain, member = [
            await app.service.search(t.SearchArgs(repoId="repo", query=query))
            for query in ("where is createMachine defined", "where is setup.createMachine defined")
        ]
    assert [hit.entry.path for hit in plain.hits][:2] == ["src/createMachine.ts", "src/setup.ts"]
    assert member.hits[0].entry.path == "src/setup.ts"


@pytest.mark.parametrize(
    ("path", "fq_name", "name", "top"),
    [
        ("src/createMachine.ts", "createMachine", "createMachine", True),
        ("src/store.ts", "createStore(StoreConfig)", "createStore", True),
        ("src/setup.ts", "SetupReturn.createMachine", "createMachine", False),
        ("src/setup.ts", "setup.createMachine", "createMachine", False),
        ("src/pkg/m.py", "pkg.m.run", "run", True),
        ("src/pkg/__init__.py", "pkg.run", "run", True),
        ("src/pkg/m.py", "pkg.m.Runner.run", "run", False),
        ("log/level.go", "log.Level", "Level", True),
    ],
)  # fmt: skip
def test_a_declaration_is_top_level_when_its_module_qualifies_it(
    path: str, fq_name: str, name: str, top: bool
) -> None:
    row = SymbolRow("r", path, fq_name, name, "Function", 1, 2, "d", "")
    assert top_level(row) is top
