"""Fleet contradiction rates per model and per tenant, over event-time tumbling windows.

Each window counts the evaluated adjacent pairs (seed 000's K_Conflict pairs) and their
contradictions. Two detectors judge it, each with hysteresis (an alert only when its
state changes, a recovery alert when it clears):

* level: the window's rate against seed 000's thresholds (pass < 0.05, caution
  0.05–0.10, failure > 0.10), once the window holds `min_pairs`. A worse level fires as
  soon as the open window reaches it; a better one only when a window closes there, so a
  window that starts clean cannot clear an alert its own later pairs would raise again.
* trend: an EWMA control chart of the closed windows' rates. The baseline is an
  exponentially weighted mean m and variance v (weight `alpha` on the newest window);
  a window is "rising" when its rate exceeds m + `sigmas`·sqrt(v) and m + `min_rise`,
  judged only after `warmup` windows built the baseline. A rising window does not enter
  the baseline, so a lasting rise keeps alerting until it is gone instead of becoming
  the new normal.

A window closes when the first sample of a later window arrives; a model that goes quiet
keeps its last state (no data is not a recovery). Samples older than the open window are
late and are not counted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from contraflow.models.events import ConflictStatus, DriftAlert, RateSample, ScoreEvent
from contraflow.models.ids import stable_id
from contraflow.models.state import RateWindowState
from contraflow.streams.core.metrics.conflict import conflict_status
from contraflow.streams.settings import Settings, default

SEVERITY = {ConflictStatus.passing: 0, ConflictStatus.caution: 1, ConflictStatus.failure: 2}
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class RateSettings:
    """The windowed detectors' settings (defaults: streams/settings.py)."""

    caution: float = default("k_conflict_caution")
    failure: float = default("k_conflict_failure")
    min_pairs: int = default("rate_min_pairs")
    alpha: float = default("rate_ewma_alpha")
    sigmas: float = default("rate_ewma_sigmas")
    min_rise: float = default("rate_ewma_min_rise")
    warmup: int = default("rate_ewma_warmup")


def rate_settings(settings: Settings) -> RateSettings:
    """The windowed contradiction-rate detectors' part of the settings."""
    return RateSettings(
        caution=settings.k_conflict_caution,
        failure=settings.k_conflict_failure,
        min_pairs=settings.rate_min_pairs,
        alpha=settings.rate_ewma_alpha,
        sigmas=settings.rate_ewma_sigmas,
        min_rise=settings.rate_ewma_min_rise,
        warmup=settings.rate_ewma_warmup,
    )


def rate_samples(score: ScoreEvent) -> list[RateSample]:
    """The samples one score contributes: its adjacent pair, under its model and its tenant."""
    if not score.pair_evaluated:
        return []
    dimensions = (("model", score.model), ("tenant", score.tenant))
    return [
        RateSample(
            sample_id=stable_id("rate-sample", score.score_id, dimension),
            dimension=dimension,
            value=value,
            pairs=1,
            contradictions=int(score.pair_contradiction),
            ts=score.ts,
        )
        for dimension, value in dimensions
        if value
    ]


def window_start(ts: datetime, seconds: int) -> datetime:
    """Start of the tumbling window of length `seconds` that holds `ts` (aligned to the epoch)."""
    aware = ts if ts.tzinfo else ts.replace(tzinfo=UTC)
    elapsed = math.floor((aware - EPOCH).total_seconds())
    return EPOCH + timedelta(seconds=elapsed - elapsed % seconds)


