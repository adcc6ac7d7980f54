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
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
import urllib.error
import urllib.request
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import orjson
from aiokafka.admin import AIOKafkaAdminClient
from aiokafka.errors import KafkaError

from contraflow.streams.core.metrics.rate_ledger import MARKER
from contraflow.streams.runtime.kafka import (
    BrokerUnavailable,
    OutputReader,
    connection_options,
    ensure_topics,
    start_producer,
)
from contraflow.streams.settings import Settings
from contraflow.streams.tools.broker import TansuBroker
from contraflow.streams.tools.demo import local_overrides
from contraflow.streams.tools.worker_process import WorkerProcess
from contraflow.topics.catalog import ALERTS, ALL_TOPICS, OUTPUT_TOPICS, RATES_TABLE, SCORES, TURNS, changelog_topic

ID_FIELDS = {
    "contraflow.scores": "score_id",
    "contraflow.conflicts": "conflict_id",
    "contraflow.alerts": "alert_id",
    "contraflow.deadletter": "deadletter_id",
    "contraflow.memory.updates": "update_id",
}
STATE_FIELDS = (
    "turn_index",
    "assistant_turn",
    "evaluated_pairs",
    "contradictions",
    "status",
    "global_evaluated_pairs",
    "global_contradictions",
)
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


@dataclass
class RunOutputs:
    """Every output record one run read, in arrival order."""

    records: list[tuple[float, str, dict]] = field(default_factory=list)  # (sent at, topic, event)
    rate_windows: dict[str, tuple[int, int]] = field(default_factory=dict)  # key: final (pairs, contradictions)

    def first_after(self, t: float) -> float | None:
        """When the first output sent after `t` (seconds since the epoch) was sent."""
        return min((sent for sent, _, _ in self.records if sent > t), default=None)

    def scored(self) -> set[str]:
        return {event["event_id"] for _, topic, event in self.records if topic == SCORES.name}

    def by_id(self, fleet_rate_alerts: bool = True) -> dict[tuple[str, str], list[dict]]:
        copies: dict[tuple[str, str], list[dict]] = defaultdict(list)
        for _, topic, event in self.records:
            if fleet_rate_alerts or not is_fleet_rate_alert(topic, event):
                copies[(topic, event[ID_FIELDS[topic]])].append(event)
        return copies

    def fleet_rate_alerts(self) -> int:
        """Distinct fleet rate alerts this run read."""
        return len({event["alert_id"] for _, topic, event in self.records if is_fleet_rate_alert(topic, event)})

    def evaluated_pairs(self) -> int:
        """Adjacent pairs the scores say were evaluated for a model (each score id once)."""
        return len(
            {
                event["score_id"]
                for _, topic, event in self.records
                if topic == SCORES.name and event.get("pair_evaluated") and event.get("model")
            }
        )

    def final_states(self) -> dict[str, tuple]:
        last: dict[str, dict] = {}
        for _, topic, event in self.records:
            if topic == SCORES.name and event["turn_index"] >= last.get(event["session_id"], {}).get("turn_index", -1):
                last[event["session_id"]] = event
        return {session: tuple(event[f] for f in STATE_FIELDS) for session, event in last.items()}


