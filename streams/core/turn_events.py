"""What a turn publishes besides its score: the conflict event of a contradicting pair, and
the drift alerts when a session's K_Conflict status, its Recall@T10 safety gate (seed 003)
or its drift slope changes. Plain functions of the session state and the turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from contraflow.models.events import Claim, ConflictEvent, ConflictStatus, DriftAlert, TurnEvent
from contraflow.models.ids import stable_id
from contraflow.models.state import AdviceItem, SessionState, UserFact
from contraflow.streams.core.metrics.drift import drift_slope, recall_at
from contraflow.streams.core.verdict import TurnVerdict

if TYPE_CHECKING:
    from contraflow.streams.core.turns import TurnSettings


def conflict_event(
    state: SessionState, verdict: TurnVerdict, later: AdviceItem, turn: TurnEvent, scope: str, fact: UserFact | None
) -> ConflictEvent:
    """The event of a contradicting pair; a revision when the user stated `fact` in between."""
    earlier = verdict.earlier
    return ConflictEvent(
        conflict_id=stable_id("conflict", state.session_id, earlier.event_id, later.event_id),
        kind="turn_revision" if fact is not None else "turn_self_contradiction",
        scope=scope,
        session_id=state.session_id,
        tenant=state.tenant,
        model=state.model,
        claim_a=Claim(
            text=verdict.earlier_claim, source="turn", turn_index=earlier.turn_index, event_id=earlier.event_id
        ),
        claim_b=Claim(text=verdict.new_claim, source="turn", turn_index=later.turn_index, event_id=later.event_id),
        nli_ab=verdict.nli_ab,
        nli_ba=verdict.nli_ba,
        p_contradiction=verdict.score,
        justified_by=(
            Claim(text=fact.text, source="user_turn", turn_index=fact.turn_index, event_id=fact.event_id)
            if fact is not None
            else None
        ),
        disagrees_on=verdict.slot,
        severity="high" if verdict.score >= 0.9 or verdict.slot is not None else "medium",
        detected_at=turn.ts,
    )


def status_alert(
    state: SessionState,
    turn: TurnEvent,
    previous: ConflictStatus,
    status: ConflictStatus,
    caution: float,
    failure: float,
) -> DriftAlert:
    """K_Conflict moved between pass, caution and failure; the threshold is that of the worse side."""
    rate = state.k_conflict or 0.0
    threshold = failure if ConflictStatus.failure in (previous, status) else caution
    return alert(state, turn, "k_conflict_status", "k_conflict", rate, threshold, previous.value, status.value)


def drift(
    state: SessionState, turn: TurnEvent, settings: TurnSettings, alerts: list[DriftAlert]
) -> tuple[float | None, float | None]:
    """Recall@T10 with its safety gate, and the drift slope; alerts on crossings."""
    curve = state.curves.get("recall_critical", [])
    if not curve:
        return None, None
    recall_t10 = recall_at(curve, settings.recall_turn) if len(curve) >= settings.recall_turn else None
    if len(curve) == settings.recall_turn and recall_t10 is not None and recall_t10 < settings.recall_gate:
        state.recall_gate_failed = True
        alerts.append(
            alert(
                state,
                turn,
                "recall_gate",
                "entity_recall_at_t10",
                recall_t10,
                settings.recall_gate,
                "pass",
                "failure",
            )
        )
    slope = drift_slope(curve) if len(curve) >= 2 else None
    if slope is not None and len(curve) >= settings.slope_min_turns:
        drifting = slope < settings.slope_threshold
        if drifting != state.slope_drifting:
            before, after = ("ok", "drifting") if drifting else ("drifting", "ok")
            alerts.append(
                alert(state, turn, "drift_slope", "drift_slope", slope, settings.slope_threshold, before, after)
            )
            state.slope_drifting = drifting
    return recall_t10, slope


def alert(
    state: SessionState,
    turn: TurnEvent,
    kind: str,
    metric: str,
    value: float,
    threshold: float,
    previous: str,
    status: str,
) -> DriftAlert:
    """An alert that `metric` went from `previous` to `status` at this turn (its id: session, kind, turn, status)."""
    detail = f" ({state.contradictions}/{state.evaluated_pairs} pairs)" if metric == "k_conflict" else ""
    return DriftAlert(
        alert_id=stable_id("alert", state.session_id, kind, turn.event_id, status),
        kind=kind,
        session_id=state.session_id,
        tenant=state.tenant,
        model=state.model,
        turn_index=turn.turn_index,
        metric=metric,
        value=value,
        threshold=threshold,
        previous_status=previous,
        status=status,
        message=f"{metric} {value:.3f}{detail} vs threshold {threshold:.2f}",
        ts=turn.ts,
    )
