"""contraflow's Kafka transport for faust: faust's aiokafka driver with four changes.

1. Gapless, in-order delivery of input records. faust-streaming tracks a "read offset" per
   partition and, in `Consumer._drain_messages`, drops records below it as stale and
   treats a jump above it as a gap whose offsets it marks acknowledged, so the next commit
   goes past records no agent ever saw. After a restart, recovery resumes the stream
   partitions and seeks them to the committed offsets while the fetcher already runs, so
   records fetched before the seek arrive after it and produce exactly such a jump (and
   its bookkeeping, which mixes "next offset to read" with "last offset read", misses a
   jump of one). `GaplessConsumer.getmany` checks every input record against the next
   offset it expects (the committed offset after a seek, then the previous record + 1):
   older records are dropped, and a record beyond it is a gap: the partition is seeked
   back to the expected offset and nothing past it is delivered, so faust never sees a
   gap to acknowledge. faust also skips, without a word, the fetched records of a
   partition it does not deliver yet (during recovery) and the rest of a batch when a
   rebalance begins; the fetch position is past them all the same. A later record of the
   partition reveals that as a gap, but the last records of a partition have none after
   them, and they waited for the next turn of the partition (a chaos test run: the last
   turn of a partition was never scored). So every input partition's last fetched offset
   is kept, and a partition fetched past what it delivered is sought back as soon as faust
   delivers it.
   Records faust drops after delivery: a rebalance that begins during the hand-over
   (`wait_first(callback(message), suspend_flow.wait())` in `_drain_messages`) abandons the
   record; a rebalance clears the stream buffers, and streams skip every record handed over
   under an older consumer generation, counting on a seek to the committed offsets that in
   chaos runs did not always come before newer records were processed. And faust's commit
   (`_new_offset`) takes the first run of consecutive acknowledged offsets and checks it
   against the committed offset (the next one to read) with `> 1`: one unacknowledged
   record right at the committed offset was committed past (a chaos run: an assistant turn
   never scored). So the callback is wrapped to see which records were handed over (an
   abandoned one is sought back to); no commit goes past an unacknowledged next offset
   (tracked past failed commits, since faust forgets the acknowledgements it took for
   one); and when a later record is acknowledged, or no agent holds a record and every
   stream buffer is empty, an unacknowledged delivered one was dropped: the partition is
   delivered again from it.
2. The fetch wait. faust hard-codes `fetch_max_wait_ms=1500`; a broker that does not end
   a waiting fetch when records arrive (the bundled Tansu) then adds up to 1.5 s to every
   turn. The wait comes from `Settings.fetch_max_wait_ms`.
3. Commit outcomes are recorded (`CommitHealth`), for the readiness probe.
4. A flush that waits for every background send. faust writes table changelogs (the
   session state, the rate windows) through a buffer whose `flush`, called before every
   offset commit, gives up as soon as 0.1 s pass without a message leaving the buffer,
   and counts a message as gone once it is taken from the buffer, before the driver has
   it. A state write stalled behind a slow send was so committed past, and a crash then
   lost it while the turn's offset stayed committed (a chaos run: a session whose later
   turns counted one assistant turn fewer than the reference). `AcknowledgingProducer`
   keeps every message handed to the buffer until the broker acknowledges it, and its
   `flush` waits for all of them (a failed one stops the worker: streams/runtime/app.py).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Any

import aiokafka
from faust.transport.drivers import aiokafka as faust_aiokafka
from faust.types import TP, Message
from faust.types.tuples import FutureMessage

from contraflow.streams.runtime.delivery import DeliveryFailed, exit_undelivered

log = logging.getLogger("contraflow.consumer")


@dataclass
class CommitHealth:
    """The outcome of the worker's latest offset commit."""

    ok: bool = True
    error: str = ""
    at: float = 0.0

    def record(self, ok: bool, error: str = "") -> None:
        self.ok, self.error, self.at = ok, error, time.monotonic()


class TunedConsumerThread(faust_aiokafka.AIOKafkaConsumerThread):
    """faust's consumer thread, with the fetch wait taken from the app."""

    def _create_worker_consumer(self, transport: faust_aiokafka.Transport) -> aiokafka.AIOKafkaConsumer:
        consumer = super()._create_worker_consumer(transport)
        consumer._fetch_max_wait_ms = self.app.fetch_max_wait_ms  # read when the consumer starts its fetcher
        return consumer


