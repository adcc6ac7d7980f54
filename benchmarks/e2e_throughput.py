"""End to end through the broker: turns/s one worker sustains, then p50/p99 latency from
produce to score event at half that rate, and the worker's peak RSS; with --idle, the CPU
the worker and its children use while no turn arrives.

    python benchmarks/e2e_throughput.py [--sessions 40] [--turns 10] [--model builtin]
                                        [--idle 60] [--setting fetch_max_wait_ms=1500 ...]

Starts its own Tansu broker and worker (local profile, stride 1 so every pair is scored);
--setting overrides one of the worker's settings (repeatable), to compare values.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

import orjson
import psutil
from advice_pairs import advice

from contraflow.streams.runtime.kafka import OutputReader, ensure_topics, start_producer
from contraflow.streams.settings import Settings
from contraflow.streams.tools.broker import TansuBroker
from contraflow.streams.tools.demo import local_overrides
from contraflow.streams.tools.worker_process import WorkerProcess
from contraflow.topics.catalog import ALL_TOPICS, SCORES, TURNS


def turns(prefix: str, sessions: int, per_session: int, seed: int) -> list[bytes]:
    rng = random.Random(seed)
    out = []
    for turn in range(per_session):
        for s in range(sessions):
            sid = f"{prefix}-{s}"
            out.append(
                orjson.dumps(
                    {
                        "event_id": f"{sid}-{turn}",
                        "session_id": sid,
                        "turn_index": turn,
                        "role": "assistant",
                        "text": advice(rng),
                        "ts": "2026-11-22T09:00:00Z",
                    }
                )
            )
    return out


async def run_phase(
    settings: Settings, reader: OutputReader, lines: list[bytes], rate: float | None
) -> dict[str, float]:
    """Send `lines` (at `rate` per second, or as fast as possible); wait for every score."""
    producer = await start_producer(settings)
    sent_at: dict[str, float] = {}
    latencies: list[float] = []
    started = time.perf_counter()

    async def produce() -> None:
        for i, line in enumerate(lines):
            if rate:
                await asyncio.sleep(max(0.0, started + i / rate - time.perf_counter()))
            event = orjson.loads(line)
            sent_at[event["event_id"]] = time.perf_counter()
            await producer.send(TURNS.name, line, key=event["session_id"].encode())
        await producer.flush()

    sender = asyncio.create_task(produce())
    pending = {orjson.loads(line)["event_id"] for line in lines}
    while pending:
        for topic, _key, value in await reader.poll(0.2):
            if topic == SCORES.name:
                event_id = orjson.loads(value)["event_id"]
                if event_id in pending:
                    pending.discard(event_id)
                    latencies.append(time.perf_counter() - sent_at[event_id])
    await sender
    await producer.stop()
    elapsed = time.perf_counter() - started
    latencies.sort()
    return {
        "turns_per_s": len(lines) / elapsed,
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))],
    }


def peak_rss_mb(pid: int) -> float:
    """The worker's peak RSS plus its children's (the model and knowledge store processes)."""
    worker = psutil.Process(pid)
    return sum(_own_peak_rss_mb(process.pid) for process in [worker, *worker.children(recursive=True)])


def _own_peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of the worker and its children so far."""
    worker = psutil.Process(pid)
    times = [process.cpu_times() for process in [worker, *worker.children(recursive=True)]]
    return sum(t.user + t.system for t in times)


async def idle_cpu_share(pid: int, seconds: float) -> float:
    """The share of one core the worker and its children use over `seconds` without turns."""
    before, started = cpu_seconds(pid), time.perf_counter()
    await asyncio.sleep(seconds)
    return (cpu_seconds(pid) - before) / (time.perf_counter() - started)


async def measure(settings: Settings, sessions: int, per_session: int, pid: int, idle_s: float) -> dict[str, dict]:
    results: dict[str, dict] = {}
    async with OutputReader(settings, [SCORES.name]) as reader:
        await run_phase(settings, reader, turns("warmup", 2, 2, 0), None)
        if idle_s > 0:
            results["idle"] = {"cpu_share": await idle_cpu_share(pid, idle_s)}
        if per_session > 0:
            full = await run_phase(settings, reader, turns("full", sessions, per_session, 1), None)
            results["full"] = full
            results["half"] = await run_phase(
                settings, reader, turns("half", sessions, per_session, 2), full["turns_per_s"] / 2
            )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=40)
    parser.add_argument("--turns", type=int, default=10, help="assistant turns per session")
    parser.add_argument("--model", default="builtin")
    parser.add_argument("--idle", type=float, default=0.0, help="seconds of idle CPU measurement (0: none)")
    parser.add_argument("--setting", action="append", default=[], help="NAME=VALUE, a worker setting")
    args = parser.parse_args()
    chosen = dict(item.split("=", 1) for item in args.setting)

    with tempfile.TemporaryDirectory() as tmp, TansuBroker(log=Path(tmp) / "broker.log") as broker:
        base = Settings(nli_model=args.model, data_dir=Path(tmp), stride=1)
        overrides = {**local_overrides(broker.url, base, app_id="bench"), **chosen}
        settings = Settings(**overrides)
        asyncio.run(ensure_topics(settings, ALL_TOPICS))
        with WorkerProcess(overrides, Path(tmp) / "worker.log") as worker:
            assert worker.proc is not None
            results = asyncio.run(measure(settings, args.sessions, args.turns, worker.proc.pid, args.idle))
            rss = peak_rss_mb(worker.proc.pid)
    n = args.sessions * args.turns
    print(f"{n} assistant turns, {args.sessions} sessions, stride 1, model {args.model} {chosen or ''}")
    if "idle" in results:
        print(f"idle CPU           : {100 * results['idle']['cpu_share']:.1f} % of one core over {args.idle:g} s")
    if "full" in results:
        full, half = results["full"], results["half"]
        print(f"max sustained      : {full['turns_per_s']:.1f} turns/s")
        print(
            f"at half that rate  : {half['turns_per_s']:.1f} turns/s, "
            f"produce->score p50 {half['p50_ms']:.0f} ms, p99 {half['p99_ms']:.0f} ms"
        )
    print(f"worker peak RSS    : {rss:.0f} MB (with its model and store processes)")


if __name__ == "__main__":
    main()
