"""The gapless input consumer (streams/runtime/consumer.py): records faust fetched but did not
deliver (a partition not active yet, during recovery), or whose hand-over a rebalance
abandoned, come back, though no later record reveals the gap; and no commit goes past a
record no agent acknowledged. Here faust's fetch step hands the consumer a batch; its own
bookkeeping and faust's delivery and commit logic run as they are."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiokafka.structs import ConsumerRecord
from faust.transport import consumer as faust_consumer
from faust.types import TP, Message

from contraflow.streams.runtime.app import create_app
from contraflow.streams.runtime.consumer import GaplessConsumer
from contraflow.streams.settings import Settings

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


@pytest.fixture
def consumer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[GaplessConsumer]:
    """The app's consumer, its fetches served from `consumer.batches`, its seeks recorded in
    `consumer.seeks` and the records handed to the agents in `consumer.handed` (no broker)."""
    app = create_app(Settings(broker_url="kafka://127.0.0.1:1", web_enabled=False, data_dir=tmp_path))
    consumer = app.consumer
    consumer.batches = []
    consumer.seeks = []
    consumer.handed = []

    async def hand_to_agents(message: Message) -> None:
        consumer.handed.append(message.offset)

    async def fetch(self: object, timeout: float) -> tuple[dict, set | None]:
        return consumer.batches.pop(0), consumer._active_partitions

    async def seek(partition: TP, offset: int) -> None:
        consumer.seeks.append((partition, offset))

    monkeypatch.setattr(faust_consumer.Consumer, "_wait_next_records", fetch)
    monkeypatch.setattr(consumer, "_seek", seek)
    monkeypatch.setattr(consumer, "_hand_over", hand_to_agents)
    monkeypatch.setattr(consumer, "highwater", lambda tp: 100)  # faust asks the driver as it delivers
    monkeypatch.setattr(app.topics, "acks_enabled_for", lambda topic: True)  # as once the agents subscribed
    yield consumer


def drain(consumer: GaplessConsumer, hand_over: bool = True) -> list[int]:
    """One fetch as faust's `_drain_messages` takes it: each record is handed to the callback,
    or (hand_over False) abandoned, as when a rebalance begins during the hand-over."""

    async def run() -> list[int]:
        offsets = []
        async for _, message in consumer.getmany(timeout=0.0):
            offsets.append(message.offset)
            if hand_over:
                await consumer.callback(message)
        return offsets

    return asyncio.run(run())


def turn_message(offset: int) -> Message:
    return Message(TURNS.topic, TURNS.partition, offset, 0.0, 0, None, b"chaos-0-0", b"{}", None, tp=TURNS)


def acknowledge(consumer: GaplessConsumer, offset: int) -> None:
    message = turn_message(offset)
    consumer.track_message(message)
    assert consumer.ack(message)


def test_the_last_record_of_a_partition_skipped_during_recovery_is_fetched_again(consumer: GaplessConsumer) -> None:
    consumer.batches = [{TURNS: [record(13)]}, {}]
    consumer._expected[TURNS] = 13  # the committed offset, after recovery's seek
    consumer._active_partitions = set()  # recovery: faust does not deliver the input partition yet
    assert drain(consumer) == [] and consumer.seeks == []  # skipped, and not sought back while inactive
    consumer._active_partitions = {TURNS}
    assert drain(consumer) == []
    assert consumer.seeks == [(TURNS, 13)]  # once delivered again: back to the record never delivered


def test_a_record_whose_hand_over_was_abandoned_is_fetched_again(consumer: GaplessConsumer) -> None:
    consumer.batches = [{TURNS: [record(12), record(13)]}]
    consumer._expected[TURNS] = 12
    consumer._active_partitions = {TURNS}
    assert drain(consumer, hand_over=False) == [12]  # nothing after it is delivered
    assert consumer.seeks == [(TURNS, 12)]


def test_no_commit_passes_a_single_unacknowledged_record_at_the_committed_offset(consumer: GaplessConsumer) -> None:
    consumer._committed_offset[TURNS] = 12  # 12 is the next record to read, and it was never acknowledged
    acknowledge(consumer, 13)
    assert consumer._filter_committable_offsets({TURNS}) == {}
    acknowledge(consumer, 12)
    assert consumer._filter_committable_offsets({TURNS}) == {TURNS: 14}


def test_before_any_commit_no_commit_passes_the_first_record_delivered(consumer: GaplessConsumer) -> None:
    consumer.batches = [{TURNS: [record(0), record(1)]}]
    consumer._active_partitions = {TURNS}
    assert drain(consumer) == [0, 1] and consumer.handed == [0, 1]  # the group never committed here
    acknowledge(consumer, 1)
    assert consumer._filter_committable_offsets({TURNS}) == {}
    acknowledge(consumer, 0)
    assert consumer._filter_committable_offsets({TURNS}) == {TURNS: 2}


def test_after_a_failed_commit_the_next_commit_covers_its_records(consumer: GaplessConsumer) -> None:
    consumer._committed_offset[TURNS] = 12
    acknowledge(consumer, 12)
    assert consumer._filter_committable_offsets({TURNS}) == {TURNS: 13}  # taken; the commit then fails
    acknowledge(consumer, 13)
    assert consumer._committed_offset[TURNS] == 12
    assert consumer._filter_committable_offsets({TURNS}) == {TURNS: 14}


def test_a_record_dropped_after_its_hand_over_is_delivered_again(consumer: GaplessConsumer) -> None:
    consumer._committed_offset[TURNS] = 12
    consumer._expected[TURNS] = 12
    consumer._active_partitions = {TURNS}
    consumer.batches = [{TURNS: [record(12), record(13)]}, {}, {TURNS: [record(o) for o in (12, 13, 14)]}]
    assert drain(consumer) == [12, 13]
    acknowledge(consumer, 13)  # 12 never is: a rebalance cleared it from the agent's buffer
    assert consumer._filter_committable_offsets({TURNS}) == {}
    assert drain(consumer) == [] and consumer.seeks == [(TURNS, 12)]
    assert drain(consumer) == [12, 13, 14]  # fetched from 12 again
    held = turn_message(12)
    consumer.track_message(held)  # an agent works on it again
    assert consumer._filter_committable_offsets({TURNS}) == {}
    consumer.batches.append({})
    assert drain(consumer) == [] and consumer.seeks == [(TURNS, 12)]  # not sent a third time
    assert consumer.ack(held)
    assert consumer._filter_committable_offsets({TURNS}) == {TURNS: 14}


def test_a_last_record_dropped_inside_faust_is_delivered_again_once_the_agents_are_idle(
    consumer: GaplessConsumer,
) -> None:
    consumer._committed_offset[TURNS] = 12
    consumer._expected[TURNS] = 12
    consumer._active_partitions = {TURNS}
    consumer.batches = [{TURNS: [record(12), record(13)]}, {}, {}]
    assert drain(consumer) == [12, 13]
    held = turn_message(12)
    consumer.track_message(held)  # an agent is working on 12; 13 waits for it
    assert drain(consumer) == [] and consumer.seeks == []
    assert consumer.ack(held)  # done, and 13 is nowhere: a rebalance dropped it
    assert drain(consumer) == [] and consumer.seeks == [(TURNS, 13)]
