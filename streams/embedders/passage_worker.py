"""The passage encoder's child process (streams/embedders/passage_process.py starts it):

    python -m streams.embedders.passage_worker MODEL_FOLDER THREADS NICE PARENT_PID

It lowers its own priority first, loads the model, says `("ready",)` and then answers one
`(texts, width)` request at a time until its stdin closes. `width` None: as many encoder
threads as the cores other processes leave idle (cpu_share.IdleCores), up to THREADS.
"""

from __future__ import annotations

import ctypes
import os
import pickle
import sys
from pathlib import Path
from typing import IO

from streams.embedders.cpu_share import IdleCores


def _reply(out: IO[bytes], message: object) -> None:
    pickle.dump(message, out, protocol=pickle.HIGHEST_PROTOCOL)
    out.flush()


def serve(folder: Path, threads: int, inp: IO[bytes], out: IO[bytes]) -> None:
    try:
        from streams.embedders.minilm import MiniLM

        model = MiniLM(folder, threads=threads)
    except Exception as exc:  # a broken install: the parent reports it, nothing crashes
        _reply(out, ("error", f"could not load the model from {folder}: {exc}"))
        return
    _reply(out, ("ready",))
    idle = IdleCores()
    while True:
        try:
            texts, width = pickle.load(inp)
        except EOFError:
            return
        try:
            workers = idle.workers(threads) if width is None else max(1, min(threads, width))
            _reply(out, ("ok", workers, model.encode(texts, workers=workers)))
        except Exception as exc:
            _reply(out, ("error", f"{type(exc).__name__}: {exc}"))


M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter
LARGE_BLOCK = 1 << 20


def map_large_blocks() -> bool:
    """Serve every allocation of 1 MiB or more (the encoder's activations) from its own
    mapping, handed back to the OS when freed. glibc's default threshold rises to the
    largest block freed so far, after which those blocks come from the threads' heaps and
    stay there between batches: 175 -> 144 MiB between batches, peak 255 -> 222 MiB, at the
    same passages/s (2 threads, 300 Django passages, /tmp probe run side by side)."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, LARGE_BLOCK))


def main(argv: list[str]) -> int:
    folder, threads, nice, parent = Path(argv[0]), int(argv[1]), int(argv[2]), int(argv[3])
    if nice > 0:
        os.nice(nice)  # the whole process, every encoder thread included, before the imports
    map_large_blocks()  # before the model and the encoder threads allocate
    from streams.runtime.pool import die_with_parent

    die_with_parent(parent)
    # The protocol owns stdout; anything an import prints goes to stderr instead.
    out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve(folder, threads, sys.stdin.buffer, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
