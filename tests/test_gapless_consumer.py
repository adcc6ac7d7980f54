"""The gapless input consumer (streams/consumer.py): records faust fetched but did not
deliver (a partition not active yet, during recovery) come back once the partition is
delivered, though no later record reveals the gap. Here faust's fetch step hands it a
batch; the consumer's own bookkeeping and faust's delivery logic run as they are."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from aiokafka.structs import ConsumerRecord
from faust.transport import consumer as faust_consumer
from faust.types import TP

from streams.app import create_app
from streams.settings import Settings

TURNS = TP("contraflow.turns", 1)


def record(offset: int) -> ConsumerRecord:
    return ConsumerRecord(
        topic=TURNS.topic,
        partition=TURNS.partition,
        offset=offset,
        timestamp=0,
        timestamp_type=0,
        key=b"chaos-0-0",
        value=b"{}",
        checksum=None,
        serialized_key_size=9,
        serialized_value_size=2,
        headers=(),
    )


def test_the_last_record_of_a_partition_skipped_during_recovery_is_fetched_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app(Settings(broker_url="kafka://127.0.0.1:1", web_enabled=False, data_dir=tmp_path))
    consumer = app.consumer
    batches = [{TURNS: [record(13)]}, {}]

    async def fetch(self: object, timeout: float) -> tuple[dict, set | None]:
        return batches.pop(0), consumer._active_partitions

    seeks: list[tuple[TP, int]] = []

    async def seek(partition: TP, offset: int) -> None:
        seeks.append((partition, offset))

    monkeypatch.setattr(faust_consumer.Consumer, "_wait_next_records", fetch)
    monkeypatch.setattr(consumer, "_seek", seek)

    async def drain() -> list[int]:
        return [message.offset async for _, message in consumer.getmany(timeout=0.0)]

    consumer._expected[TURNS] = 13  # the committed offset, after recovery's seek
    consumer._active_partitions = set()  # recovery: faust does not deliver the input partition yet
    assert asyncio.run(drain()) == [] and seeks == []  # skipped, and not sought back while inactive
    consumer._active_partitions = {TURNS}
    assert asyncio.run(drain()) == []
    assert seeks == [(TURNS, 13)]  # once delivered again: back to the record never delivered
