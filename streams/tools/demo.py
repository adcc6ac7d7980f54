"""`contraflow demo`: a broker, a worker and sample conversations, all local.

Starts Tansu on a free loopback port, starts a worker process with the shipped NLI
model, sends the bundled sample (steady clinical advice, two sessions that flip, a
repeated event and two malformed records), prints conflicts, alerts and dead letters
as they arrive, and stops everything it started.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from importlib.resources import files

import orjson

from contraflow.streams.errors import UserError
from contraflow.streams.runtime.kafka import OutputReader, ensure_topics, produce_lines
from contraflow.streams.runtime.signals import sigterm_interrupts
from contraflow.streams.settings import Settings
from contraflow.streams.tools.broker import TansuBroker, free_port
from contraflow.streams.tools.render import render
from contraflow.streams.tools.worker_process import WorkerProcess
from contraflow.topics.catalog import ALL_TOPICS, CONFLICTS, DEADLETTER, OUTPUT_TOPICS, SCORES, TURNS

SAMPLE = "demo_turns.jsonl"


class DemoFailed(UserError, RuntimeError):
    """The demo could not finish; the message holds the worker's last log lines."""


def sample_lines() -> list[bytes]:
    text = files("contraflow.streams.samples").joinpath(SAMPLE).read_bytes()
    return [line for line in text.splitlines() if line.strip()]


def expected_counts(lines: list[bytes]) -> tuple[int, int]:
    """(score events, dead letters) the sample should produce."""
    assistant_ids, bad = set(), 0
    for line in lines:
        try:
            value = orjson.loads(line)
            if not isinstance(value.get("turn_index"), int):
                raise ValueError
        except (orjson.JSONDecodeError, ValueError):
            bad += 1
            continue
        if value.get("role") == "assistant":
            assistant_ids.add(value["event_id"])
    return len(assistant_ids), bad


def local_overrides(broker_url: str, settings: Settings, app_id: str) -> dict[str, object]:
    """Settings for a worker on the local Tansu broker (see DESIGN.md for the quirks)."""
    return {
        "broker_url": broker_url,
        "app_id": app_id,
        "one_record_per_batch": True,
        "topic_partitions": 2,
        "rebalance_timeout_s": 3,
        # Tansu answers a JoinGroup only after half the group's session timeout, and a dead
        # member blocks the group until its session expires: 3 s keeps a restart's join to ~2 s
        "session_timeout_s": 3,
        "heartbeat_interval_s": 1,
        "web_port": free_port(),
        "data_dir": settings.data_dir,
        "nli_model": settings.nli_model,
        "stride": settings.stride,
    }


def _hold(worker: WorkerProcess, settings: Settings) -> None:
    """Keep the broker and worker up until Ctrl-C or SIGTERM (or the worker exits); the
    callers' context managers then stop both."""

    sigterm_interrupts()
    print(
        f"\nholding: broker {settings.broker_url}, metrics http://127.0.0.1:{settings.web_port}/metrics "
        "(Ctrl-C to stop)",
        flush=True,
    )
    try:
        while worker.alive:
            time.sleep(1.0)
    except KeyboardInterrupt:
        print("", flush=True)


async def _drive(
    settings: Settings, lines: list[bytes], worker: WorkerProcess, timeout_s: float, show_scores: bool
) -> Counter:
    want_scores, want_dead = expected_counts(lines)
    seen: Counter = Counter()
    async with OutputReader(settings, [spec.name for spec in OUTPUT_TOPICS]) as reader:
        await produce_lines(settings, TURNS.name, lines)
        print(f"sent {len(lines)} records to {TURNS.name}; waiting for the worker…\n", flush=True)
        deadline = time.monotonic() + timeout_s
        while seen[SCORES.name] < want_scores or seen[DEADLETTER.name] < want_dead:
            if not worker.alive:
                raise DemoFailed(f"the worker stopped:\n{worker.log_tail()}")
            if time.monotonic() > deadline:
                raise DemoFailed(
                    f"no complete result after {timeout_s:.0f}s: {seen[SCORES.name]}/{want_scores} scores, "
                    f"{seen[DEADLETTER.name]}/{want_dead} dead letters. Worker log:\n{worker.log_tail()}"
                )
            for topic, _key, value in await reader.poll(1.0):
                seen[topic] += 1
                event = orjson.loads(value or b"{}")
                if topic == CONFLICTS.name:
                    seen[f"conflicts {event.get('scope')}"] += 1
                if topic != SCORES.name or show_scores:
                    print(render(topic, event), flush=True)
    return seen


def run_demo(settings: Settings, timeout_s: float = 180.0, show_scores: bool = False, hold: bool = False) -> int:
    from contraflow.streams.core.nli.scorer import load_scorer

    load_scorer(settings.nli_model_path, settings.nli_backend)  # a missing model fails here, readably
    lines = sample_lines()
    folder = settings.data_dir / "demo"
    started = time.monotonic()
    with TansuBroker(log=folder / "broker.log") as broker:
        print(f"broker: Tansu on {broker.bootstrap} (memory only)", flush=True)
        overrides = local_overrides(broker.url, settings, app_id=f"contraflow-demo-{broker.port}")
        local = Settings(**overrides)
        asyncio.run(ensure_topics(local, ALL_TOPICS))
        with WorkerProcess(overrides, folder / "worker.log") as worker:
            print(f"worker: pid {worker.proc.pid if worker.proc else '?'}, log {worker.log}", flush=True)
            print(f"metrics: http://127.0.0.1:{local.web_port}/metrics", flush=True)
            try:  # the turns go out once the worker says it is ready, as a user would send them
                worker.wait_ready(timeout_s)
            except RuntimeError as exc:
                raise DemoFailed(str(exc)) from None
            seen = asyncio.run(_drive(local, lines, worker, timeout_s, show_scores))
            if hold:
                _hold(worker, local)
    print(
        f"\ndone in {time.monotonic() - started:.0f}s: {seen[CONFLICTS.name]} conflicts "
        f"({seen['conflicts adjacent']} between adjacent turns, K_Conflict's pairs; "
        f"{seen['conflicts global']} against earlier turns), "
        f"{seen['contraflow.alerts']} alerts, {seen[SCORES.name]} scores, {seen[DEADLETTER.name]} dead letters; "
        "broker and worker stopped."
    )
    return 0
