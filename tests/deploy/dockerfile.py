"""A small Dockerfile reader for the static image checks (no Docker engine exists here)."""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Instruction:
    keyword: str  # upper case: FROM, RUN, COPY, ...
    args: str  # the rest of the logical line, continuations joined


@dataclass
class Stage:
    base: str
    name: str | None
    instructions: list[Instruction] = field(default_factory=list)

    def all(self, keyword: str) -> list[str]:
        return [i.args for i in self.instructions if i.keyword == keyword]

    def env(self) -> dict[str, str]:
        """ENV key=value pairs of this stage (the `ENV a=b c=d` form)."""
        out: dict[str, str] = {}
        for args in self.all("ENV"):
            for token in shlex.split(args):
                key, sep, value = token.partition("=")
                if sep:
                    out[key] = value
        return out


def instructions(path: Path) -> list[Instruction]:
    """Logical lines: comments and blank lines dropped, `\\` continuations joined."""
    out: list[Instruction] = []
    pending = ""
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if pending and line.startswith("#"):
            continue  # comment lines inside a continued instruction
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        text = pending + line
        pending = ""
        keyword, _, args = text.partition(" ")
        out.append(Instruction(keyword.upper(), args.strip()))
    return out


def stages(path: Path) -> tuple[dict[str, str], list[Stage]]:
    """(global ARG defaults, build stages in order) with ARGs in FROM lines substituted."""
    args: dict[str, str] = {}
    result: list[Stage] = []
    for ins in instructions(path):
        if ins.keyword == "ARG" and not result:
            key, _, value = ins.args.partition("=")
            args[key] = value
            continue
        if ins.keyword == "FROM":
            words = ins.args.split()
            base = words[0]
            for key, value in args.items():
                base = base.replace("${" + key + "}", value).replace("$" + key, value)
            name = words[2] if len(words) >= 3 and words[1].upper() == "AS" else None
            result.append(Stage(base, name))
            continue
        result[-1].instructions.append(ins)
    return args, result


def exec_form(args: str) -> list[str]:
    """The JSON array of an exec-form ENTRYPOINT/CMD/VOLUME."""
    value = json.loads(args)
    assert isinstance(value, list) and all(isinstance(v, str) for v in value), args
    return value