@dataclass
class ChaosReport:
    assistant_turns: int
    lost: list[str]
    duplicates: int
    differing_duplicates: int
    sessions: int
    differing_sessions: list[str]  # session: final state of the chaos run vs the reference's
    missing_ids: list[str]  # "topic id: what", in the reference only
    extra_ids: list[str]  # in the chaos run only
    differing_outputs: list[str]  # same id in both runs, other content: the first field that differs
    rate_windows: int  # rate windows (model or tenant, length) in either run
    differing_rate_windows: list[str]  # window key: final (pairs, contradictions) vs the reference's
    rate_alerts: tuple[int, int]  # fleet rate alerts published (distinct ids): chaos run, reference
    kill_to_output_s: list[float]
    readyz_during_outage: dict[int, int] = field(default_factory=dict)  # status -> samples

    @property
    def ok(self) -> bool:
        return not (
            self.lost
            or self.differing_duplicates
            or self.differing_sessions
            or self.missing_ids
            or self.differing_rate_windows
        )

    def lines(self) -> list[str]:
        kills = self.kill_to_output_s
        out = [
            f"assistant turns produced        : {self.assistant_turns}",
            f"lost assistant turns            : {len(self.lost)}{' ' + ', '.join(self.lost[:10]) if self.lost else ''}",
            f"duplicate records (same id)     : {self.duplicates}, of which differing from the first copy: "
            f"{self.differing_duplicates}",
            f"sessions differing from the ref : {len(self.differing_sessions)} of {self.sessions}",
            *(f"  {line}" for line in self.differing_sessions[:10]),
            f"output ids missing / extra      : {len(self.missing_ids)} / {len(self.extra_ids)}",
            *(f"  missing {line}" for line in self.missing_ids[:10]),
            *(f"  extra   {line}" for line in self.extra_ids[:10]),
            f"same id, other content than ref : {len(self.differing_outputs)}",
            *(f"  {line}" for line in self.differing_outputs[:10]),
            f"rate windows differing from ref : {len(self.differing_rate_windows)} of {self.rate_windows}",
            *(f"  {line}" for line in self.differing_rate_windows[:10]),
            f"fleet rate alerts (chaos / ref) : {self.rate_alerts[0]} / {self.rate_alerts[1]} "
            "(an open window's path to its level follows the samples' arrival order)",
        ]
        if kills:
            out.append(
                f"kill -> first output            : median {statistics.median(kills):.1f} s, "
                f"max {max(kills):.1f} s over {len(kills)} kills"
            )
        if self.readyz_during_outage:
            samples = ", ".join(f"{status}: {n}" for status, n in sorted(self.readyz_during_outage.items()))
            out.append(f"/readyz during the outage       : {samples}")
        return out


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


def is_fleet_rate_alert(topic: str, event: dict) -> bool:
    return topic == ALERTS.name and str(event.get("kind", "")).startswith("contradiction_rate")


def canonical(event: dict) -> bytes:
    """An event with floats rounded, to compare copies of one id."""

    def rounded(value: object) -> object:
        if isinstance(value, float):
            return round(value, 4)
        if isinstance(value, dict):
            return {k: rounded(v) for k, v in value.items() if k != "failed_at"}
        if isinstance(value, list):
            return [rounded(v) for v in value]
        return value

    return orjson.dumps(rounded(event), option=orjson.OPT_SORT_KEYS)


