"""Rate windows count each sample once when the broker delivers it twice (a crash before
the offset commit, or an upstream agent that sent it again), and keep no marker forever."""

import asyncio
from datetime import UTC, datetime, timedelta

from contraflow.models.events import DriftAlert, RateSample
from contraflow.models.state import RateWindowState
from contraflow.streams.core.metrics.rate_ledger import MARKER, RateLedger, window_key
from contraflow.streams.core.metrics.rates import RateMonitor, RateSettings

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def sample(seconds: float, contradiction: bool = False) -> RateSample:
    return RateSample(
        sample_id=f"s-{seconds}",
        dimension="model",
        value="model-a",
        pairs=1,
        contradictions=int(contradiction),
        ts=T0 + timedelta(seconds=seconds),
    )


def fold_all(ledger: RateLedger, table: dict, samples: list[RateSample]) -> list[DriftAlert]:
    alerts: list[DriftAlert] = []

    async def publish(alert: DriftAlert) -> None:
        alerts.append(alert)

    async def run() -> None:
        for s in samples:
            await ledger.fold(table, s, publish)

    asyncio.run(run())
    return alerts


def state(table: dict, seconds: int) -> RateWindowState:
    return RateWindowState.model_validate(table[f"model=model-a|{seconds}"])


def ledger() -> RateLedger:
    return RateLedger(RateMonitor(RateSettings(min_pairs=4)), [60, 3600])


def test_a_sample_delivered_again_later_is_not_counted_again() -> None:
    stream = [sample(i, contradiction=i < 2) for i in range(10)]
    once, twice = {}, {}
    alerts_once = fold_all(ledger(), once, stream)
    alerts_twice = fold_all(ledger(), twice, stream[:6] + stream[:6] + stream[6:] + stream[3:5])
    assert (state(twice, 60).pairs, state(twice, 60).contradictions) == (10, 2)
    assert state(twice, 60) == state(once, 60) and state(twice, 3600) == state(once, 3600)
    assert [a.message for a in alerts_twice] == [a.message for a in alerts_once]


def test_a_crash_that_kept_the_window_states_but_lost_the_marker_does_not_count_twice() -> None:
    book, table = ledger(), {}
    fold_all(book, table, [sample(i) for i in range(3)])
    before = dict(table)
    fold_all(book, table, [sample(3, contradiction=True)])
    del table[f"{MARKER}|model=model-a|s-3"]  # the marker's changelog record did not survive
    fold_all(book, table, [sample(3, contradiction=True)])
    assert (state(table, 60).pairs, state(table, 3600).pairs) == (4, 4)

    # the crash came between the two windows' writes: the longer window's state is the old one
    table = dict(before)
    fold_all(book, table, [sample(3, contradiction=True)])
    table[window_key(sample(3), 3600)] = before[window_key(sample(3), 3600)]
    del table[f"{MARKER}|model=model-a|s-3"]
    fold_all(book, table, [sample(3, contradiction=True)])
    assert (state(table, 60).pairs, state(table, 3600).pairs) == (4, 4)
    assert state(table, 3600).contradictions == 1


def test_markers_are_dropped_once_their_samples_would_be_late_everywhere() -> None:
    table: dict = {}
    fold_all(ledger(), table, [sample(60 * minute) for minute in range(3 * 60)])  # three hours, one per minute
    markers = [key for key in table if key.startswith(MARKER)]
    assert 0 < len(markers) <= 2 * 60
    oldest_kept = min(table[key] for key in markers)
    assert oldest_kept >= (T0 + timedelta(hours=1)).timestamp()
    late = fold_all(ledger(), table, [sample(0, contradiction=True)])  # its marker is gone, and it is late
    assert late == [] and state(table, 3600).contradictions == 0


def test_pruning_one_model_leaves_a_model_whose_name_extends_it_alone() -> None:
    table: dict = {}
    other = sample(0).model_copy(update={"value": "model-a|b", "sample_id": "other"})
    fold_all(ledger(), table, [other])
    fold_all(ledger(), table, [sample(60 * minute) for minute in range(3 * 60)])
    assert f"{MARKER}|model=model-a|b|other" in table
