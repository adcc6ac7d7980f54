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

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from contraflow.models.events import (
    ConflictEvent,
    DriftAlert,
    Role,
    ScoreEvent,
    TurnEvent,
)
from contraflow.models.ids import stable_id
from contraflow.models.state import AdviceItem, SessionState, UserFact
from contraflow.streams.core.calls import EmbedFn, ExtractFn, ScoreFn
from contraflow.streams.core.claim_vectors import ClaimVectors
from contraflow.streams.core.extract.entity_filter import filter_entities
from contraflow.streams.core.extract.facts import asked_case, user_facts
from contraflow.streams.core.extract.markdown import strip_markdown
from contraflow.streams.core.extract.reasoning import strip_reasoning
from contraflow.streams.core.extract.repetition import clean_repetition
from contraflow.streams.core.extract.targets import medicines, targets_of
from contraflow.streams.core.metrics.conflict import conflict_status, is_sampled_pair
from contraflow.streams.core.metrics.ncp import ncp
from contraflow.streams.core.revision import justification
from contraflow.streams.core.turn_claims import ClaimReader
from contraflow.streams.core.turn_events import conflict_event, drift, status_alert
from contraflow.streams.core.turn_metrics import entity_metrics, goal_alignment
from contraflow.streams.core.verdict import (
    TurnVerdict,
    VerdictRule,
    judge,
    plan_pairs,
    plan_reverse,
)
from contraflow.streams.settings import default

FACTS_KEPT = 20  # user facts a session remembers


@dataclass(frozen=True)
class TurnSettings:
    """The part of the settings the turn pipeline uses (defaults: streams/settings.py)."""

    stride: int = default("stride")
    caution: float = default("k_conflict_caution")
    failure: float = default("k_conflict_failure")
    advice_history: int = default("advice_history")
    dedup_window: int = default("dedup_window")
    compare: str = default("compare")
    global_window: int = default("global_window")
    verdict: str = default("verdict")
    contradiction_threshold: float = default("contradiction_threshold")
    sentence_threshold: float = default("sentence_threshold")
    sentence_neighbours: int = default("sentence_neighbours")
    sentence_detail_neighbours: int = default("sentence_detail_neighbours")
    sentence_min_similarity: float = default("sentence_min_similarity")
    sentence_medicine_gate: bool = default("sentence_medicine_gate")
    topic_similarity: float = default("topic_similarity")
    recall_gate: float = default("recall_gate")
    recall_turn: int = default("recall_turn")
    slope_threshold: float = default("slope_threshold")
    slope_min_turns: int = default("slope_min_turns")
    repetition_limit: float = default("repetition_limit")


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


@dataclass
class Judged:
    """A new turn's verdicts per earlier turn (by event id), the rows of the extra pairs
    scored with them, and how many NLI rows the verdict took."""

    verdicts: dict[str, TurnVerdict]
    extra: np.ndarray
    rows: int


