"""The rate agents: scores → per-model and per-tenant samples (re-keyed, so one worker
owns each model's windows) → windowed contradiction rates → rate alerts.

The window states live in a faust table keyed by `dimension=value|seconds`, beside the
markers of the samples they counted (streams/core/metrics/rate_ledger.py)."""

from __future__ import annotations

import faust

from contraflow.agents.records import Emit, Record, attach_record_agent, json_table
from contraflow.models.events import DriftAlert, RateSample, ScoreEvent
from contraflow.streams.core.deadletters import decode_event
from contraflow.streams.core.metrics.rate_ledger import RateLedger
from contraflow.streams.core.metrics.rates import RateMonitor, rate_samples
from contraflow.streams.runtime.observability.metrics import WorkerMetrics
from contraflow.streams.settings import Settings
from contraflow.topics.catalog import ALERTS, RATE_SAMPLES, RATES_TABLE, SCORES


def attach_rate_agents(
    app: faust.App, monitor: RateMonitor, settings: Settings, emit: Emit, metrics: WorkerMetrics | None = None
) -> None:
    windows = json_table(app, RATES_TABLE, settings)
    ledger = RateLedger(monitor, settings.rate_windows_s)

    async def sample_score(record: Record) -> None:
        for sample in rate_samples(decode_event(record.value, ScoreEvent)):
            await emit(RATE_SAMPLES, sample.key.encode(), sample)

    async def watch_rate(record: Record) -> None:
        sample = decode_event(record.value, RateSample)

        async def publish(alert: DriftAlert) -> None:
            await emit(ALERTS, sample.key.encode(), alert)

        await ledger.fold(windows, sample, publish)

    attach_record_agent(app, SCORES, "contraflow.rates.samples", sample_score, settings, emit, metrics)
    attach_record_agent(app, RATE_SAMPLES, "contraflow.rates", watch_rate, settings, emit, metrics)
