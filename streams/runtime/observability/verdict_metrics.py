"""Contradiction metrics by model and tenant, for "alert me when model X starts
contradicting itself" without consuming `contraflow.alerts`.

Series (every one labelled `model` and `tenant`; a turn without one says "unknown"):

- `contraflow_turn_pairs_evaluated_total`: K_Conflict's evaluated adjacent pairs;
- `contraflow_turn_contradictions_total`: those judged a contradiction (K_Conflict's
  numerator, so rate(contradictions) / rate(evaluated) is the fleet's K_Conflict);
- `contraflow_turn_revisions_total`: changes of advice justified by a new user fact;
- `contraflow_conflicts_total`: conflict events by `kind`, `severity` and `conflict_type`
  (turn and knowledge conflicts alike);
- `contraflow_sessions_by_status`: the sessions this worker holds, by K_Conflict status,
  read from the sessions table at each scrape (right after a restart too).

Label values are bounded: the first `cap` distinct models (and tenants) a worker sees get
their own label, every later one counts as "other", so a misbehaving producer cannot
blow up the series count.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from prometheus_client import CollectorRegistry, Counter
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from contraflow.models.events import ConflictEvent, ScoreEvent

UNKNOWN = "unknown"
OTHER = "other"


class LabelCap:
    """At most `cap` distinct values of one label; later ones become "other"."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.seen: set[str] = set()

    def __call__(self, value: str | None) -> str:
        value = value or UNKNOWN
        if value in self.seen:
            return value
        if len(self.seen) < self.cap:
            self.seen.add(value)
            return value
        return OTHER


class VerdictMetrics:
    """The contradiction series of one worker, in `registry`."""

    def __init__(self, registry: CollectorRegistry, cap: int) -> None:
        self.models = LabelCap(cap)
        self.tenants = LabelCap(cap)
        who = ["model", "tenant"]
        self.evaluated = Counter(
            "contraflow_turn_pairs_evaluated",
            "adjacent assistant-turn pairs K_Conflict evaluated",
            who,
            registry=registry,
        )
        self.contradictions = Counter(
            "contraflow_turn_contradictions", "evaluated pairs judged a contradiction", who, registry=registry
        )
        self.revisions = Counter(
            "contraflow_turn_revisions", "changes of advice justified by a new user fact", who, registry=registry
        )
        self.conflicts = Counter(
            "contraflow_conflicts",
            "conflict events published",
            [*who, "kind", "severity", "conflict_type"],
            registry=registry,
        )
        self.sessions: Callable[[], Mapping[Any, Any]] = dict  # the turn agent's table, once it exists
        registry.register(_SessionStatus(self))

    def labels_for(self, model: str | None, tenant: str | None) -> dict[str, str]:
        """The (bounded) model and tenant labels of an event."""
        return {"model": self.models(model), "tenant": self.tenants(tenant)}

    def turn_outputs(self, scores: Iterable[ScoreEvent], conflicts: Iterable[ConflictEvent]) -> None:
        """Count what one turn published."""
        for score in scores:
            who = self.labels_for(score.model, score.tenant)
            if score.pair_evaluated:
                self.evaluated.labels(**who).inc()
            if score.pair_contradiction:
                self.contradictions.labels(**who).inc()
        self.conflict_events(conflicts)

    def conflict_events(self, conflicts: Iterable[ConflictEvent]) -> None:
        for event in conflicts:
            who = self.labels_for(event.model, event.tenant)
            if event.kind == "turn_revision":
                self.revisions.labels(**who).inc()
            self.conflicts.labels(
                **who, kind=event.kind, severity=str(event.severity), conflict_type=event.conflict_type
            ).inc()

    def watch_sessions(self, sessions: Callable[[], Mapping[Any, Any]]) -> None:
        """Export `contraflow_sessions_by_status` from these stored sessions at each scrape."""
        self.sessions = sessions


class _SessionStatus(Collector):
    def __init__(self, metrics: VerdictMetrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            "contraflow_sessions_by_status",
            "sessions this worker holds, by K_Conflict status",
            labels=["model", "tenant", "status"],
        )
        counts: dict[tuple[str, str, str], int] = {}
        for stored in list(self.metrics.sessions().values()):
            state = (stored or {}).get("state") or {}
            who = self.metrics.labels_for(state.get("model"), state.get("tenant"))
            key = (who["model"], who["tenant"], str(state.get("status", "pass")))
            counts[key] = counts.get(key, 0) + 1
        for labels, count in sorted(counts.items()):
            family.add_metric(list(labels), count)
        yield family
