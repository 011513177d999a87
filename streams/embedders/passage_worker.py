"""The passage encoder's child process (streams/embedders/passage_process.py starts it):

    python -m streams.embedders.passage_worker MODEL_FOLDER THREADS NICE PARENT_PID QUERY_FD
        [GATE_FD]

It starts its query thread, lowers its own (the batch thread's) priority, loads the model,
says `("ready",)` and then answers one `(texts, width)` request at a time until its stdin
closes. `width` None: as many encoder threads as the cores other processes leave idle
(cpu_share.IdleCores), up to THREADS. The query thread answers query embeddings on the
socket QUERY_FD at the priority the child started with: Linux keeps a nice value per thread,
and the batch thread lowers only its own (its encoder threads, started by it, inherit it).
Lowered means SCHED_IDLE where the kernel allows it (any runnable thread of normal priority
preempts it at once; nice alone only weighs the share), else the nice value NICE. GATE_FD is
the server's foreground gate (foreground_gate.py): the batch's encoder threads wait at every
layer while a tool call is in flight.
"""

from __future__ import annotations

import ctypes
import os
import pickle
import socket
import sys
import threading
from pathlib import Path
from typing import IO, Any

from streams.embedders.cpu_share import IdleCores
from streams.embedders.foreground_gate import ForegroundGate


def _reply(out: IO[bytes], message: object) -> None:
    pickle.dump(message, out, protocol=pickle.HIGHEST_PROTOCOL)
    out.flush()


class QueryThread(threading.Thread):
    """Answers query embeddings (one list of texts at a time) on its socket, on one encoder
    thread: its own, started before the batch thread lowered its priority."""

    def __init__(self, sock: socket.socket) -> None:
        super().__init__(name="queries", daemon=True)
        self.sock = sock
        self.model: Any = None
        self.loaded = threading.Event()

    def run(self) -> None:
        self.loaded.wait()
        if self.model is None:
            return
        reader, writer = self.sock.makefile("rb"), self.sock.makefile("wb")
        while True:
            try:
                texts = pickle.load(reader)
            except (EOFError, OSError):
                return
            try:
                _reply(writer, ("ok", self.model.encode(texts, workers=1)))
            except Exception as exc:
                _reply(writer, ("error", f"{type(exc).__name__}: {exc}"))


def serve(
    folder: Path,
    threads: int,
    inp: IO[bytes],
    out: IO[bytes],
    queries: QueryThread | None = None,
    gate: ForegroundGate | None = None,
) -> None:
    model: Any = None
    try:
        from streams.embedders.minilm import MiniLM

        model = MiniLM(folder, threads=threads)
    except Exception as exc:  # a broken install: the parent reports it, nothing crashes
        _reply(out, ("error", f"could not load the model from {folder}: {exc}"))
    if queries is not None:
        queries.model = model  # None: the query thread ends
        queries.loaded.set()
    if model is None:
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
            pause = gate.wait if gate is not None else None
            _reply(out, ("ok", workers, model.encode(texts, workers=workers, pause=pause)))
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


def lower_priority(nice: int) -> bool:
    """This thread at `nice` and, where allowed, SCHED_IDLE (True): a waking thread of normal
    priority preempts an idle-class one at once, where a nice +10 thread keeps its slice."""
    os.nice(nice)
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))  # this thread only
    except (AttributeError, OSError):  # not Linux, or refused: the nice value stays
        return False
    return True


def main(argv: list[str]) -> int:
    folder, threads, nice, parent = Path(argv[0]), int(argv[1]), int(argv[2]), int(argv[3])
    map_large_blocks()  # before the model and the encoder threads allocate
    sys.setswitchinterval(0.001)  # the query thread waits at most ~1 ms for the GIL
    queries = QueryThread(socket.socket(fileno=int(argv[4]))) if len(argv) > 4 else None
    if queries is not None:
        queries.start()  # at the child's starting priority (the server's)
    if nice > 0:  # this thread and every encoder thread it starts, before the imports
        lower_priority(nice)
    gate = ForegroundGate(int(argv[5])) if len(argv) > 5 else None
    from streams.runtime.pool import die_with_parent

    die_with_parent(parent)
    # The protocol owns stdout; anything an import prints goes to stderr instead.
    out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve(folder, threads, sys.stdin.buffer, out, queries, gate)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
