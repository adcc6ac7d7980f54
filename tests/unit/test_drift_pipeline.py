"""Longitudinal drift in the turn pipeline, with the real entity extractor (rules mode)
and the real sentence embedder; NLI verdicts are scripted."""

import asyncio
from datetime import UTC, datetime

import pytest

from contraflow.models.events import Case, Role, TurnEvent
from contraflow.streams.core.embeddings import SentenceEmbedder
from contraflow.streams.core.extract.entities import load_entity_extractor
from contraflow.streams.core.turns import TurnPipeline, TurnServices, TurnSettings
from tests.fixtures import ScriptedNLI, run

CASE = Case(
    critical_entities=["asthma", "salbutamol", "penicillin allergy", "insomnia"],
    patient_summary="Student with asthma and insomnia, uses salbutamol, allergic to penicillin, has migraine.",
    target_plan="Use the salbutamol inhaler as needed and improve sleep.",
)


@pytest.fixture(scope="module")
def services() -> TurnServices:
    extractor, embedder = load_entity_extractor("rules"), SentenceEmbedder()

    async def extract(text: str) -> list[str]:
        return await asyncio.to_thread(extractor.extract, text)

    async def embed(texts: list[str]):
        return await asyncio.to_thread(embedder.embed, texts)

    return TurnServices(score=ScriptedNLI({}), extract_entities=extract, embed=embed)


def assistant(i: int, text: str, case: Case | None = None, summary: str | None = None) -> TurnEvent:
    return TurnEvent(
        event_id=f"d-{i}",
        session_id="d",
        turn_index=i,
        role=Role.assistant,
        text=text,
        summary=summary,
        ts=datetime(2026, 11, 22, 9, i, tzinfo=UTC),
        case=case,
    )


async def test_gold_sets_come_from_the_case(services: TurnServices) -> None:
    state, _ = await run(TurnPipeline(services), [assistant(0, "Hello.", case=CASE)])
    assert state.gold_critical == ["asthma", "insomnia", "penicillin allergy", "salbutamol"]
    assert set(state.gold_critical) < set(state.gold_extended)
    assert "migraine" in state.gold_extended


async def test_recall_per_turn_counts_only_unnegated_mentions(services: TurnServices) -> None:
    turns = [
        assistant(
            0, "Your asthma and insomnia matter; keep salbutamol handy given your penicillin allergy.", case=CASE
        ),
        assistant(1, "Your asthma is better. You have no insomnia now."),
    ]
    state, outcomes = await run(TurnPipeline(services), turns)
    first, second = (o.scores[0].entities_critical for o in outcomes)
    assert first.recall == 1.0 and first.gold == 4
    assert second.recall == 0.25 and second.matched == ["asthma"]
    assert state.curves["recall_critical"] == [1.0, 0.25]


async def test_summary_is_scored_when_sent(services: TurnServices) -> None:
    turn = assistant(0, "Asthma and salbutamol noted.", case=CASE, summary="asthma, salbutamol")
    _, [outcome] = await run(TurnPipeline(services), [turn])
    assert outcome.scores[0].entities_critical.recall == 0.5


async def test_recall_gate_at_t10_and_slope_alerts(services: TurnServices) -> None:
    full = "Your asthma, insomnia, salbutamol and penicillin allergy are all noted."
    texts = [full] * 4 + ["Your asthma is noted."] * 6
    turns = [assistant(i, t, case=CASE if i == 0 else None) for i, t in enumerate(texts)]
    settings = TurnSettings(recall_turn=10, recall_gate=0.7, slope_threshold=-0.05, slope_min_turns=3)
    _state, outcomes = await run(TurnPipeline(services, settings), turns)
    alerts = [(o.scores[0].assistant_turn, a.kind, a.status) for o in outcomes for a in o.alerts]
    assert (10, "recall_gate", "failure") in alerts
    slope_alerts = [a for a in alerts if a[1] == "drift_slope"]
    assert slope_alerts[0][2] == "drifting"  # fires once on the way down
    assert len([a for a in slope_alerts if a[2] == "drifting"]) == 1
    last = outcomes[-1].scores[0]
    assert last.recall_at_t10 == 0.25 and last.drift_slope < -0.05
    assert outcomes[8].scores[0].recall_at_t10 is None  # not before T10


async def test_alignment_only_with_a_plan(services: TurnServices) -> None:
    _, [with_plan] = await run(TurnPipeline(services), [assistant(0, "Use your salbutamol inhaler when needed.", CASE)])
    no_plan = CASE.model_copy(update={"target_plan": None})
    _, [without] = await run(
        TurnPipeline(services), [assistant(0, "Use your salbutamol inhaler when needed.", no_plan)]
    )
    assert with_plan.scores[0].alignment > 0.5
    assert without.scores[0].alignment is None


async def test_no_case_means_no_entity_metrics(services: TurnServices) -> None:
    _, [outcome] = await run(TurnPipeline(services), [assistant(0, "Take your salbutamol.")])
    score = outcome.scores[0]
    assert score.entities_critical is None and score.recall_at_t10 is None and score.alignment is None
