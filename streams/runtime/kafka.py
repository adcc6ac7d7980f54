"""Plain aiokafka helpers: connection options, topic creation, producing and tailing.

Used by the CLI (send, tail, demo) and before a worker starts; no faust here."""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections.abc import Iterable, Mapping
from typing import Any

import orjson
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.errors import KafkaError, TopicAlreadyExistsError

from contraflow.streams.errors import UserError
from contraflow.streams.settings import Settings
from contraflow.topics.catalog import TopicSpec


class BrokerUnavailable(UserError, RuntimeError):
    """The broker cannot be reached; the message names the address."""


def connection_options(settings: Settings) -> dict[str, Any]:
    """aiokafka keyword arguments for the broker and its security settings."""
    options: dict[str, Any] = {"bootstrap_servers": settings.bootstrap_servers}
    protocol = settings.broker_security_protocol.upper()
    if protocol != "PLAINTEXT":
        options["security_protocol"] = protocol
        if "SSL" in protocol:
            options["ssl_context"] = ssl.create_default_context(cafile=settings.broker_ssl_cafile)
        if protocol.startswith("SASL"):
            options["sasl_mechanism"] = settings.broker_sasl_mechanism or "PLAIN"
            options["sasl_plain_username"] = settings.broker_sasl_username
            password = settings.broker_sasl_password
            options["sasl_plain_password"] = password.get_secret_value() if password else None
    return options


def _unavailable(settings: Settings, exc: BaseException) -> BrokerUnavailable:
    return BrokerUnavailable(
        f"cannot reach the Kafka broker at {settings.broker_url} ({type(exc).__name__}: {exc}). "
        "Check CONTRAFLOW_BROKER_URL, or start a local one with `contraflow broker`."
    )


async def ensure_topics(
    settings: Settings,
    specs: Iterable[TopicSpec],
    timeout_s: float = 15.0,
    extra: Mapping[str, Mapping[str, str]] | None = None,
) -> list[str]:
    """Create the topics that do not exist yet (the catalog's `specs`, and `extra` topics by
    name with their configs); returns the names created. BrokerUnavailable when the broker
    is not there."""
    wanted = {spec.name: {"retention.ms": str(spec.retention_ms)} for spec in specs} | dict(extra or {})
    admin = AIOKafkaAdminClient(**connection_options(settings), request_timeout_ms=int(timeout_s * 1000))
    try:
        await asyncio.wait_for(admin.start(), timeout_s)
        existing = set(await asyncio.wait_for(admin.list_topics(), timeout_s))
        missing = [
            NewTopic(
                name=name,
                num_partitions=settings.topic_partitions,
                replication_factor=settings.topic_replication,
                topic_configs=dict(configs),
            )
            for name, configs in wanted.items()
            if name not in existing
        ]
        if missing:
            with contextlib.suppress(TopicAlreadyExistsError):
                await asyncio.wait_for(admin.create_topics(missing), timeout_s)
    except (KafkaError, OSError, TimeoutError) as exc:
        raise _unavailable(settings, exc) from exc
    finally:
        await admin.close()
    return [topic.name for topic in missing]


async def start_producer(settings: Settings, timeout_s: float = 15.0) -> AIOKafkaProducer:
    """A started producer (acks=all, one record per batch when the settings ask for it)."""
    producer = AIOKafkaProducer(
        **connection_options(settings),
        acks="all",
        linger_ms=0,
        max_batch_size=1 if settings.one_record_per_batch else 16384,
        request_timeout_ms=int(timeout_s * 1000),
    )
    try:
        await asyncio.wait_for(producer.start(), timeout_s)
    except (KafkaError, OSError, TimeoutError) as exc:
        await producer.stop()
        raise _unavailable(settings, exc) from exc
    return producer


def record_key(line: bytes, key_field: str) -> bytes | None:
    """The value of `key_field` in a JSON line, as the record key; None if there is none."""
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    key = value.get(key_field) if isinstance(value, dict) else None
    return str(key).encode() if key is not None else None


async def produce_lines(settings: Settings, topic: str, lines: Iterable[bytes], key_field: str = "session_id") -> int:
    """Produce each line as one record keyed by its `key_field`. Lines that are not valid
    events are sent too, so the worker dead-letters them with their error."""
    producer = await start_producer(settings)
    sent = 0
    try:
        for line in lines:
            await producer.send_and_wait(topic, line, key=record_key(line, key_field))
            sent += 1
    finally:
        await producer.stop()
    return sent


class OutputReader:
    """Reads records of some topics from the beginning, without a consumer group.

    `async with OutputReader(settings, topics) as reader: await reader.poll(1.0)`."""

    def __init__(self, settings: Settings, topics: Iterable[str], timeout_s: float = 15.0) -> None:
        self.settings = settings
        self.timeout_s = timeout_s
        self.consumer = AIOKafkaConsumer(
            *topics,
            **connection_options(settings),
            group_id=None,
            auto_offset_reset="earliest",
            enable_auto_commit=False,
            metadata_max_age_ms=2000,
            fetch_max_wait_ms=settings.fetch_max_wait_ms,  # as the worker: a broker may not end a waiting fetch early
        )

    async def __aenter__(self) -> OutputReader:
        try:
            await asyncio.wait_for(self.consumer.start(), self.timeout_s)
        except (KafkaError, OSError, TimeoutError) as exc:
            await self.consumer.stop()
            raise _unavailable(self.settings, exc) from exc
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.consumer.stop()

    async def poll(self, timeout_s: float) -> list[tuple[str, bytes | None, bytes | None]]:
        """(topic, key, value) of the records that arrive within `timeout_s`, in order per partition."""
        return [(topic, key, value) for topic, key, value, _ in await self.poll_timed(timeout_s)]

    async def read_to_end(self) -> list[tuple[str, bytes | None, bytes | None]]:
        """(topic, key, value) of every record up to the end the topics had when called."""
        ends = await self.consumer.end_offsets(list(self.consumer.assignment()))
        records: list[tuple[str, bytes | None, bytes | None]] = []
        while [tp for tp, end in ends.items() if await self.consumer.position(tp) < end]:
            records += await self.poll(0.5)
        return records

    async def poll_timed(self, timeout_s: float) -> list[tuple[str, bytes | None, bytes | None, float]]:
        """As `poll`, with each record's timestamp (seconds since the epoch; the producer's
        send time unless the topic keeps the broker's append time)."""
        batches = await self.consumer.getmany(timeout_ms=int(timeout_s * 1000))
        return [(r.topic, r.key, r.value, r.timestamp / 1000.0) for records in batches.values() for r in records]
