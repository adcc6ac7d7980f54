"""Fleet contradiction-rate windows: level thresholds, EWMA trend, hysteresis, ids."""

from datetime import UTC, datetime, timedelta

from contraflow.models.events import ConflictStatus, NLIProbabilities, RateSample, ScoreEvent
from contraflow.streams.core.metrics.rates import RateMonitor, RateSettings, rate_samples, window_start

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def sample(minute: float, contradiction: bool, value: str = "model-a") -> RateSample:
    return RateSample(
        sample_id=f"s-{minute}-{contradiction}",
        dimension="model",
        value=value,
        pairs=1,
        contradictions=int(contradiction),
        ts=T0 + timedelta(minutes=minute),
    )


def window(minute: int, pairs: int, contradictions: int) -> list[RateSample]:
    """`pairs` samples spread over one minute, the first `contradictions` of them contradictions."""
    return [sample(minute + i / (pairs + 1), i < contradictions) for i in range(pairs)]


def run(monitor: RateMonitor, samples: list[RateSample], seconds: int = 60):
    state, alerts = None, []
    for s in samples:
        state, raised = monitor.observe(state, s, seconds)
        alerts += raised
    return state, alerts


def test_a_score_gives_one_sample_per_named_dimension_and_only_for_an_evaluated_pair() -> None:
    nli = NLIProbabilities(entailment=0.1, neutral=0.1, contradiction=0.8, verdict="contradiction")
    base = dict(
        score_id="sc-1", session_id="s", turn_index=3, event_id="e", advice="Take it.", evaluated_pairs=1,
        contradictions=1, k_conflict=1.0, status=ConflictStatus.failure, ts=T0,
    )  # fmt: skip
    scored = ScoreEvent(**base, model="m", tenant="t", pair_evaluated=True, pair_nli=nli, pair_contradiction=True)
    samples = rate_samples(scored)
    assert [(s.dimension, s.value, s.pairs, s.contradictions) for s in samples] == [
        ("model", "m", 1, 1),
        ("tenant", "t", 1, 1),
    ]
    assert rate_samples(ScoreEvent(**base, model="m", pair_evaluated=False)) == []
    assert [s.key for s in rate_samples(ScoreEvent(**base, model="m", pair_evaluated=True))] == ["model=m"]


def test_windows_are_aligned_to_the_epoch() -> None:
    assert window_start(datetime(2026, 3, 1, 12, 7, 59, tzinfo=UTC), 60) == datetime(2026, 3, 1, 12, 7, tzinfo=UTC)
    assert window_start(datetime(2026, 3, 1, 12, 59, tzinfo=UTC), 3600) == datetime(2026, 3, 1, 12, tzinfo=UTC)


def test_one_failure_alert_as_soon_as_the_window_crosses_then_one_recovery_when_a_clean_window_closes() -> None:
    monitor = RateMonitor(RateSettings(min_pairs=10))
    samples = window(0, 20, 10) + window(1, 20, 0) + [sample(2.5, False)]
    state, alerts = run(monitor, samples)
    assert [(a.previous_status, a.status) for a in alerts] == [("pass", "failure"), ("failure", "pass")]
    failure, recovery = alerts
    assert failure.pairs == 10 and failure.value == 1.0  # raised at the 10th pair, not at the window's end
    assert failure.threshold == 0.10 and failure.model == "model-a" and failure.window_seconds == 60
    assert recovery.window_start == T0 + timedelta(minutes=1) and recovery.value == 0.0
    assert "recovered" in recovery.message
    assert state.level == ConflictStatus.passing


def test_a_window_with_too_few_pairs_is_not_judged() -> None:
    monitor = RateMonitor(RateSettings(min_pairs=10))
    _, alerts = run(monitor, window(0, 9, 9) + window(1, 1, 0))
    assert alerts == []


def test_caution_between_the_thresholds_and_an_open_window_never_clears_an_alert() -> None:
    monitor = RateMonitor(RateSettings(min_pairs=20))
    # 2 of 25 = 0.08: caution; the next window's first 20 pairs are clean but it only counts once closed
    samples = window(0, 25, 2) + window(1, 20, 0)
    state, alerts = run(monitor, samples)
    assert [a.status for a in alerts] == ["caution"]
    assert state.level == ConflictStatus.caution


def test_ewma_trend_fires_on_a_sharp_rise_against_its_own_baseline_and_clears() -> None:
    monitor = RateMonitor(RateSettings(min_pairs=20, caution=0.95, failure=0.99, warmup=5, sigmas=3.0, min_rise=0.03))
    quiet = [1, 0, 1, 1, 0, 1]  # contradictions of 40 pairs: 0–0.025 a window
    samples = [s for minute, c in enumerate(quiet) for s in window(minute, 40, c)]
    samples += window(6, 40, 12)  # 0.30: far above the baseline
    samples += [*window(7, 40, 1), sample(8.5, False)]
    state, alerts = run(monitor, samples)
    assert [(a.kind, a.previous_status, a.status) for a in alerts] == [
        ("contradiction_rate_trend", "normal", "rising"),
        ("contradiction_rate_trend", "rising", "normal"),
    ]
    rising = alerts[0]
    assert rising.window_start == T0 + timedelta(minutes=6) and rising.value > rising.threshold
    assert state.baseline_mean < 0.05  # the rising window did not become the new normal


def test_no_trend_alert_before_the_baseline_is_warm() -> None:
    monitor = RateMonitor(RateSettings(min_pairs=20, caution=0.95, failure=0.99, warmup=5))
    samples = window(0, 40, 0) + window(1, 40, 0) + window(2, 40, 15) + [sample(3.5, False)]
    _, alerts = run(monitor, samples)
    assert alerts == []


def test_late_samples_are_not_counted() -> None:
    monitor = RateMonitor(RateSettings(min_pairs=10))
    state, _ = run(monitor, [*window(1, 5, 0), sample(0.5, True)])
    assert (state.pairs, state.contradictions) == (5, 0)


def test_replaying_the_same_samples_gives_the_same_alert_ids_and_models_do_not_mix() -> None:
    monitor = RateMonitor(RateSettings(min_pairs=10))
    samples = window(0, 20, 10) + window(1, 20, 0) + [sample(2.5, False)]
    _, first = run(monitor, samples)
    _, again = run(monitor, samples)
    assert [a.alert_id for a in first] == [a.alert_id for a in again]
    other = [s.model_copy(update={"value": "model-b"}) for s in samples]
    _, other_alerts = run(monitor, other)
    assert not {a.alert_id for a in first} & {a.alert_id for a in other_alerts}