class TurnPipeline:
    """Scores the assistant turns of one session at a time."""

    def __init__(self, services: TurnServices | ScoreFn, settings: TurnSettings | None = None) -> None:
        self.services = services if isinstance(services, TurnServices) else TurnServices(score=services)
        self.settings = settings or TurnSettings()
        # slots are those of instructions: statements (compare=statements) are judged by the claims rule
        statements = self.settings.compare == "statements" and self.settings.verdict == "regimen"
        sentences = self.settings.verdict == "sentences"
        self.rule = VerdictRule(
            "claims" if statements else self.settings.verdict,
            self.settings.sentence_threshold if sentences else self.settings.contradiction_threshold,
            self.settings.topic_similarity,
            self.settings.sentence_neighbours,
            self.settings.sentence_min_similarity,
            self.settings.sentence_medicine_gate,
            self.settings.sentence_detail_neighbours,
        )
        self.reader = ClaimReader(
            self.services.extract_entities,
            statements=self.settings.compare == "statements",
            sentences=self.rule.sentences,
            medicine_gate=self.rule.medicine_gate,
            seed=self.rule.seed,
        )
        self.vectors = ClaimVectors(self.services.embed, self.rule)

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
        elif turn.role == Role.user:
            await self._user_turn(state, turn)
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

    async def _user_turn(self, state: SessionState, turn: TurnEvent) -> None:
        """Remember the new facts a user states and what the turn is about ("it" refers there)."""
        text = strip_markdown(strip_reasoning(turn.text))
        facts = [
            UserFact(turn_index=turn.turn_index, event_id=turn.event_id, reason=fact.reason, text=fact.text)
            for fact in user_facts(text)
        ]
        state.user_facts = [*state.user_facts, *facts][-FACTS_KEPT:]
        state.focus = sorted(targets_of(text, await self.reader.entities(text)))
        state.asked_case = asked_case(text)
        state.medicines = medicines(state.focus) or state.medicines

    def _comparable(self, item: AdviceItem) -> bool:
        """Whether a turn is compared at all: by its sentences (verdict=sentences: a turn
        whose advice the extractor missed is still judged, though its adjacent pair is not
        counted in K_Conflict), else by its advice."""
        return bool(item.claims) if self.rule.sentences else bool(item.text)

    async def judge_turn(
        self, earlier: Sequence[AdviceItem], current: AdviceItem, extra: Sequence[tuple[str, str]] = ()
    ) -> Judged:
        """The rule's verdict on `current` against each earlier turn; `extra` pairs (NCP's)
        are scored in the same call."""
        batch = _Batch()
        planned = plan_pairs(earlier, current, self.rule, batch.add, await self.vectors.similarity(earlier, current))
        extra_rows = [batch.add(premise, hypothesis) for premise, hypothesis in extra]
        rows = await self._score(batch.pairs)
        first_round = len(batch.pairs)
        planned = plan_reverse(planned, rows, self.rule, batch.add)
        if len(batch.pairs) > first_round:
            rows = np.concatenate([rows, await self._score(batch.pairs[first_round:])])
        return Judged(judge(planned, rows, self.rule), rows[extra_rows], len(batch.pairs) - len(extra_rows))

    async def _score(self, pairs: list[tuple[str, str]]) -> np.ndarray:
        return await self.services.score(pairs) if pairs else np.zeros((0, 3), dtype=np.float32)

    async def _assistant_turn(self, state: SessionState, turn: TurnEvent, outcome: TurnOutcome) -> None:
        visible = strip_markdown(strip_reasoning(turn.text))
        history_text, repetition, cleaned = clean_repetition(visible, self.settings.repetition_limit)
        current = AdviceItem(
            turn_index=turn.turn_index,
            event_id=turn.event_id,
            text=self.reader.unit_text(history_text),
            claims=await self.reader.claims(state, history_text),
        )
        previous = state.previous_advice
        state.assistant_turns += 1

        adjacent = (
            previous is not None
            and is_sampled_pair(state.assistant_turns - 1, self.settings.stride)
            and bool(previous.text)
            and bool(current.text)
        )
        window = self.settings.global_window
        history = state.advice_history[len(state.advice_history) - window :] if window else []
        earlier = [a for a in history if self._comparable(a)]
        compared = earlier if self._comparable(current) else []
        if adjacent and previous is not None and all(a.event_id != previous.event_id for a in compared):
            compared = [*compared, previous]
        candidates = [c for c in turn.candidates if c.strip()]
        judged = await self.judge_turn(compared, current, [p for c in candidates for p in ((visible, c), (c, visible))])
        verdicts = judged.verdicts

        adjacent_key = previous.event_id if adjacent and previous is not None else None
        pair = verdicts.get(adjacent_key) if adjacent_key else None
        counted = False
        if adjacent:
            state.evaluated_pairs += 1
        in_window = {a.event_id for a in earlier}
        for key, verdict in verdicts.items():
            if key in in_window:
                state.global_evaluated_pairs += 1
            if not verdict.contradicts:
                continue
            fact = None if self.rule.seed else justification(state, verdict, turn)
            if fact is not None:
                state.revisions += 1
            elif key == adjacent_key:
                state.contradictions += 1
                counted = True
            if fact is None and key in in_window:
                state.global_contradictions += 1
            scope = "adjacent" if key == adjacent_key else "global"
            outcome.conflicts.append(conflict_event(state, verdict, current, turn, scope, fact))

        state.previous_advice = current
        if self._comparable(current):
            state.advice_history = [*state.advice_history, current][-self.settings.advice_history :]

        critical, extended = await entity_metrics(state, turn, visible, self.services.extract_entities)
        status = conflict_status(state.k_conflict, self.settings.caution, self.settings.failure)
        if status != state.status:
            outcome.alerts.append(
                status_alert(state, turn, state.status, status, self.settings.caution, self.settings.failure)
            )
            state.status = status
        recall_t10, slope = drift(state, turn, self.settings, outcome.alerts)
        outcome.scores.append(
            ScoreEvent(
                score_id=stable_id("score", state.session_id, turn.event_id, turn.turn_index),
                session_id=state.session_id,
                turn_index=turn.turn_index,
                event_id=turn.event_id,
                tenant=state.tenant,
                model=state.model,
                advice=self.reader.unit_text(visible),
                pair_evaluated=adjacent,
                pair_nli=pair.nli_ab if pair else None,
                pair_contradiction=counted,
                evaluated_pairs=state.evaluated_pairs,
                contradictions=state.contradictions,
                revisions=state.revisions,
                nli_pairs=judged.rows,
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
                ncp=ncp(judged.extra[0::2, 2], judged.extra[1::2, 2]) if candidates else None,
                alignment=await goal_alignment(state, self.services.embed),
                repetition_ratio=repetition,
                cleaned=cleaned,
                ts=turn.ts,
            )
        )
