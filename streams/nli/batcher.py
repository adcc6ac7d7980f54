"""The micro-batcher one worker shares between all its agents.

Callers `await batcher.score(pairs)`; the batcher gathers pairs from every caller until
it holds `max_batch` of them or the first has waited `max_wait_ms`, runs one scorer call
in a worker thread (never on the event loop) and resolves each caller's future with its
own rows. While the model runs, the next batch is already being gathered.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from streams.nli.scorer import NLIScorer, Pair


@dataclass
class _Request:
    pairs: Sequence[Pair]
    future: asyncio.Future[np.ndarray]


@dataclass
class BatchStats:
    """What the batcher has done, for benchmarks and metrics."""

    batches: int = 0
    pairs: int = 0
    busy_seconds: float = 0.0
    sizes: deque[int] = field(default_factory=lambda: deque(maxlen=4096))


class MicroBatcher:
    """Batches NLI pairs across concurrent callers; starts on first use, stop() after."""

    def __init__(self, scorer: NLIScorer, max_batch: int = 32, max_wait_ms: float = 10.0) -> None:
        if max_batch < 1:
            raise ValueError("max_batch must be >= 1")
        self.scorer = scorer
        self.max_batch = max_batch
        self.max_wait = max_wait_ms / 1000.0
        self.stats = BatchStats()
        self._queue: asyncio.Queue[_Request] | None = None
        self._runner: asyncio.Task[None] | None = None
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nli")

    async def start(self) -> None:
        if self._runner is None:
            self._queue = asyncio.Queue()
            self._runner = asyncio.create_task(self._run(), name="nli-micro-batcher")

    async def stop(self) -> None:
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._runner
            self._runner = None
        self._executor.shutdown(wait=True)

    async def score(self, pairs: Sequence[Pair]) -> np.ndarray:
        """Probabilities [n, 3] for the caller's pairs, in its order."""
        if not pairs:
            return np.zeros((0, 3), dtype=np.float32)
        await self.start()
        assert self._queue is not None
        future: asyncio.Future[np.ndarray] = asyncio.get_running_loop().create_future()
        await self._queue.put(_Request(list(pairs), future))
        return await future

    async def _gather(self) -> list[_Request]:
        assert self._queue is not None
        requests = [await self._queue.get()]
        size = len(requests[0].pairs)
        deadline = time.monotonic() + self.max_wait
        while size < self.max_batch:
            remaining = deadline - time.monotonic()
            if remaining <= 0 and self._queue.empty():
                break
            try:
                request = (
                    self._queue.get_nowait() if remaining <= 0 else await asyncio.wait_for(self._queue.get(), remaining)
                )
            except (TimeoutError, asyncio.QueueEmpty):
                break
            requests.append(request)
            size += len(request.pairs)
        return requests

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            requests = await self._gather()
            pairs = [pair for request in requests for pair in request.pairs]
            started = time.monotonic()
            try:
                probabilities = await loop.run_in_executor(self._executor, self.scorer.score, pairs)
            except Exception as exc:  # hand the failure to every caller of this batch
                for request in requests:
                    if not request.future.done():
                        request.future.set_exception(exc)
                continue
            self.stats.batches += 1
            self.stats.pairs += len(pairs)
            self.stats.busy_seconds += time.monotonic() - started
            self.stats.sizes.append(len(pairs))
            offset = 0
            for request in requests:
                rows = probabilities[offset : offset + len(request.pairs)]
                offset += len(request.pairs)
                if not request.future.done():
                    request.future.set_result(rows)
