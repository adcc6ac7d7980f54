"""What every agent shares: a raw input topic read one record at a time, typed emits that
return once the broker has acknowledged them, tables whose writes can be awaited the same
way, and the dead-letter path (any failure of a record becomes a dead letter; the agent
goes on). A send the broker never acknowledges is not a bad record: the worker exits
(see streams/runtime/delivery.py), so the record's offset is not committed.

Events in, events out and dead letters are counted here, for the metrics endpoint."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import faust
from faust.types import TP
from pydantic import BaseModel

from contraflow.models.events import DeadLetter
from contraflow.streams.core.deadletters import InputError, dead_letter
from contraflow.streams.runtime.delivery import DeliveryFailed, deliver, exit_undelivered
from contraflow.streams.runtime.observability.metrics import WorkerMetrics
from contraflow.streams.settings import Settings
from contraflow.topics.catalog import DEADLETTER, TopicSpec

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


def topic_emitter(app: faust.App, settings: Settings, metrics: WorkerMetrics | None = None) -> Emit:
    """Send events to their faust topics (declared once, reused); each call returns once the
    broker has acknowledged the event (retrying; DeliveryFailed after the delivery timeout)."""
    topics: dict[str, faust.TopicT] = {}

    async def emit(spec: TopicSpec, key: bytes | None, event: BaseModel) -> None:
        topic = topics.get(spec.name)
        if topic is None:
            topic = topics[spec.name] = app.topic(spec.name, key_serializer="raw", value_serializer="orjson")

        async def send_acknowledged() -> None:  # faust's send() only enqueues; this waits for the ack
            await topic.publish_message(topic.as_future_message(key=key, value=event), wait=True)

        await deliver(send_acknowledged, f"send to {spec.name}", settings.delivery_timeout_s)
        if metrics is not None:
            metrics.events_out.labels(topic=spec.name).inc()

    return emit


def json_table(app: faust.App, name: str, settings: Settings) -> faust.types.TableT:
    """A faust table of JSON values (pydantic models dumped to dicts), partitioned like the topics.
    faust sends its changelog records in the background; one the broker refuses stops the
    worker before the next commit (`streams.app.UnacknowledgedSends`)."""
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
            except DeliveryFailed as exc:
                exit_undelivered(exc)
            except Exception as exc:  # every failure of the record becomes a dead letter; the agent goes on
                letter = dead_letter_for(exc, record, settings)
                try:
                    await emit(DEADLETTER, record.key, letter)
                except DeliveryFailed as failed:
                    exit_undelivered(failed)
                if metrics is not None:
                    metrics.dead_letters.labels(topic=record.topic, reason=letter.error_kind).inc()
            else:
                if metrics is not None:
                    metrics.handled(record.topic, record.timestamp, time.monotonic() - started)

    return consume
