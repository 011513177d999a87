"""cases.jsonl: the mined cases, committed so every run asks the same questions."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from tests.bench.localisation.mine import Case

CASES_FILE = Path(__file__).resolve().parent / "cases.jsonl"


def verbatim_path(cases_path: Path) -> Path:
    """The same cases asked verbatim (mine.verbatim_query), as a judge that copies commit
    messages asks them: the file `mine --out cases_path` writes next to it and `run
    --verbatim` reads (cases-verbatim.jsonl by default)."""
    return cases_path.with_name(cases_path.stem + "-verbatim.jsonl")


def write_cases(cases: Iterable[Case], path: Path = CASES_FILE, *, verbatim: bool = False) -> int:
    rows = [
        json.dumps(
            {
                "repo": c.repo,
                "commit": c.commit,
                "query": c.verbatim if verbatim else c.query,
                "gold": list(c.gold),
            }
        )
        for c in cases
    ]
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(row + "\n" for row in rows), encoding="utf-8")
    tmp.replace(path)
    return len(rows)


def read_cases(path: Path = CASES_FILE) -> list[Case]:
    cases = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            cases.append(Case(row["repo"], row["commit"], row["query"], tuple(row["gold"])))
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}:{number}: not a case ({exc})") from exc
    return cases
