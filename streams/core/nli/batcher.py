"""The micro-batcher one worker shares between all its agents.

Callers `await batcher.score(pairs)`; the batcher gathers pairs from every caller until
it holds `max_batch` of them or the first has waited `max_wait_ms`. It waits only while
callers overlap (its last window held more than one request): a lone caller, such as
one agent scoring one record at a time, would wait for nobody. When more work is
already waiting, it takes that too, up to `sort_window` pairs, sorts the whole window by
length and hands it to the scorer in calls of at most `max_batch` similar-length pairs
(the ONNX scorer then runs each pair alone: see OnnxScorer). Every call runs in a worker
thread (never on the event loop), and a caller's future resolves as soon as the last of
its rows is scored, so short pairs do not wait for long ones.
While the model runs, the next requests queue up.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from contraflow.streams.core.nli.scorer import Pair, PairScorer, pair_length
from contraflow.streams.settings import default


@dataclass
class _Request:
    pairs: Sequence[Pair]
    future: asyncio.Future[np.ndarray]
    rows: np.ndarray | None = None
    missing: int = 0


@dataclass
class BatchStats:
    """What the batcher has done, for benchmarks and metrics."""

    batches: int = 0
    pairs: int = 0
    busy_seconds: float = 0.0
    sizes: deque[int] = field(default_factory=lambda: deque(maxlen=4096))


class MicroBatcher:
    """Batches NLI pairs across concurrent callers; starts on first use, stop() after."""

    def __init__(
        self,
        scorer: PairScorer,
        max_batch: int = default("nli_max_batch"),
        max_wait_ms: float = default("nli_max_wait_ms"),
        sort_window: int = default("nli_sort_window"),
        observe: Callable[[int, float], None] | None = None,
    ) -> None:
        """`observe(pairs, seconds)` is told of every forward pass (metrics)."""
        if max_batch < 1:
            raise ValueError("max_batch must be >= 1")
        if sort_window < max_batch:
            raise ValueError("sort_window must be >= max_batch")
        self.scorer = scorer
        self.max_batch = max_batch
        self.max_wait = max_wait_ms / 1000.0
        self.sort_window = sort_window
        self.observe = observe
        self.stats = BatchStats()
        self._queue: asyncio.Queue[_Request] | None = None
        self._runner: asyncio.Task[None] | None = None
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nli")
        self._callers_overlap = True

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
        """One window: a full batch (or what came before the deadline) plus what is already waiting."""
        assert self._queue is not None
        requests = [await self._queue.get()]
        size = len(requests[0].pairs)
        deadline = time.monotonic() + (self.max_wait if self._callers_overlap else 0.0)
        while size < self.max_batch:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            try:
                request = await asyncio.wait_for(self._queue.get(), remaining)
            except TimeoutError:
                break
            requests.append(request)
            size += len(request.pairs)
        while size < self.sort_window and not self._queue.empty():
            request = self._queue.get_nowait()
            requests.append(request)
            size += len(request.pairs)
        self._callers_overlap = len(requests) > 1
        return requests

    async def _run(self) -> None:
        while True:
            await self._score_window(await self._gather())

    async def _score_window(self, requests: list[_Request]) -> None:
        loop = asyncio.get_running_loop()
        slots = [(request, row) for request in requests for row in range(len(request.pairs))]
        slots.sort(key=lambda slot: pair_length(slot[0].pairs[slot[1]]))
        for request in requests:
            request.rows = np.zeros((len(request.pairs), 3), dtype=np.float32)
            request.missing = len(request.pairs)
        for start in range(0, len(slots), self.max_batch):
            chunk = slots[start : start + self.max_batch]
            started = time.monotonic()
            try:
                probabilities = await loop.run_in_executor(
                    self._executor, self.scorer.score, [request.pairs[row] for request, row in chunk]
                )
            except Exception as exc:  # hand the failure to every caller still waiting in this window
                for request in requests:
                    if not request.future.done():
                        request.future.set_exception(exc)
                return
            seconds = time.monotonic() - started
            self.stats.batches += 1
            self.stats.pairs += len(chunk)
            self.stats.busy_seconds += seconds
            self.stats.sizes.append(len(chunk))
            if self.observe is not None:
                self.observe(len(chunk), seconds)
            for (request, row), probs in zip(chunk, probabilities, strict=True):
                assert request.rows is not None
                request.rows[row] = probs
                request.missing -= 1
                if request.missing == 0 and not request.future.done():
                    request.future.set_result(request.rows)