class RateMonitor:
    """Folds samples into window states and says which alerts they raise."""

    def __init__(self, settings: RateSettings) -> None:
        self.settings = settings

    def observe(
        self, state: RateWindowState | None, sample: RateSample, window_seconds: int
    ) -> tuple[RateWindowState, list[DriftAlert]]:
        start = window_start(sample.ts, window_seconds)
        if state is None:
            state = RateWindowState(
                dimension=sample.dimension, value=sample.value, window_seconds=window_seconds, window_start=start
            )
        else:
            state = state.model_copy()
        alerts: list[DriftAlert] = []
        if start < state.window_start:
            return state, alerts  # late: its window is closed
        if start > state.window_start:
            alerts += self._close(state, sample.ts)
            state.window_start, state.pairs, state.contradictions = start, 0, 0
        state.pairs += sample.pairs
        state.contradictions += sample.contradictions
        alerts += self._judge_open(state, sample.ts)
        return state, alerts

    def _rate(self, state: RateWindowState) -> float | None:
        return state.contradictions / state.pairs if state.pairs >= self.settings.min_pairs else None

    def _rising_limit(self, state: RateWindowState) -> float | None:
        if state.baseline_windows < self.settings.warmup:
            return None
        spread = self.settings.sigmas * math.sqrt(state.baseline_var)
        return state.baseline_mean + max(spread, self.settings.min_rise)

    def _judge_open(self, state: RateWindowState, at: datetime) -> list[DriftAlert]:
        """Only escalations, while the window is still filling."""
        rate = self._rate(state)
        if rate is None:
            return []
        alerts = []
        level = conflict_status(rate, self.settings.caution, self.settings.failure)
        if SEVERITY[level] > SEVERITY[state.level]:
            alerts.append(self._level_alert(state, level, rate, at))
        limit = self._rising_limit(state)
        if limit is not None and state.trend == "normal" and rate > limit:
            alerts.append(self._trend_alert(state, "rising", rate, limit, at))
        return alerts

    def _close(self, state: RateWindowState, at: datetime) -> list[DriftAlert]:
        """Judge the finished window both ways, then fold a normal window into the baseline."""
        rate = self._rate(state)
        if rate is None:
            return []
        alerts = []
        level = conflict_status(rate, self.settings.caution, self.settings.failure)
        if level != state.level:
            alerts.append(self._level_alert(state, level, rate, at))
        limit = self._rising_limit(state)
        rising = limit is not None and rate > limit
        if limit is not None and rising != (state.trend == "rising"):
            alerts.append(self._trend_alert(state, "rising" if rising else "normal", rate, limit, at))
        if not rising:
            self._fold(state, rate)
        return alerts

    def _fold(self, state: RateWindowState, rate: float) -> None:
        if state.baseline_windows == 0:
            state.baseline_mean, state.baseline_var = rate, 0.0
        else:
            alpha, delta = self.settings.alpha, rate - state.baseline_mean
            state.baseline_mean += alpha * delta
            state.baseline_var = (1 - alpha) * (state.baseline_var + alpha * delta * delta)
        state.baseline_windows += 1

    def _level_alert(self, state: RateWindowState, level: ConflictStatus, rate: float, at: datetime) -> DriftAlert:
        previous, state.level = state.level, level
        threshold = self.settings.failure if level == ConflictStatus.failure else self.settings.caution
        if level == ConflictStatus.passing:
            what = f"recovered: rate {rate:.3f} back below {threshold}"
        else:
            what = f"rate {rate:.3f} crossed the {level.value} threshold {threshold}"
        return self._alert(state, "contradiction_rate", previous.value, level.value, rate, threshold, what, at)

    def _trend_alert(self, state: RateWindowState, trend: str, rate: float, limit: float, at: datetime) -> DriftAlert:
        previous, state.trend = state.trend, trend  # type: ignore[assignment]
        if trend == "rising":
            what = f"rate {rate:.3f} rose above its baseline {state.baseline_mean:.3f} (limit {limit:.3f})"
        else:
            what = f"rate {rate:.3f} is back within its baseline's limit {limit:.3f}"
        return self._alert(state, "contradiction_rate_trend", previous, trend, rate, limit, what, at)

    def _alert(
        self,
        state: RateWindowState,
        kind: str,
        previous: str,
        status: str,
        rate: float,
        threshold: float,
        what: str,
        at: datetime,
    ) -> DriftAlert:
        window = state.window_start.isoformat()
        return DriftAlert(
            alert_id=stable_id("alert", kind, state.dimension, state.value, state.window_seconds, window, status),
            kind=kind,
            model=state.value if state.dimension == "model" else None,
            tenant=state.value if state.dimension == "tenant" else None,
            metric=f"contradiction_rate_{state.window_seconds}s",
            value=rate,
            threshold=threshold,
            previous_status=previous,
            status=status,
            message=f"{state.dimension} {state.value}, {state.window_seconds} s window from {window}: {what} "
            f"({state.contradictions} of {state.pairs} pairs)",
            ts=at,
            window_seconds=state.window_seconds,
            window_start=state.window_start,
            pairs=state.pairs,
        )
