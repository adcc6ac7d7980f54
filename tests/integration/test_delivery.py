"""Acknowledged delivery (streams/runtime/delivery.py): failures are retried, and a send that is never
acknowledged ends in DeliveryFailed rather than being forgotten; state writes are acknowledged
before any commit."""

from __future__ import annotations

import asyncio

import pytest

from contraflow.streams.runtime.app import create_app
from contraflow.streams.runtime.delivery import DeliveryFailed, deliver
from contraflow.streams.runtime.kafka import ensure_topics
from contraflow.streams.settings import Settings


async def test_a_failed_send_is_retried_until_acknowledged() -> None:
    attempts: list[int] = []

    async def flaky() -> None:
        attempts.append(1)
        if len(attempts) < 3:
            raise ConnectionError("broker away")

    await deliver(flaky, "send to t", timeout_s=10.0)
    assert len(attempts) == 3


async def test_a_send_never_acknowledged_raises_after_the_timeout() -> None:
    attempts: list[int] = []

    async def failing() -> None:
        attempts.append(1)
        raise ConnectionError("broker away")

    with pytest.raises(DeliveryFailed, match="send to t: not acknowledged after"):
        await deliver(failing, "send to t", timeout_s=1.0)
    assert len(attempts) >= 2


async def test_the_flush_before_a_commit_waits_until_every_state_write_is_acknowledged(broker, tmp_path) -> None:
    """faust writes table changelogs (session state, rate windows) through a buffer, and
    flushes it before every offset commit; its own flush returned once 0.1 s passed without a
    message leaving the buffer, so a state write stalled behind a slow send was committed
    past, and lost with a crash (streams/runtime/consumer.py `AcknowledgingProducer`)."""
    settings = Settings(broker_url=broker.url, web_enabled=False, data_dir=tmp_path, topic_partitions=1)
    app = create_app(settings)
    changelog = app.topic("state-changelog", key_serializer="raw", value_serializer="raw")
    await app.producer.start()
    await ensure_topics(settings, [], extra={"state-changelog": {}})  # a topic the producer has no metadata of
    try:
        broker.pause()  # the first write waits for the topic's metadata; the others stay buffered
        writes = [changelog.as_future_message(key=b"session", value=b"state %d" % n) for n in range(3)]
        for write in writes:
            app.producer.send_soon(write)
        flush = asyncio.create_task(app.producer.flush())
        await asyncio.sleep(2.0)
        assert not flush.done(), "the flush returned with state writes unacknowledged"
        broker.resume()
        await asyncio.wait_for(flush, 60)
        assert all(write.done() and write.exception() is None for write in writes)
    finally:
        broker.resume()
        await app.producer.stop()
