"""The conversation-turn pipeline: plain Python, no faust.

`TurnPipeline.process(state, turn)` takes a session's state and one turn and returns the
new state and the events to publish. The agent stores the state and sends the events;
replays and tests call the same code directly.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from models.events import (
    Claim,
    ConflictEvent,
    ConflictStatus,
    DriftAlert,
    NLIProbabilities,
    Role,
    ScoreEvent,
    TurnEvent,
)
from models.ids import stable_id
from models.state import AdviceItem, SessionState
from streams.extract.advice import extract_advice
from streams.metrics.conflict import conflict_status, is_sampled_pair

ScoreFn = Callable[[Sequence[tuple[str, str]]], Awaitable[np.ndarray]]


@dataclass(frozen=True)
class TurnSettings:
    """The part of the settings the turn pipeline uses."""

    stride: int = 2
    caution: float = 0.05
    failure: float = 0.10
    advice_history: int = 20
    dedup_window: int = 256


@dataclass
class TurnOutcome:
    """What one turn produced; `duplicate` means it was already processed."""

    state: SessionState
    duplicate: bool = False
    scores: list[ScoreEvent] = field(default_factory=list)
    conflicts: list[ConflictEvent] = field(default_factory=list)
    alerts: list[DriftAlert] = field(default_factory=list)


def probabilities(row: np.ndarray) -> NLIProbabilities:
    """One (entailment, neutral, contradiction) row as an event field."""
    return NLIProbabilities(entailment=float(row[0]), neutral=float(row[1]), contradiction=float(row[2]))


def is_duplicate(state: SessionState, turn: TurnEvent) -> bool:
    """A repeated event id, or a turn index at or below the last one processed."""
    return turn.event_id in state.recent_event_ids or turn.turn_index <= state.last_turn_index


class TurnPipeline:
    """Scores assistant turns of one session at a time; NLI through `score`."""

    def __init__(self, score: ScoreFn, settings: TurnSettings | None = None) -> None:
        self.score = score
        self.settings = settings or TurnSettings()

    async def process(self, state: SessionState | None, turn: TurnEvent) -> TurnOutcome:
        state = state.model_copy(deep=True) if state else SessionState(session_id=turn.session_id)
        if is_duplicate(state, turn):
            return TurnOutcome(state=state, duplicate=True)

        outcome = TurnOutcome(state=state)
        state.turn_count += 1
        state.last_turn_index = turn.turn_index
        state.recent_event_ids = [*state.recent_event_ids, turn.event_id][-self.settings.dedup_window :]
        state.tenant = turn.tenant or state.tenant
        state.model = turn.model or state.model
        if turn.case is not None:
            state.case = turn.case
        if turn.role == Role.assistant:
            await self._assistant_turn(state, turn, outcome)
        return outcome

    async def _assistant_turn(self, state: SessionState, turn: TurnEvent, outcome: TurnOutcome) -> None:
        advice = AdviceItem(turn_index=turn.turn_index, event_id=turn.event_id, text=extract_advice(turn.text))
        previous = state.previous_advice
        state.assistant_turns += 1
        pair_number = state.assistant_turns - 1
        evaluate = (
            previous is not None
            and is_sampled_pair(pair_number, self.settings.stride)
            and bool(previous.text)
            and bool(advice.text)
        )
        pair_nli: NLIProbabilities | None = None
        if evaluate:
            assert previous is not None
            row = (await self.score([(previous.text, advice.text)]))[0]
            pair_nli = probabilities(row)
            state.evaluated_pairs += 1
            if pair_nli.verdict == "contradiction":
                state.contradictions += 1
                outcome.conflicts.append(self._conflict(state, previous, advice, turn, pair_nli))

        state.previous_advice = advice
        if advice.text:
            state.advice_history = [*state.advice_history, advice][-self.settings.advice_history :]

        status = conflict_status(state.k_conflict, self.settings.caution, self.settings.failure)
        if status != state.status:
            outcome.alerts.append(self._status_alert(state, turn, state.status, status))
            state.status = status
        outcome.scores.append(
            ScoreEvent(
                score_id=stable_id("score", state.session_id, turn.event_id, turn.turn_index),
                session_id=state.session_id,
                turn_index=turn.turn_index,
                event_id=turn.event_id,
                tenant=state.tenant,
                model=state.model,
                advice=advice.text,
                pair_evaluated=evaluate,
                pair_nli=pair_nli,
                evaluated_pairs=state.evaluated_pairs,
                contradictions=state.contradictions,
                k_conflict=state.k_conflict,
                status=status,
                ts=turn.ts,
            )
        )

    def _conflict(
        self, state: SessionState, earlier: AdviceItem, later: AdviceItem, turn: TurnEvent, nli: NLIProbabilities
    ) -> ConflictEvent:
        return ConflictEvent(
            conflict_id=stable_id("conflict", state.session_id, earlier.event_id, later.event_id),
            kind="turn_self_contradiction",
            scope="adjacent",
            session_id=state.session_id,
            tenant=state.tenant,
            model=state.model,
            claim_a=Claim(text=earlier.text, source="turn", turn_index=earlier.turn_index, event_id=earlier.event_id),
            claim_b=Claim(text=later.text, source="turn", turn_index=later.turn_index, event_id=later.event_id),
            nli_ab=nli,
            severity="high" if nli.contradiction >= 0.9 else "medium",
            detected_at=turn.ts,
        )

    def _status_alert(
        self, state: SessionState, turn: TurnEvent, previous: ConflictStatus, status: ConflictStatus
    ) -> DriftAlert:
        rate = state.k_conflict or 0.0
        threshold = (
            self.settings.failure
            if status == ConflictStatus.failure or previous == ConflictStatus.failure
            else self.settings.caution
        )
        return DriftAlert(
            alert_id=stable_id("alert", state.session_id, "k_conflict_status", turn.event_id, status.value),
            kind="k_conflict_status",
            session_id=state.session_id,
            tenant=state.tenant,
            model=state.model,
            turn_index=turn.turn_index,
            metric="k_conflict",
            value=rate,
            threshold=threshold,
            previous_status=previous.value,
            status=status.value,
            message=(
                f"K_Conflict {rate:.3f} ({state.contradictions}/{state.evaluated_pairs} pairs): "
                f"{previous.value} -> {status.value}"
            ),
            ts=turn.ts,
        )
