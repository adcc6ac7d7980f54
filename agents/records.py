"""What every agent shares: a raw input topic read one record at a time, typed emits, and
the dead-letter path (any failure of a record becomes a dead letter; the agent goes on).

Events in, events out and dead letters are counted here, for the metrics endpoint."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import faust
from faust.types import TP
from pydantic import BaseModel

from models.events import DeadLetter
from streams.deadletters import InputError, dead_letter
from streams.observability.metrics import WorkerMetrics
from streams.settings import Settings
from topics.catalog import DEADLETTER, TopicSpec

Emit = Callable[[TopicSpec, bytes | None, BaseModel], Awaitable[None]]


@dataclass(frozen=True)
class Record:
    """One input record as it came off the broker."""

    key: bytes | None
    value: bytes | None
    topic: str
    partition: int
    offset: int
    timestamp: float | None = None  # broker timestamp, seconds since the epoch


Handler = Callable[[Record], Awaitable[None]]


def topic_emitter(app: faust.App, metrics: WorkerMetrics | None = None) -> Emit:
    """Send events to their faust topics (declared once, reused)."""
    topics: dict[str, faust.TopicT] = {}

    async def emit(spec: TopicSpec, key: bytes | None, event: BaseModel) -> None:
        topic = topics.get(spec.name)
        if topic is None:
            topic = topics[spec.name] = app.topic(spec.name, key_serializer="raw", value_serializer="orjson")
        await topic.send(key=key, value=event)
        if metrics is not None:
            metrics.events_out.labels(topic=spec.name).inc()

    return emit


def json_table(app: faust.App, name: str, settings: Settings) -> faust.types.TableT:
    """A faust table of JSON values (pydantic models dumped to dicts), partitioned like the topics."""
    return app.Table(
        name,
        default=None,
        partitions=settings.topic_partitions,
        schema=faust.Schema(key_serializer="orjson", value_serializer="orjson"),
    )


def dead_letter_for(exc: Exception, record: Record, settings: Settings) -> DeadLetter:
    """The dead letter of an input record that raised `exc`."""
    kind = exc.kind if isinstance(exc, InputError) else "processing"
    return dead_letter(
        topic=record.topic,
        partition=record.partition,
        offset=record.offset,
        key=record.key,
        raw=record.value,
        kind=kind,
        error=f"{type(exc).__name__}: {exc}" if kind == "processing" else str(exc),
        max_bytes=settings.deadletter_max_bytes,
    )


def attach_record_agent(
    app: faust.App,
    spec: TopicSpec,
    name: str,
    handle: Handler,
    settings: Settings,
    emit: Emit,
    metrics: WorkerMetrics | None = None,
) -> faust.types.AgentT:
    """An agent (concurrency 1: see DESIGN.md) that hands each raw record of `spec` to `handle`."""
    source = app.topic(spec.name, key_type=bytes, value_type=bytes, key_serializer="raw", value_serializer="raw")

    def highwater(topic: str, partition: int) -> int | None:
        try:
            return app.consumer.highwater(TP(topic, partition))
        except Exception:  # not known yet, or the consumer is between assignments
            return None

    @app.agent(source, name=name, concurrency=1)
    async def consume(stream: faust.StreamT) -> None:
        async for event in stream.events():
            message = event.message
            record = Record(
                event.key, event.value, message.topic, message.partition, message.offset, message.timestamp or None
            )
            if metrics is not None:
                metrics.received(highwater, record.topic, record.partition, record.offset)
            started = time.monotonic()
            try:
                await handle(record)
            except Exception as exc:  # every failure becomes a dead letter; the agent goes on
                letter = dead_letter_for(exc, record, settings)
                await emit(DEADLETTER, record.key, letter)
                if metrics is not None:
                    metrics.dead_letters.labels(topic=record.topic, reason=letter.error_kind).inc()
            else:
                if metrics is not None:
                    metrics.handled(record.topic, record.timestamp, time.monotonic() - started)

    return consume
