"""A CommonJS `require` whose member is bound to a name (`const f = require("./m").f`,
`const C = require("./c").default`): the name is that member of the module, as `const { f }
= require("./m")` binds it, so what the file calls through it is qualified by the module and
the dependents resolver reaches the file that declares it (fs-extra's lib/copy/copy-sync.js
calls `utimesMillisSync` so)."""

from __future__ import annotations

from processors.symbols.processor import symbols_of
from tests.processors.test_symbols import upsert

SOURCE = """\
const { utimesMillis } = require('../util/utimes')
const utimesMillisSync = require('../util/utimes').utimesMillisSync
const Legacy = require('./legacy').default

function setDestTimestamps (src, dest) {
  utimesMillis(dest)
  new Legacy()
  return utimesMillisSync(dest)
}

function local () {
  const mkdirsSync = require('../mkdirs').mkdirsSync
  return mkdirsSync()
}

function other () {
  return mkdirsSync()
}
"""


def references(body: str) -> dict[tuple[str, str], str | None]:
    records = symbols_of(upsert("lib/copy/copy-sync.js", body))
    assert records is not None
    return {(owner, name): qualified for owner, name, qualified in records[1].references}


def test_a_required_modules_member_bound_to_a_name_qualifies_its_calls() -> None:
    found = references(SOURCE)
    assert found[("setDestTimestamps", "utimesMillis")] == "lib/util/utimes.utimesMillis"
    assert found[("setDestTimestamps", "utimesMillisSync")] == "lib/util/utimes.utimesMillisSync"


def test_a_required_default_member_is_the_modules_default_export() -> None:
    # referenced as an ES default import's is (`import Legacy from "./legacy"`)
    assert references(SOURCE)[("setDestTimestamps", "default")] == "lib/copy/legacy.default"


def test_bound_in_a_function_it_qualifies_that_functions_calls_only() -> None:
    found = references(SOURCE)
    assert found[("local", "mkdirsSync")] == "lib/mkdirs.mkdirsSync"
    assert found[("other", "mkdirsSync")] is None
