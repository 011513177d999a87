"""Frames between the owner and its search readers: a 4-byte big-endian length, then a pickle.

Pickles, because both ends are this build's own processes on one machine (the reader is
started by the owner, over its own pipes) and the answers are pydantic models that pickle
as they are; JSON would validate every hit again on the owner's side.
"""

from __future__ import annotations

import asyncio
import struct
from typing import BinaryIO

from query_api.errors import ServiceUnavailable

HEADER = struct.Struct(">I")
MAX_FRAME = 256 << 20  # far above any answer (k <= 100 hits); a larger length is a broken pipe


class BrokenFrame(ServiceUnavailable):
    """The other end wrote something that is not a frame (or died in the middle of one)."""


def frame(payload: bytes) -> bytes:
    return HEADER.pack(len(payload)) + payload


def write_frame(out: BinaryIO, payload: bytes) -> None:
    out.write(frame(payload))
    out.flush()


def read_frame(stream: BinaryIO) -> bytes | None:
    """The next frame's payload, None at the end of the stream (between frames)."""
    head = stream.read(HEADER.size)
    if not head:
        return None
    if len(head) < HEADER.size:
        raise BrokenFrame("the stream ended inside a frame's length")
    (size,) = HEADER.unpack(head)
    if size > MAX_FRAME:
        raise BrokenFrame(f"a frame of {size} bytes")
    payload = stream.read(size)
    if len(payload) < size:
        raise BrokenFrame("the stream ended inside a frame")
    return payload


async def read_frame_async(stream: asyncio.StreamReader) -> bytes:
    """The next frame's payload; BrokenFrame when the stream ends before or inside one."""
    try:
        (size,) = HEADER.unpack(await stream.readexactly(HEADER.size))
        if size > MAX_FRAME:
            raise BrokenFrame(f"a frame of {size} bytes")
        return await stream.readexactly(size)
    except asyncio.IncompleteReadError as exc:
        raise BrokenFrame("the stream ended") from exc
