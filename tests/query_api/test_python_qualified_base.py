"""A Python class extending a base through its module (`class SyncWorker(base.Worker)`, after
`from gunicorn.workers import base`) extends it, as `class TornadoWorker(Worker)` does. QA on
benoitc/gunicorn: `what extends Worker` placed gtornado.py and a test's MyWorker only, leaving
out sync.py, gthread.py, gasgi.py and base_async.py, whose classes name `base.Worker`."""

from __future__ import annotations

from query_api.retrieval.users_first import implementers

BODIES = {
    "app/workers/sync.py": "from app.workers import base\n\n\nclass SyncWorker(base.Worker):\n",
    "app/workers/gthread.py": "import app.workers.base\n\nclass T(app.workers.base.Worker):\n",
    "app/workers/tornado.py": "from app.workers.base import Worker\n\nclass T(Worker):\n",
    "app/workers/mixed.py": "class M(Mixin, base.Worker, metaclass=Meta):\n",
    # a name holding the word, and a call in a class's argument list, extend nothing
    "app/other.py": "class DirtyWorker(base.WorkerBase):\n    pass\n",
    "app/calls.py": "x = make(base.Worker)\n",
}


def test_a_base_named_through_its_module_is_extended() -> None:
    assert implementers("Worker", BODIES) == {
        "app/workers/sync.py",
        "app/workers/gthread.py",
        "app/workers/tornado.py",
        "app/workers/mixed.py",
    }
