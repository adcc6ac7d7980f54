"""Contradiction series by model and tenant on /metrics, from what the turn pipeline publishes."""

from datetime import UTC, datetime

import numpy as np
from prometheus_client.parser import text_string_to_metric_families

from contraflow.models.events import Role, TurnEvent
from contraflow.streams.core.turns import TurnPipeline, TurnSettings
from contraflow.streams.runtime.observability.metrics import WorkerMetrics

ENTAIL, CONTRA = [0.9, 0.08, 0.02], [0.02, 0.03, 0.95]


async def never_and_stop_contradict(pairs):
    return np.array([CONTRA if "Never" in h or "Never" in p else ENTAIL for p, h in pairs], dtype=np.float32)


def turn(session: str, index: int, text: str, model: str, tenant: str | None = "clinic-a") -> TurnEvent:
    return TurnEvent(
        event_id=f"{session}-{index}",
        session_id=session,
        turn_index=index,
        role=Role.assistant,
        text=text,
        ts=datetime(2026, 11, 24, 9, index, tzinfo=UTC),
        model=model,
        tenant=tenant,
    )


def samples(metrics: WorkerMetrics) -> dict[tuple[str, frozenset], float]:
    out = {}
    for family in text_string_to_metric_families(metrics.exposition().decode()):
        for sample in family.samples:
            out[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return out


async def run_session(pipeline: TurnPipeline, metrics: WorkerMetrics, stored: dict, texts: list[str], **who) -> None:
    state = None
    session = f"s-{len(stored)}"
    for index, text in enumerate(texts):
        outcome = await pipeline.process(state, turn(session, index, text, **who))
        state = outcome.state
        metrics.verdicts.turn_outputs(outcome.scores, outcome.conflicts)
    stored[session] = {"state": state.model_dump(mode="json")}


async def test_pairs_contradictions_conflicts_and_session_status_per_model_and_tenant() -> None:
    metrics, stored = WorkerMetrics(label_cap=2), {}
    metrics.verdicts.watch_sessions(lambda: stored)
    pipeline = TurnPipeline(never_and_stop_contradict, TurnSettings(verdict="regimen", stride=1))
    await run_session(pipeline, metrics, stored, ["Take aspirin daily.", "Never take aspirin."], model="m1")
    await run_session(pipeline, metrics, stored, ["Take aspirin daily.", "Keep taking aspirin."], model="m2")
    await run_session(pipeline, metrics, stored, ["Take aspirin.", "Keep taking it."], model="m3", tenant=None)
    got = samples(metrics)

    def value(name: str, **labels: str) -> float:
        return got.get((name, frozenset(labels.items())), 0.0)

    m1, m2 = {"model": "m1", "tenant": "clinic-a"}, {"model": "m2", "tenant": "clinic-a"}
    assert value("contraflow_turn_pairs_evaluated_total", **m1) == value("contraflow_turn_pairs_evaluated_total", **m2)
    assert value("contraflow_turn_pairs_evaluated_total", **m1) == 1
    assert value("contraflow_turn_contradictions_total", **m1) == 1
    assert value("contraflow_turn_contradictions_total", **m2) == 0
    conflict = {**m1, "kind": "turn_self_contradiction", "severity": "high", "conflict_type": "factual"}
    assert value("contraflow_conflicts_total", **conflict) == 1
    assert value("contraflow_sessions_by_status", **m1, status="failure") == 1
    assert value("contraflow_sessions_by_status", **m2, status="pass") == 1
    # a third model is past the cap of two: it counts as "other"; a turn without a tenant as "unknown"
    assert value("contraflow_turn_pairs_evaluated_total", model="other", tenant="unknown") == 1
