"""A bundle sends a small file from below the licence header it opens with, as its spans of a
large file already start there; a task naming the licence still gets it. QA on
sinclairzx81/typebox, whose every file opens with the 27-line MIT licence: small files went
whole, header and all, and a bundle at 8,192 tokens held five copies of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas.bundle import ContextArgs
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

LICENCE = (
    "/*--------------------------------------------------------------------------\n\n"
    "Widgets\n\nThe MIT License (MIT)\n\nCopyright (c) 2017-2026 A. Author\n\n"
    "Permission is hereby granted, free of charge, to any person obtaining a copy\n"
    "of this software, to deal in the Software without restriction.\n\n"
    "---------------------------------------------------------------------------*/\n\n"
)
HEADER_LINES = LICENCE.count("\n")
REGISTRY = (
    "const formats = new Map<string, (value: string) => boolean>()\n\n"
    "/** Sets a format in the registry */\n"
    "export function SetFormat(format: string, check: (value: string) => boolean): void {\n"
    "  formats.set(format, check)\n"
    "}\n"
)


async def test_a_small_file_is_sent_from_below_its_licence(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, {"src/registry.ts": LICENCE + REGISTRY}) as app:
        task = "add a format to the format registry"
        bundle = await app.services.bundle.context(ContextArgs(repoId="repo", task=task))
        entry = next(e for e in bundle.entries if e.path == "src/registry.ts")
        assert entry.content.startswith("const formats = new Map"), entry.content
        assert "MIT License" not in entry.content
        lines = (HEADER_LINES + 1, HEADER_LINES + REGISTRY.count("\n"))
        assert (entry.startLine, entry.endLine) == lines, entry
        # a task about the licence is answered by it
        task = "update the copyright year in the license header of the registry"
        bundle = await app.services.bundle.context(ContextArgs(repoId="repo", task=task))
        entry = next(e for e in bundle.entries if e.path == "src/registry.ts")
        assert entry.content.startswith("/*----"), entry.content
