"""Helpers for tests that run a real worker process against the session's Tansu broker."""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from pathlib import Path

import orjson

from contraflow.streams.runtime.kafka import OutputReader, ensure_topics, produce_lines
from contraflow.streams.settings import Settings
from contraflow.streams.tools.demo import local_overrides
from contraflow.streams.tools.worker_process import WorkerProcess
from contraflow.topics.catalog import ALL_TOPICS, OUTPUT_TOPICS, TURNS


def worker_overrides(broker_url: str, model: Path, data_dir: Path, app_id: str, **extra: object) -> dict[str, object]:
    """The demo's local-broker profile, with the given model (torch backend) and stride 1."""
    base = Settings(nli_model=str(model), data_dir=data_dir, stride=1)
    return {**local_overrides(broker_url, base, app_id), "nli_backend": "transformers", **extra}


def start_worker(overrides: dict[str, object], log: Path, ready_timeout_s: float = 600.0) -> WorkerProcess:
    """A worker process, returned once /readyz says it is ready: it has joined its group,
    recovered its tables and loaded its models (the tests' torch backend imports torch and
    transformers, which took over 250 s on a loaded 2-core machine)."""
    settings = Settings(**overrides)
    asyncio.run(ensure_topics(settings, ALL_TOPICS))
    worker = WorkerProcess(overrides, log, loglevel="info").start()
    try:
        return worker.wait_ready(ready_timeout_s)
    except RuntimeError as exc:
        worker.stop()
        raise AssertionError(str(exc)) from exc


def turn_line(session: str, index: int, text: str, role: str = "assistant", event_id: str | None = None) -> bytes:
    return orjson.dumps(
        {
            "event_id": event_id or f"{session}-{index}",
            "session_id": session,
            "turn_index": index,
            "role": role,
            "text": text,
            "ts": "2026-11-22T09:00:00Z",
            "model": "model-under-test",
        }
    )


def send(settings: Settings, lines: list[bytes]) -> None:
    send_to(settings, TURNS.name, lines)


def send_to(settings: Settings, topic: str, lines: list[bytes], key_field: str = "session_id") -> None:
    asyncio.run(produce_lines(settings, topic, lines, key_field))


def collect(settings: Settings, worker: WorkerProcess, done, timeout_s: float = 120.0) -> dict[str, list[dict]]:
    """All output events so far, read from the beginning until `done(events)` or timeout."""

    async def read() -> dict[str, list[dict]]:
        events: dict[str, list[dict]] = defaultdict(list)
        deadline = time.monotonic() + timeout_s
        async with OutputReader(settings, [spec.name for spec in OUTPUT_TOPICS]) as reader:
            while not done(events):
                if time.monotonic() > deadline:
                    raise AssertionError(
                        f"timed out; got { {k: len(v) for k, v in events.items()} }\n{worker.log_tail()}"
                    )
                if not worker.alive:
                    raise AssertionError(f"worker died:\n{worker.log_tail()}")
                for topic, _key, value in await reader.poll(1.0):
                    events[topic].append(orjson.loads(value))
        return events

    return asyncio.run(read())
