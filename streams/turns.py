"""The conversation-turn pipeline: plain Python, no faust.

`TurnPipeline.process(state, turn)` takes a session's state and one turn and returns the
new state and the events to publish. The agent stores the state and sends the events;
`contraflow replay` and the tests call the same code directly.

Per assistant turn (seeds 000, 002, 003):
- K_Conflict over sampled adjacent advice pairs (stride), argmax "contradiction" only;
- global consistency: the new advice against earlier advice of the session (a window);
- NCP against the turn's `candidates`;
- entity recall/precision/F1/hallucination against the case's gold sets, Recall@T10 and
  the drift slope;
- session goal alignment against the case's target plan;
- repetition cleaning of what joins the history (metrics use the raw text).
All NLI pairs of one turn go to the scorer in one call.
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
    EntityMetrics,
    NLIProbabilities,
    Role,
    ScoreEvent,
    TurnEvent,
)
from models.ids import stable_id
from models.state import AdviceItem, SessionState
from streams.extract.advice import extract_advice, extract_statements
from streams.extract.entities import filter_entities
from streams.extract.repetition import clean_repetition
from streams.metrics.alignment import concat_actions, cosine
from streams.metrics.conflict import conflict_status, is_sampled_pair
from streams.metrics.drift import drift_slope, recall_at
from streams.metrics.ncp import ncp
from streams.metrics.recall import entity_scores

ScoreFn = Callable[[Sequence[tuple[str, str]]], Awaitable[np.ndarray]]
ExtractFn = Callable[[str], Awaitable[list[str]]]
EmbedFn = Callable[[list[str]], Awaitable[np.ndarray]]

CURVE_NAMES = ("recall", "precision", "f1", "hallucinated_rate")


@dataclass(frozen=True)
class TurnSettings:
    """The part of the settings the turn pipeline uses."""

    stride: int = 2
    caution: float = 0.05
    failure: float = 0.10
    advice_history: int = 20
    dedup_window: int = 256
    compare: str = "advice"
    global_window: int = 20
    recall_gate: float = 0.70
    recall_turn: int = 10
    slope_threshold: float = -0.05
    slope_min_turns: int = 3
    repetition_limit: float = 0.30


@dataclass(frozen=True)
class TurnServices:
    """What the pipeline calls out to; CPU-heavy ones run off the event loop."""

    score: ScoreFn
    extract_entities: ExtractFn | None = None
    embed: EmbedFn | None = None


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


@dataclass
class _Batch:
    """The NLI pairs of one turn, scored in one call."""

    pairs: list[tuple[str, str]] = field(default_factory=list)

    def add(self, premise: str, hypothesis: str) -> int:
        self.pairs.append((premise, hypothesis))
        return len(self.pairs) - 1


class TurnPipeline:
    """Scores the assistant turns of one session at a time."""

    def __init__(self, services: TurnServices | ScoreFn, settings: TurnSettings | None = None) -> None:
        self.services = services if isinstance(services, TurnServices) else TurnServices(score=services)
        self.settings = settings or TurnSettings()
        self._extract_unit = extract_statements if self.settings.compare == "statements" else extract_advice

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
            await self._set_case(state, turn)
        if turn.role == Role.assistant:
            await self._assistant_turn(state, turn, outcome)
        return outcome

    async def _set_case(self, state: SessionState, turn: TurnEvent) -> None:
        """The latest case wins; gold sets are fixed from it (seed 003, A1)."""
        assert turn.case is not None
        state.case = turn.case
        critical = sorted({e.strip().lower() for e in turn.case.critical_entities if e.strip()})
        extended = set(critical)
        if self.services.extract_entities and turn.case.patient_summary:
            extended |= filter_entities(await self.services.extract_entities(turn.case.patient_summary))
        state.gold_critical, state.gold_extended = critical, sorted(extended)

    async def _assistant_turn(self, state: SessionState, turn: TurnEvent, outcome: TurnOutcome) -> None:
        history_text, repetition, cleaned = clean_repetition(turn.text, self.settings.repetition_limit)
        unit = self._extract_unit(turn.text)
        item = AdviceItem(turn_index=turn.turn_index, event_id=turn.event_id, text=self._extract_unit(history_text))
        previous = state.previous_advice
        state.assistant_turns += 1

        batch = _Batch()
        adjacent = (
            batch.add(previous.text, unit)
            if previous is not None
            and is_sampled_pair(state.assistant_turns - 1, self.settings.stride)
            and previous.text
            and unit
            else None
        )
        window = self.settings.global_window
        earlier = (
            [a for a in state.advice_history[len(state.advice_history) - window :] if a.text] if unit and window else []
        )
        global_rows = [batch.add(a.text, unit) for a in earlier]
        ncp_rows = [(batch.add(turn.text, c), batch.add(c, turn.text)) for c in turn.candidates if c.strip()]
        rows = await self.services.score(batch.pairs) if batch.pairs else np.zeros((0, 3), dtype=np.float32)

        current = AdviceItem(turn_index=turn.turn_index, event_id=turn.event_id, text=unit)
        pair_nli = None
        if adjacent is not None:
            assert previous is not None
            pair_nli = probabilities(rows[adjacent])
            state.evaluated_pairs += 1
            if pair_nli.verdict == "contradiction":
                state.contradictions += 1
                outcome.conflicts.append(self._conflict(state, previous, current, turn, pair_nli, "adjacent"))
        for earlier_item, row in zip(earlier, global_rows, strict=True):
            nli = probabilities(rows[row])
            state.global_evaluated_pairs += 1
            if nli.verdict == "contradiction":
                state.global_contradictions += 1
                already = adjacent is not None and previous is not None and earlier_item.event_id == previous.event_id
                if not already:
                    outcome.conflicts.append(self._conflict(state, earlier_item, current, turn, nli, "global"))

        state.previous_advice = current
        if item.text:
            state.advice_history = [*state.advice_history, item][-self.settings.advice_history :]

        critical, extended = await self._entity_metrics(state, turn)
        status = conflict_status(state.k_conflict, self.settings.caution, self.settings.failure)
        if status != state.status:
            outcome.alerts.append(self._status_alert(state, turn, state.status, status))
            state.status = status
        recall_t10, slope = self._drift(state, turn, outcome)
        outcome.scores.append(
            ScoreEvent(
                score_id=stable_id("score", state.session_id, turn.event_id, turn.turn_index),
                session_id=state.session_id,
                turn_index=turn.turn_index,
                event_id=turn.event_id,
                tenant=state.tenant,
                model=state.model,
                advice=unit,
                pair_evaluated=adjacent is not None,
                pair_nli=pair_nli,
                pair_contradiction=pair_nli is not None and pair_nli.verdict == "contradiction",
                evaluated_pairs=state.evaluated_pairs,
                contradictions=state.contradictions,
                k_conflict=state.k_conflict,
                status=status,
                global_evaluated_pairs=state.global_evaluated_pairs,
                global_contradictions=state.global_contradictions,
                global_rate=state.global_rate,
                assistant_turn=state.assistant_turns,
                entities_critical=critical,
                entities_extended=extended,
                recall_at_t10=recall_t10,
                drift_slope=slope,
                ncp=ncp(rows[[a for a, _ in ncp_rows], 2], rows[[b for _, b in ncp_rows], 2]) if ncp_rows else None,
                alignment=await self._alignment(state),
                repetition_ratio=repetition,
                cleaned=cleaned,
                ts=turn.ts,
            )
        )

    async def _entity_metrics(self, state: SessionState, turn: TurnEvent) -> tuple[EntityMetrics | None, ...]:
        """Scores against both gold sets; the curves grow by one point each."""
        if not state.gold_critical or self.services.extract_entities is None:
            return None, None
        source = turn.summary if turn.summary else turn.text
        predicted = filter_entities(await self.services.extract_entities(source))
        results = []
        for name, gold in (("critical", state.gold_critical), ("extended", state.gold_extended)):
            scores = entity_scores(set(gold), predicted, turn.text)
            for metric in CURVE_NAMES:
                state.curves.setdefault(f"{metric}_{name}", []).append(getattr(scores, metric))
            results.append(EntityMetrics(**scores.model_dump(), gold=len(gold)))
        return tuple(results)

    def _drift(self, state: SessionState, turn: TurnEvent, outcome: TurnOutcome) -> tuple[float | None, float | None]:
        """Recall@T10 with its safety gate, and the drift slope; alerts on crossings."""
        curve = state.curves.get("recall_critical", [])
        if not curve:
            return None, None
        recall_t10 = recall_at(curve, self.settings.recall_turn) if len(curve) >= self.settings.recall_turn else None
        if (
            len(curve) == self.settings.recall_turn
            and recall_t10 is not None
            and recall_t10 < self.settings.recall_gate
        ):
            state.recall_gate_failed = True
            outcome.alerts.append(
                self._alert(
                    state,
                    turn,
                    "recall_gate",
                    "entity_recall_at_t10",
                    recall_t10,
                    self.settings.recall_gate,
                    "pass",
                    "failure",
                )
            )
        slope = drift_slope(curve) if len(curve) >= 2 else None
        if slope is not None and len(curve) >= self.settings.slope_min_turns:
            drifting = slope < self.settings.slope_threshold
            if drifting != state.slope_drifting:
                before, after = ("ok", "drifting") if drifting else ("drifting", "ok")
                outcome.alerts.append(
                    self._alert(
                        state, turn, "drift_slope", "drift_slope", slope, self.settings.slope_threshold, before, after
                    )
                )
                state.slope_drifting = drifting
        return recall_t10, slope

    async def _alignment(self, state: SessionState) -> float | None:
        plan = state.case.target_plan if state.case else None
        actions = concat_actions(a.text for a in state.advice_history)
        if not plan or not actions or self.services.embed is None:
            return None
        vectors = await self.services.embed([actions, plan])
        return cosine(vectors[0], vectors[1])

    def _conflict(
        self,
        state: SessionState,
        earlier: AdviceItem,
        later: AdviceItem,
        turn: TurnEvent,
        nli: NLIProbabilities,
        scope: str,
    ) -> ConflictEvent:
        return ConflictEvent(
            conflict_id=stable_id("conflict", state.session_id, earlier.event_id, later.event_id),
            kind="turn_self_contradiction",
            scope=scope,
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
        worst = ConflictStatus.failure in (previous, status)
        threshold = self.settings.failure if worst else self.settings.caution
        return self._alert(
            state, turn, "k_conflict_status", "k_conflict", rate, threshold, previous.value, status.value
        )

    def _alert(
        self,
        state: SessionState,
        turn: TurnEvent,
        kind: str,
        metric: str,
        value: float,
        threshold: float,
        previous: str,
        status: str,
    ) -> DriftAlert:
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
            message=f"{metric} {value:.3f}{detail} vs threshold {threshold:.2f}: {previous} -> {status}",
            ts=turn.ts,
        )