class Harness:
    """One broker (replaceable), one worker (killable), a producer and a reader."""

    def __init__(self, config: ChaosConfig, name: str) -> None:
        self.config = config
        self.dir = config.workdir / name
        self.dir.mkdir(parents=True, exist_ok=True)
        self.broker = TansuBroker(log=self.dir / "broker.log").start()
        base = Settings(nli_model=config.model, data_dir=self.dir, stride=1)
        self.overrides: dict[str, object] = {
            **local_overrides(self.broker.url, base, app_id=f"chaos-{name}"),
            "nli_backend": config.nli_backend,
            "nli_max_batch": 1,
        }
        self.settings = Settings(**self.overrides)
        self.outputs = RunOutputs()
        self.worker = WorkerProcess(self.overrides, self.dir / "worker.log", loglevel="warning")
        self.restarts = 0

    def start_worker(self) -> None:
        self.worker.start()

    def kill_worker(self) -> float:
        """SIGKILL the worker; returns when it died, in seconds since the epoch (the clock
        of the outputs' timestamps)."""
        assert self.worker.proc is not None
        self.worker.proc.kill()  # SIGKILL to our own child, by pid
        self.worker.proc.wait()
        return time.time()

    def supervise(self) -> None:
        """Restart the worker if it exited (as a supervisor would)."""
        if not self.worker.alive:
            self.restarts += 1
            self.worker.start()

    async def keep_supervising(self, stop: asyncio.Event) -> None:
        """Restart the worker whenever it exits (after a kill, or when it stops itself, for
        example on a failed send during an outage) until `stop`."""
        while not stop.is_set():
            self.supervise()
            await asyncio.sleep(0.2)

    async def read(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                async with OutputReader(self.settings, [spec.name for spec in OUTPUT_TOPICS]) as reader:
                    while not stop.is_set():
                        for topic, _key, value, sent in await reader.poll_timed(0.2):
                            self.outputs.records.append((sent, topic, orjson.loads(value)))
            except (KafkaError, BrokerUnavailable, OSError):
                await asyncio.sleep(0.5)  # the broker is away; read again when it is back

    async def produce(self, lines: Iterator[bytes], sent: list[bytes], rate: float, stop: asyncio.Event) -> None:
        """Send `lines` at `rate` per second until `stop`; every line in `sent` was acknowledged."""
        producer = None
        started = time.monotonic()
        for line in lines:
            if stop.is_set():
                break
            await asyncio.sleep(max(0.0, started + len(sent) / rate - time.monotonic()))
            key = orjson.loads(line)["session_id"].encode()
            while True:
                try:
                    producer = producer or await start_producer(self.settings, timeout_s=5.0)
                    await producer.send_and_wait(TURNS.name, line, key=key)
                    break
                except (KafkaError, BrokerUnavailable, OSError):
                    if producer is not None:
                        await producer.stop()
                    producer = None
                    await self._wait_for_turns_topic()
            sent.append(line)
        if producer is not None:
            await producer.stop()

    async def _wait_for_turns_topic(self) -> None:
        """After a failed send: wait until the (possibly new) broker has the turns topic, which
        the worker recreates, rather than let a send create it with the broker's defaults."""
        while True:
            await asyncio.sleep(0.5)
            admin = AIOKafkaAdminClient(**connection_options(self.settings), request_timeout_ms=2000)
            try:
                await admin.start()
                if TURNS.name in await admin.list_topics():
                    return
            except (KafkaError, OSError):
                continue
            finally:
                await admin.close()

    async def wait_scored(self, lines: list[bytes], timeout_s: float) -> None:
        """Until every assistant turn is scored and the rate windows counted every evaluated
        pair (the turns share one timestamp, so one window per length holds them all)."""
        expected = {e["event_id"] for e in map(orjson.loads, lines) if e["role"] == "assistant"}
        deadline = time.monotonic() + timeout_s
        while not expected <= self.outputs.scored() and time.monotonic() < deadline:
            self.supervise()
            await asyncio.sleep(0.5)
        longest = f"|{max(self.settings.rate_windows_s)}"
        while True:  # read at least once, so that a run which lost a turn still reports its windows
            self.outputs.rate_windows = await self.rate_windows()
            counted = sum(pairs for key, (pairs, _) in self.outputs.rate_windows.items() if key.endswith(longest))
            if counted >= self.outputs.evaluated_pairs() or time.monotonic() >= deadline:
                break
            self.supervise()
            await asyncio.sleep(1.0)
        await asyncio.sleep(2.0)  # late duplicates

    async def rate_windows(self) -> dict[str, tuple[int, int]]:
        """Each rate window's final (pairs, contradictions), read from its table's changelog."""
        latest: dict[str, dict | None] = {}
        topic = changelog_topic(self.settings.app_id, RATES_TABLE)
        async with OutputReader(self.settings, [topic]) as reader:
            for _, key, value in await reader.read_to_end():
                latest[orjson.loads(key or b'""')] = orjson.loads(value) if value else None
        return {
            key: (state["pairs"], state["contradictions"])
            for key, state in latest.items()
            if state is not None and not key.startswith(MARKER)
        }

    def readyz(self) -> int:
        url = f"http://127.0.0.1:{self.overrides['web_port']}/readyz"
        try:
            with urllib.request.urlopen(url, timeout=1.0) as response:
                return int(response.status)
        except urllib.error.HTTPError as exc:
            return int(exc.code)
        except OSError:
            return 0  # no answer

    def close(self) -> None:
        self.worker.stop()
        self.broker.stop()


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


def described(key: tuple[str, str], event: dict) -> str:
    """One output for the report: its topic, id and what it says."""
    topic, event_id = key
    what = event.get("message") or event.get("error") or event.get("session_id") or ""
    return f"{topic} {event_id}: {what}"


def content_differences(copies: dict[tuple[str, str], list[dict]], ref: dict[tuple[str, str], list[dict]]) -> list[str]:
    """Outputs both runs published under one id but with other content, in turn order:
    topic, id, and the first field that differs with both values."""
    found = []
    for key in copies.keys() & ref.keys():
        ours, theirs = copies[key][0], ref[key][0]
        if canonical(ours) == canonical(theirs):
            continue
        field_name = next(
            f
            for f in sorted(ours.keys() | theirs.keys())
            if canonical({f: ours.get(f)}) != canonical({f: theirs.get(f)})
        )
        order = (str(ours.get("session_id")), ours.get("turn_index") or 0)
        values = f"{ours.get(field_name)!r} vs ref {theirs.get(field_name)!r}"
        found.append((order, f"{key[0]} {key[1]} ({order[0]} turn {order[1]}): {field_name} {values}"))
    return [line for _, line in sorted(found)]


def compare(
    lines: list[bytes], chaos: RunOutputs, reference: RunOutputs, kills: list[float], readyz: dict
) -> ChaosReport:
    assistant = [e["event_id"] for e in map(orjson.loads, lines) if e["role"] == "assistant"]
    scored = chaos.scored()
    copies = chaos.by_id()
    compared, ref_compared = chaos.by_id(fleet_rate_alerts=False), reference.by_id(fleet_rate_alerts=False)
    windows, ref_windows = chaos.rate_windows, reference.rate_windows
    finals, ref_finals = chaos.final_states(), reference.final_states()
    sessions = {e["session_id"] for e in map(orjson.loads, lines)}
    return ChaosReport(
        assistant_turns=len(assistant),
        lost=[event_id for event_id in assistant if event_id not in scored],
        duplicates=sum(len(v) - 1 for v in copies.values()),
        differing_duplicates=sum(len({canonical(e) for e in v}) > 1 for v in copies.values()),
        sessions=len(sessions),
        differing_sessions=[
            f"{s}: {dict(zip(STATE_FIELDS, finals.get(s, ()), strict=False))} vs ref {ref_finals.get(s)}"
            for s in sorted(sessions)
            if finals.get(s) != ref_finals.get(s)
        ],
        missing_ids=[described(key, ref_compared[key][0]) for key in ref_compared.keys() - compared.keys()],
        extra_ids=[described(key, compared[key][0]) for key in compared.keys() - ref_compared.keys()],
        differing_outputs=content_differences(compared, ref_compared),
        rate_windows=len(windows.keys() | ref_windows.keys()),
        differing_rate_windows=[
            f"{key}: {windows.get(key)} vs ref {ref_windows.get(key)}"
            for key in sorted(windows.keys() | ref_windows.keys())
            if windows.get(key) != ref_windows.get(key)
        ],
        rate_alerts=(chaos.fleet_rate_alerts(), reference.fleet_rate_alerts()),
        kill_to_output_s=kills,
        readyz_during_outage=readyz,
    )


async def run(config: ChaosConfig, progress: bool = True) -> ChaosReport:
    lines, chaos, kills, readyz = await chaos_run(config, progress)
    if progress:
        print(f"chaos run done: {len(lines)} turns sent; reference run without kills…", flush=True)
    reference = await reference_run(config, lines)
    return compare(lines, chaos, reference, kills, readyz)
