"""A file's symbol reasons come in the same order in every process: two declarations whose
qualifiers hold the same query words tie, and their order is the rows'. The qualifier's
weight was a float sum over a set, whose order follows the process's string hashing, so
the two of spring-framework's `WhatWgUrlParser.Ipv6Address` and its constructor swapped
places between two runs of one benchmark."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import random
from dataclasses import dataclass
from streams.stores.views.symbol_spans import matching_names

@dataclass
class Row:
    fq_name: str
    name: str

rows = [
    Row("org.springframework.web.util.WhatWgUrlParser.Ipv6Address.Ipv6Address", "Ipv6Address"),
    Row("org.springframework.web.util.WhatWgUrlParser.Ipv6Address", "Ipv6Address"),
]
words = "org springframework web util what wg url parser ipv6 address range".split()
rnd = random.Random(7)
print(matching_names(rows, {w: rnd.uniform(0.1, 9.0) for w in words}, 5))
"""


def test_tied_qualifiers_keep_the_rows_order_under_every_hash_seed() -> None:
    answers = set()
    for seed in range(8):
        env = {**os.environ, "PYTHONHASHSEED": str(seed), "PYTHONPATH": str(ROOT)}
        out = subprocess.run(
            [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, check=True
        )
        answers.add(out.stdout.strip())
    assert answers == {
        "['org.springframework.web.util.WhatWgUrlParser.Ipv6Address.Ipv6Address',"
        " 'org.springframework.web.util.WhatWgUrlParser.Ipv6Address']"
    }
