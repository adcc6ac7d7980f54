"""What the agents need and is slow to build (the turn pipeline around the model process,
the knowledge store in its process), built in a thread from the moment the worker is
assembled; the models themselves load in their own process meanwhile
(streams/runtime/model_host.py). Meanwhile the worker joins its consumer group and recovers its
tables; an agent awaits the parts before its first record. A restarted worker so spends
max(load, join + recovery) before its first output instead of their sum.

A part that fails to build stops the worker (exit code 1, with the traceback in the log):
a broken model is not a property of any one record, so no record is dead-lettered for it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Generic, NoReturn, TypeVar

import faust

from contraflow.streams.runtime.delivery import stop_process

log = logging.getLogger("contraflow.loading")

T = TypeVar("T")
U = TypeVar("U")
EXIT_LOAD_FAILED = 1


class Loading(Generic[T]):
    """`build()` running in its own thread from construction on."""

    def __init__(self, build: Callable[[], T], what: str) -> None:
        self.what = what
        self.started = time.monotonic()
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="loading")
        self._future: Future[T] = executor.submit(build)
        executor.shutdown(wait=False)  # the one task goes on; the thread ends with it

    @property
    def pending(self) -> bool:
        return not self._future.done()

    def result(self) -> T:
        """The built value, blocking until it is there (for a build that needs another's)."""
        return self._future.result()

    async def get(self) -> T:
        """The built value; stops the worker when building it failed."""
        try:
            return await asyncio.wrap_future(self._future)
        except Exception:
            exit_load_failed(self.what)

    def part(self, pick: Callable[[T], U]) -> Callable[[], Awaitable[U]]:
        """An awaitable getter of one part of the built value."""

        async def get_part() -> U:
            return pick(await self.get())

        return get_part

    def watch(self, app: faust.App) -> None:
        """Await the build as soon as the app runs, so that a failure stops the worker even
        before any record arrives, and log how long the build took past the app's start."""

        @app.task
        async def await_loading() -> None:
            if self.pending:
                log.info("waiting for %s", self.what)
            await self.get()
            log.info("%s ready, %.1f s after the worker began loading them", self.what, time.monotonic() - self.started)


def exit_load_failed(what: str) -> NoReturn:
    stop_process(EXIT_LOAD_FAILED, log, f"stopping the worker: loading {what} failed", exc_info=True)
