"""A worker's heavy parts in processes of their own: a `ChildProcess` builds one object in a
spawned Python process and runs the worker's calls on it there.

Why: loading models and importing big libraries is Python work, and in the worker's own
process it takes turns with faust on one interpreter lock, so a restarted worker spent the
sum of both before its first output while the machine's second core idled; at run time the
same work stalled the event loop. The worker runs its models (streams/runtime/model_host.py) and its
knowledge store (streams/runtime/store_process.py) this way.

A child is started with `spawn` (a fresh interpreter: the worker has threads by then) and
ends with the worker, however the worker ends: it watches its parent and exits once the
parent is gone, SIGKILL included. A child that dies leaves the worker unable to do its job,
so the worker stops (exit code 1, as when a model fails to load) rather than dead-letter
every record after it; its supervisor restarts both. Like every user of `spawn`, a script
that starts one must guard its main code with `if __name__ == "__main__":`.
"""

from __future__ import annotations

import importlib
import logging
import multiprocessing
import operator
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, NoReturn

from contraflow.streams.runtime.delivery import stop_process

log = logging.getLogger("contraflow.children")

EXIT_CHILD_LOST = 1

# -- in the child ----------------------------------------------------------------------

_built: object = None


def _follow_parent(parent_pid: int, log_level: int) -> None:
    """The child's start: its log goes where the worker's goes, and it exits once the worker
    is gone (the parent's death re-parents the child, which changes its parent pid)."""
    logging.basicConfig(level=log_level, format="[%(asctime)s] [%(process)d] [%(levelname)s] %(message)s")

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="follow-parent", daemon=True).start()


def _build(build: str, args: tuple[Any, ...]) -> int:
    global _built
    module, name = build.rsplit(".", 1)
    _built = getattr(importlib.import_module(module), name)(*args)
    return os.getpid()


def _call(method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    if _built is None:
        raise RuntimeError(f"{method} was called before the child process built its object")
    return operator.attrgetter(method)(_built)(*args, **kwargs)


# -- in the worker ---------------------------------------------------------------------


class ChildProcess:
    """`build(*args)` running in a spawned process from construction on; `call` runs a method
    of what it built (a dotted path such as "scorer.score") there. `build` names a function
    ("contraflow.streams.runtime.services.load_components"): the worker never imports what the child imports."""

    def __init__(self, what: str, build: str, *args: Any, log_level: int = logging.WARNING) -> None:
        self.what = what
        self._pool = ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_follow_parent,
            initargs=(os.getpid(), log_level),
        )
        self._built = self._submit(_build, build, args)

    def wait_built(self) -> int:
        """Block until the object is built; the child's pid. Raises what building raised."""
        return self._built.result()

    def call(self, method: str, *args: Any, **kwargs: Any) -> Future[Any]:
        return self._submit(_call, method, args, kwargs)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)

    def _submit(self, function: Callable[..., Any], *args: Any) -> Future[Any]:
        try:
            future = self._pool.submit(function, *args)
        except BrokenProcessPool as exc:
            self._lost(exc)
        future.add_done_callback(self._stop_if_lost)
        return future

    def _stop_if_lost(self, future: Future[Any]) -> None:
        if not future.cancelled() and isinstance(future.exception(), BrokenProcessPool):
            self._lost(future.exception())

    def _lost(self, reason: BaseException | None) -> NoReturn:
        stop_process(EXIT_CHILD_LOST, log, f"stopping the worker: {self.what} died ({reason})")