class GaplessConsumer(faust_aiokafka.Consumer):
    """faust's aiokafka consumer that delivers each input partition's records in order,
    without gaps (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._expected: dict[TP, int] = {}
        self._fetched: dict[TP, int] = {}  # the last offset fetched per input partition
        self._handed: dict[TP, int] = {}  # the last offset faust's callback took per partition
        self._commit_start: dict[TP, int] = {}  # the first offset delivered since the seek to committed
        self._acked_through: dict[TP, int] = {}  # the end of the acknowledged records taken for a commit
        self._forgotten: dict[TP, int] = {}  # delivered, then dropped inside faust: deliver again from here
        self._redelivered: dict[TP, int] = {}  # where the last such delivery again began
        self.commit_health = CommitHealth()
        self._hand_over = self.callback
        self.callback = self._handed_over

    async def _handed_over(self, message: Message) -> None:
        await self._hand_over(message)
        self._handed[message.tp] = message.offset

    def _new_consumer_thread(self) -> TunedConsumerThread:
        return TunedConsumerThread(self, loop=self.loop, beacon=self.beacon)

    async def perform_seek(self) -> None:
        await super().perform_seek()
        self._expected = {tp: offset for tp, offset in self._read_offset.items() if offset is not None}
        self._commit_start = {}
        self._acked_through = {}
        self._forgotten = {}
        self._redelivered = {}

    async def seek(self, partition: TP, offset: int) -> None:
        await super().seek(partition, offset)
        self._expected[partition] = offset
        self._fetched.pop(partition, None)

    async def on_partitions_revoked(self, revoked: set[TP]) -> None:
        for tp in revoked:
            self._expected.pop(tp, None)
            self._fetched.pop(tp, None)
            self._commit_start.pop(tp, None)
            self._acked_through.pop(tp, None)
            self._forgotten.pop(tp, None)
            self._redelivered.pop(tp, None)
        await super().on_partitions_revoked(revoked)

    async def _wait_next_records(self, timeout: float) -> tuple[Any, Any]:
        records, active = await super()._wait_next_records(timeout)
        for tp, batch in (records or {}).items():
            if batch and not self._is_changelog_tp(tp):
                self._fetched[tp] = max(self._fetched.get(tp, -1), batch[-1].offset)
        return records, active

    def _delivers(self, tp: TP) -> bool:
        """Whether faust hands this partition's records to the agents now (not during recovery)."""
        active = self._active_partitions
        return active is None or tp in active or tp in self._buffered_partitions

    async def _seek_back_undelivered(self) -> None:
        """Input records fetched but never delivered (faust skips those of a partition not yet
        active, and the rest of a batch when a rebalance begins): once the partition is
        delivered again, seek it back to the first of them. A later record would reveal the
        gap too, but the last records of a partition have none after them."""
        for tp, last in list(self._fetched.items()):
            expected = self._expected.get(tp)
            if expected is not None and last >= expected and self._delivers(tp):
                log.warning(
                    "%s[%d]: fetched up to offset %d but delivered only up to %d; seeking back",
                    tp.topic,
                    tp.partition,
                    last,
                    expected - 1,
                )
                await self.seek(tp, expected)

    def _next_to_commit(self, tp: TP) -> int | None:
        """The first offset of `tp` not yet taken for a commit: where the acknowledged records
        faust last took for one end (they are taken whether or not the commit then succeeds),
        else the committed offset, else, before any commit, the first offset delivered."""
        start = self._acked_through.get(tp, self._committed_offset[tp])
        return self._commit_start.get(tp) if start is None else start

    def _note_dropped(self) -> None:
        """A delivered record that is not acknowledged while no agent holds one and every
        stream buffer is empty was dropped inside faust (a rebalance clears the buffers, and
        streams skip records handed over under an older consumer generation): its
        partition is marked for delivery again from it. A later acknowledged record tells
        the same sooner (`_new_offset`); this also finds a partition's last record."""
        if not self._commit_start or any(not message.acked for message in self._unacked_messages):
            return
        if any(not channel.queue.empty() for channel in self.app.topics):
            return
        for tp in self._commit_start:
            first = self._next_to_commit(tp)
            if first is None:
                continue
            while first in self._acked_index[tp]:
                first += 1  # acknowledged, not yet taken for a commit
            if first < self._expected.get(tp, first):
                self._forgotten[tp] = first

    async def _seek_back_forgotten(self) -> None:
        """Records handed over and then dropped inside faust (a rebalance clears the stream
        buffers, or leaves records of the old generation there, which the streams skip) are
        delivered again, with those after them (the pipeline knows replayed turns)."""
        self._note_dropped()
        for tp, offset in list(self._forgotten.items()):
            if self._delivers(tp):
                log.warning(
                    "%s[%d]: records from offset %d were handed over but dropped inside faust "
                    "(a rebalance); delivering them again",
                    tp.topic,
                    tp.partition,
                    offset,
                )
                del self._forgotten[tp]
                self._redelivered[tp] = offset
                await self.seek(tp, offset)

    async def getmany(self, timeout: float) -> AsyncIterator[tuple[TP, Message]]:
        await self._seek_back_forgotten()
        stalled: set[TP] = set()
        async for tp, message in super().getmany(timeout):
            if self._is_changelog_tp(tp):  # table recovery reads changelogs its own way
                yield tp, message
                continue
            if tp in stalled:
                continue
            expected = self._expected.get(tp)
            if expected is not None and message.offset < expected:
                continue  # already delivered (fetched before a seek back)
            if expected is not None and message.offset > expected:
                log.warning(
                    "%s[%d]: got offset %d, expected %d; seeking back instead of skipping %d record(s)",
                    tp.topic,
                    tp.partition,
                    message.offset,
                    expected,
                    message.offset - expected,
                )
                stalled.add(tp)
                await self.seek(tp, expected)
                continue
            self._expected[tp] = message.offset + 1
            self._commit_start.setdefault(tp, message.offset)
            yield tp, message
            if self._handed.get(tp) != message.offset:  # abandoned: a rebalance began during the hand-over
                self._expected[tp] = message.offset
                stalled.add(tp)
        await self._seek_back_undelivered()

    def _new_offset(self, tp: TP) -> int | None:
        """faust's next commit offset for `tp`, or None while the next offset to commit is not
        acknowledged."""
        start = self._next_to_commit(tp)
        acked = self._acked[tp]
        if acked and start is not None and min(acked) > start:
            if self._redelivered.get(tp) != start:  # (once: it may be on its way again now)
                self._forgotten[tp] = start  # a later record is acknowledged: this one never will be
            return None
        offset = super()._new_offset(tp)
        if offset is not None:
            self._acked_through[tp] = offset
        return offset

    async def _commit(self, offsets: Mapping[TP, int]) -> bool:
        try:
            ok = await super()._commit(offsets)
        except Exception as exc:
            self.commit_health.record(False, f"{type(exc).__name__}: {exc}")
            raise
        self.commit_health.record(ok, "" if ok else "the commit was refused (rebalance or broker error)")
        return ok


class AcknowledgingProducer(faust_aiokafka.Producer):
    """faust's aiokafka producer whose `flush` returns only once every message sent through
    its buffer (`send_soon`: table changelogs) is acknowledged by the broker (see the module
    docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._unacknowledged: set[FutureMessage] = set()

    def send_soon(self, fut: FutureMessage) -> None:
        self._unacknowledged.add(fut)
        fut.add_done_callback(self._unacknowledged.discard)
        super().send_soon(fut)

    async def flush(self) -> None:
        await super().flush()
        deadline = time.monotonic() + self.app.delivery_timeout_s
        while self._unacknowledged:  # a failed send is reported to the sensors, which stop the worker
            _, pending = await asyncio.wait(set(self._unacknowledged), timeout=deadline - time.monotonic())
            if pending and time.monotonic() >= deadline:
                exit_undelivered(DeliveryFailed(f"{len(pending)} table changelog record(s) never acknowledged"))


class ContraflowTransport(faust_aiokafka.Transport):
    """faust's aiokafka transport with the gapless consumer and the acknowledging producer."""

    Consumer = GaplessConsumer
    Producer = AcknowledgingProducer
