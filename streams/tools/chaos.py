"""The chaos run behind `benchmarks/chaos.py` and its integration test.

A bundled broker, one worker under a steady stream of turns from many sessions, and
SIGKILLs of that worker (by pid) at random moments, each followed at once by a restart,
as a supervisor would do. Optionally a broker outage: the broker is frozen for a while
and comes back with its data, or it is stopped and a new, empty one takes its port. Then
the same turns go through a fresh worker on a fresh broker without any kill (the
reference), and the outputs are compared: lost assistant turns, duplicate ids (and
whether a duplicate ever differs from its first copy), sessions whose final state or
output ids differ from the reference, and the time from each kill to the first output of
the restarted worker.

The NLI micro-batcher is set to one pair per forward pass in both runs: with batching,
the int8 model's activation scales depend on which pairs share a batch, so two runs
without any kill could differ in their last digits.

The broker, worker, producer and reader of one run are `chaos_harness.Harness`; what the
two runs are compared on is `chaos_report`.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import orjson

from contraflow.streams.runtime.kafka import ensure_topics
from contraflow.streams.tools.broker import TansuBroker
from contraflow.streams.tools.chaos_harness import Harness
from contraflow.streams.tools.chaos_report import ChaosReport, RunOutputs, compare
from contraflow.topics.catalog import ALL_TOPICS

DRUGS = ("ibuprofen", "paracetamol", "warfarin", "metformin", "aspirin", "sertraline")
ACTIONS = ("Take {} twice daily.", "Stop taking {} now.", "Keep taking {} with food.", "Never take {} again.")


@dataclass(frozen=True)
class ChaosConfig:
    kills: int = 20
    sessions: int = 60
    rate: float = 2.0  # turns per second (user and assistant turns alternate)
    gap_s: tuple[float, float] = (1.0, 6.0)  # from a restarted worker's first output to the next kill
    outage_s: float = 0.0  # > 0: a broker outage of this length after the kills
    outage: Literal["pause", "empty"] = "pause"  # broker frozen, keeping its data / replaced by an empty one
    model: str = "builtin"
    nli_backend: str = "auto"
    seed: int = 0
    workdir: Path = Path(".contraflow/chaos")
    settle_timeout_s: float = 180.0


def turn_stream(sessions: int, seed: int) -> Iterator[bytes]:
    """Endless turns, round robin over the sessions, each session's user turn followed at once
    by its assistant turn: an assistant turn (which has outputs) is never more than one
    record away, so kill -> first output measures the restart, not the stream's shape."""
    rng = random.Random(seed)
    index = 0
    while True:
        for s in range(sessions):
            session = f"chaos-{seed}-{s}"
            for turn_index in (index, index + 1):
                assistant = turn_index % 2 == 1
                text = rng.choice(ACTIONS).format(rng.choice(DRUGS)) if assistant else "What should I do now?"
                yield orjson.dumps(
                    {
                        "event_id": f"{session}-{turn_index}",
                        "session_id": session,
                        "turn_index": turn_index,
                        "role": "assistant" if assistant else "user",
                        "text": text,
                        "ts": "2026-11-22T09:00:00Z",
                        "model": "chaos-model",
                    }
                )
        index += 2


async def _first_output(harness: Harness, after: float, timeout_s: float) -> float | None:
    """When the first output sent after `after` (seconds since the epoch) was sent, once the
    reader has it; None after `timeout_s`."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        first = harness.outputs.first_after(after)
        if first is not None:
            return first
        harness.supervise()
        await asyncio.sleep(0.05)
    return None


async def _outage(harness: Harness, seconds: float, kind: Literal["pause", "empty"], samples: dict[int, int]) -> None:
    """Take the broker away for `seconds`, polling /readyz meanwhile. "pause" freezes it, and
    it comes back with everything it held (a broker that hangs, or a network partition);
    "empty" stops it and starts a new, empty one on the same port (the bundled broker keeps
    its data in memory, so this is what its crash looks like)."""
    port = harness.broker.port
    if kind == "pause":
        harness.broker.pause()
    else:
        harness.broker.stop()
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        status = harness.readyz()
        samples[status] = samples.get(status, 0) + 1
        await asyncio.sleep(1.0)
    if kind == "pause":
        harness.broker.resume()
    else:
        harness.broker = TansuBroker(port=port, log=harness.dir / "broker-2.log").start()


async def chaos_run(config: ChaosConfig, progress: bool = True) -> tuple[list[bytes], RunOutputs, list[float], dict]:
    """The run with kills (and an outage): the lines sent, the outputs, kill→output times."""
    harness = Harness(config, "chaos")
    rng = random.Random(config.seed)
    sent: list[bytes] = []
    kill_times: list[float] = []
    readyz: dict[int, int] = {}
    try:
        await ensure_topics(harness.settings, ALL_TOPICS)
        harness.start_worker()
        stop_reading, stop_producing = asyncio.Event(), asyncio.Event()
        reader = asyncio.create_task(harness.read(stop_reading))
        supervisor = asyncio.create_task(harness.keep_supervising(stop_reading))
        producer = asyncio.create_task(
            harness.produce(turn_stream(config.sessions, config.seed), sent, config.rate, stop_producing)
        )
        started = time.time()
        if await _first_output(harness, started, config.settle_timeout_s) is None:
            raise RuntimeError(f"the worker produced nothing:\n{harness.worker.log_tail()}")
        for n in range(config.kills):
            await asyncio.sleep(rng.uniform(*config.gap_s))
            killed = harness.kill_worker()
            harness.supervise()
            first = await _first_output(harness, killed, config.settle_timeout_s)
            if first is None:
                raise RuntimeError(f"no output after kill {n + 1}:\n{harness.worker.log_tail()}")
            kill_times.append(first - killed)
            if progress:
                print(f"kill {n + 1}/{config.kills}: first output after {first - killed:.1f} s", flush=True)
        if config.outage_s > 0:
            await asyncio.sleep(rng.uniform(*config.gap_s))
            await _outage(harness, config.outage_s, config.outage, readyz)
            await asyncio.sleep(max(config.gap_s))
            if progress:
                print(f"outage of {config.outage_s:g} s over; /readyz answers {readyz}", flush=True)
        await asyncio.sleep(rng.uniform(*config.gap_s))
        stop_producing.set()
        await producer
        await harness.wait_scored(sent, config.settle_timeout_s)
        stop_reading.set()
        await reader
        await supervisor
    finally:
        harness.close()
    return sent, harness.outputs, kill_times, readyz


async def reference_run(config: ChaosConfig, lines: list[bytes]) -> RunOutputs:
    """The same lines through a fresh worker and broker, without kills."""
    harness = Harness(config, "reference")
    try:
        await ensure_topics(harness.settings, ALL_TOPICS)
        harness.start_worker()
        stop_reading, stop_producing = asyncio.Event(), asyncio.Event()
        reader = asyncio.create_task(harness.read(stop_reading))
        await harness.produce(iter(lines), [], rate=1e6, stop=stop_producing)
        await harness.wait_scored(lines, config.settle_timeout_s)
        stop_reading.set()
        await reader
    finally:
        harness.close()
    return harness.outputs


async def run(config: ChaosConfig, progress: bool = True) -> ChaosReport:
    lines, chaos, kills, readyz = await chaos_run(config, progress)
    if progress:
        print(f"chaos run done: {len(lines)} turns sent; reference run without kills…", flush=True)
    reference = await reference_run(config, lines)
    return compare(lines, chaos, reference, kills, readyz)
