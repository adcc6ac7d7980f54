"""Each rate sample counted once, whatever the broker delivers twice.

A sample reaches the rate agent twice in two ways: the agent crashed after its window
states were written but before its input offset was committed (the same record comes
again), or an agent upstream crashed after sending the sample or its score (the same
sample comes again as a new record, later). Counted twice, a window's rate and its alerts
would differ from a run without the crash.

The ledger keeps the window states and one marker per counted sample in one table, and
writes them in this order for each sample: the alerts (acknowledged), each window's state
(naming the sample as the last it counted), then the sample's marker. A table's writes
made for one input record go to that record's changelog partition, in order, so a state
that survived a crash says whether its window counted the sample even when the marker did
not survive. A marker is kept until its sample is late for every window length (then it
could not be counted anyway); markers are pruned when a window of the longest length
closes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from typing import Any

from contraflow.models.events import DriftAlert, RateSample
from contraflow.models.state import RateWindowState
from contraflow.streams.core.metrics.rates import RateMonitor

Publish = Callable[[DriftAlert], Awaitable[None]]
MARKER = "counted"


def window_key(sample: RateSample, seconds: int) -> str:
    """The table key of the sample's model's (or tenant's) windows of one length."""
    return f"{sample.key}|{seconds}"


def markers_of(sample: RateSample) -> str:
    """What the marker keys of the sample's model (or tenant) start with, up to the last "|"."""
    return f"{MARKER}|{sample.key}"


class RateLedger:
    """Folds samples into the window states held in `table` (a faust table or a dict)."""

    def __init__(self, monitor: RateMonitor, windows_s: Sequence[int]) -> None:
        self.monitor = monitor
        self.windows_s = list(windows_s)
        self.longest = max(self.windows_s)

    async def fold(self, table: MutableMapping[str, Any], sample: RateSample, publish: Publish) -> None:
        marker = f"{markers_of(sample)}|{sample.sample_id}"  # sample ids hold no "|"
        if table.get(marker) is not None:
            return
        for seconds in self.windows_s:
            key = window_key(sample, seconds)
            stored = table.get(key)
            previous = RateWindowState.model_validate(stored) if stored else None
            if previous is not None and previous.last_sample_id == sample.sample_id:
                continue  # counted before a crash that lost the marker
            state, alerts = self.monitor.observe(previous, sample, seconds)
            for alert in alerts:
                await publish(alert)
            state.last_sample_id = sample.sample_id
            table[key] = state.model_dump(mode="json")
            if seconds == self.longest and previous is not None and state.window_start > previous.window_start:
                self._forget_late(table, sample)
        table[marker] = sample.ts.timestamp()

    def _forget_late(self, table: MutableMapping[str, Any], sample: RateSample) -> None:
        """Drop this model's (or tenant's) markers of samples every window would now call late.
        Only keys of the sample's own dimension value: they live in this record's partition."""
        oldest_counted = sample.ts.timestamp() - self.longest
        owner = markers_of(sample)  # compared whole: model "a" must not take model "a|b"'s markers
        late = [
            key
            for key, ts in table.items()
            if key.startswith(MARKER) and key.rpartition("|")[0] == owner and ts is not None and ts < oldest_counted
        ]
        for key in late:
            del table[key]
