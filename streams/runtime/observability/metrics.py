"""The worker's Prometheus metrics (prometheus-client), in a registry of their own.

What is measured: events in and out per topic, dead letters by topic and reason, NLI
forward-pass sizes and durations, latency from a record's broker timestamp to the end
of its handling (outputs sent), time to handle a record, sessions held by this worker,
and consumer lag per input partition where the broker reports a high-water mark; and the
contradiction series by model and tenant (`streams.observability.verdict_metrics`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from contraflow.streams.runtime.observability.verdict_metrics import VerdictMetrics
from contraflow.streams.settings import default

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256)


class WorkerMetrics:
    """Every metric a worker exports; `exposition()` renders them for /metrics."""

    # aiohttp takes the charset apart from the content type; the exposition is UTF-8
    content_type = ";".join(part for part in CONTENT_TYPE_LATEST.split(";") if "charset" not in part)

    def __init__(self, label_cap: int = default("metrics_label_cap")) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.verdicts = VerdictMetrics(r, label_cap)
        self.events_in = Counter("contraflow_events_in", "input records received", ["topic"], registry=r)
        self.events_out = Counter("contraflow_events_out", "events sent", ["topic"], registry=r)
        self.dead_letters = Counter(
            "contraflow_dead_letters", "input records sent to the dead-letter topic", ["topic", "reason"], registry=r
        )
        self.nli_batch_size = Histogram(
            "contraflow_nli_batch_size", "pairs per NLI forward pass", buckets=BATCH_BUCKETS, registry=r
        )
        self.nli_batch_seconds = Histogram(
            "contraflow_nli_batch_seconds", "duration of one NLI forward pass", buckets=LATENCY_BUCKETS, registry=r
        )
        self.record_latency = Histogram(
            "contraflow_record_latency_seconds",
            "from the record's broker timestamp to the end of its handling (its events sent)",
            ["topic"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.handle_seconds = Histogram(
            "contraflow_handle_seconds", "time to handle one record", ["topic"], buckets=LATENCY_BUCKETS, registry=r
        )
        self.sessions = Gauge("contraflow_sessions", "conversation sessions held by this worker", registry=r)
        self.consumer_lag = Gauge(
            "contraflow_consumer_lag",
            "records behind the partition's high-water mark",
            ["topic", "partition"],
            registry=r,
        )

    def observe_nli_batch(self, size: int, seconds: float) -> None:
        self.nli_batch_size.observe(size)
        self.nli_batch_seconds.observe(seconds)

    def count_sessions(self, count: Callable[[], int]) -> None:
        self.sessions.set_function(count)

    def received(self, highwater: Callable[[str, int], int | None], topic: str, partition: int, offset: int) -> None:
        """A record came in; `highwater` reports the partition's end offset when the broker has told it."""
        self.events_in.labels(topic=topic).inc()
        end = highwater(topic, partition)
        if end is not None:
            self.consumer_lag.labels(topic=topic, partition=str(partition)).set(max(0, end - offset - 1))

    def handled(self, topic: str, broker_timestamp: float | None, seconds: float) -> None:
        self.handle_seconds.labels(topic=topic).observe(seconds)
        if broker_timestamp:
            self.record_latency.labels(topic=topic).observe(max(0.0, time.time() - broker_timestamp))

    def exposition(self) -> bytes:
        return generate_latest(self.registry)
