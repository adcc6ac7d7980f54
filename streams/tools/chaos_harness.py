"""The chaos run's harness: one bundled broker (replaceable), one worker process (killable
and restarted as a supervisor would), a producer of turns and a reader of every output."""

from __future__ import annotations

import asyncio
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import TYPE_CHECKING

import orjson
from aiokafka.admin import AIOKafkaAdminClient
from aiokafka.errors import KafkaError

from contraflow.streams.core.metrics.rate_ledger import MARKER
from contraflow.streams.runtime.kafka import BrokerUnavailable, OutputReader, connection_options, start_producer
from contraflow.streams.settings import Settings
from contraflow.streams.tools.broker import TansuBroker
from contraflow.streams.tools.chaos_report import RunOutputs
from contraflow.streams.tools.demo import local_overrides
from contraflow.streams.tools.worker_process import WorkerProcess
from contraflow.topics.catalog import OUTPUT_TOPICS, RATES_TABLE, TURNS, changelog_topic

if TYPE_CHECKING:
    from contraflow.streams.tools.chaos import ChaosConfig


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
