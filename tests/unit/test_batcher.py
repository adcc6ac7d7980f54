"""The micro-batcher with a real (tiny) scorer: batching across callers, results per caller."""

import asyncio
import threading
from pathlib import Path

import numpy as np
import pytest

from contraflow.streams.core.nli.batcher import MicroBatcher
from contraflow.streams.core.nli.scorer import load_scorer


def pairs_for(caller: int, n: int) -> list[tuple[str, str]]:
    return [
        (f"Caller {caller} says take drug {i} daily.", f"Drug {i} must be avoided {'x ' * (i % 5)}") for i in range(n)
    ]


async def test_concurrent_callers_are_batched_and_get_their_own_rows(tiny_onnx: Path) -> None:
    scorer = load_scorer(str(tiny_onnx))
    batcher = MicroBatcher(scorer, max_batch=16, max_wait_ms=50)
    try:
        requests = {c: pairs_for(c, 1 + c % 3) for c in range(24)}
        results = await asyncio.gather(*(batcher.score(p) for p in requests.values()))
    finally:
        await batcher.stop()
    for pairs, rows in zip(requests.values(), results, strict=True):
        # int8 activations are quantised per batch, so batch company moves results slightly
        np.testing.assert_allclose(rows, scorer.score(pairs), atol=1e-3)
    total = sum(len(p) for p in requests.values())
    assert batcher.stats.pairs == total
    assert batcher.stats.batches < len(requests)  # callers shared forward passes


async def test_model_runs_off_the_event_loop(tiny_onnx: Path) -> None:
    scorer = load_scorer(str(tiny_onnx))
    threads: list[str] = []
    original = scorer.score

    def recording_score(pairs):
        threads.append(threading.current_thread().name)
        return original(pairs)

    scorer.score = recording_score  # type: ignore[method-assign]
    batcher = MicroBatcher(scorer, max_batch=4, max_wait_ms=1)
    try:
        await batcher.score(pairs_for(0, 2))
    finally:
        await batcher.stop()
    assert threads and all(name.startswith("nli") for name in threads)


async def test_a_failing_batch_fails_its_callers_and_the_batcher_goes_on(tiny_onnx: Path) -> None:
    scorer = load_scorer(str(tiny_onnx))
    original = scorer.score
    fail = {"next": True}

    def flaky(pairs):
        if fail.pop("next", False):
            raise RuntimeError("model exploded")
        return original(pairs)

    scorer.score = flaky  # type: ignore[method-assign]
    batcher = MicroBatcher(scorer, max_batch=4, max_wait_ms=1)
    try:
        with pytest.raises(RuntimeError, match="model exploded"):
            await batcher.score(pairs_for(0, 1))
        assert (await batcher.score(pairs_for(1, 2))).shape == (2, 3)
    finally:
        await batcher.stop()


async def test_waiting_requests_are_scored_in_length_sorted_passes(tiny_onnx: Path) -> None:
    scorer = load_scorer(str(tiny_onnx))
    passes: list[list[tuple[str, str]]] = []
    original = scorer.score

    def recording_score(pairs):
        passes.append(list(pairs))
        return original(pairs)

    scorer.score = recording_score  # type: ignore[method-assign]
    batcher = MicroBatcher(scorer, max_batch=4, max_wait_ms=0, sort_window=64)
    lengths = [37, 3, 80, 12, 55, 7, 21, 64, 9, 30, 71, 16]
    requests = [[(f"Take drug {n}.", "x" * n)] for n in lengths]
    try:
        results = await asyncio.gather(*(batcher.score(p) for p in requests))
    finally:
        await batcher.stop()
    for pairs, rows in zip(requests, results, strict=True):
        np.testing.assert_allclose(rows, original(pairs), atol=1e-3)
    # all twelve were waiting: one window, three passes of similar lengths, shortest first
    widths = [[len(h) for _, h in batch] for batch in passes]
    assert [len(w) for w in widths] == [4, 4, 4]
    assert sorted(lengths) == [n for w in widths for n in w]


async def test_a_lone_caller_does_not_wait_for_company(tiny_onnx: Path) -> None:
    """One caller at a time (an agent scoring one record after another) gets no batch-fill
    wait once the batcher has seen that callers do not overlap; overlapping callers do."""
    scorer = load_scorer(str(tiny_onnx))
    batcher = MicroBatcher(scorer, max_batch=16, max_wait_ms=400)
    try:
        await batcher.score(pairs_for(0, 2))  # the first window waits: overlap is not known yet
        started = asyncio.get_running_loop().time()
        for caller in range(1, 4):
            await batcher.score(pairs_for(caller, 2))
        assert asyncio.get_running_loop().time() - started < 1.0  # three calls; waiting would take 3 x 400 ms
        await asyncio.gather(batcher.score(pairs_for(8, 1)), batcher.score(pairs_for(9, 1)))
        started = asyncio.get_running_loop().time()
        await batcher.score(pairs_for(10, 1))  # callers overlapped last window: it waits again
        assert asyncio.get_running_loop().time() - started >= 0.35
    finally:
        await batcher.stop()
