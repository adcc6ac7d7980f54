"""The drift metrics of an assistant turn that need the model services (seed 003, seed 002):
entity recall, precision, F1 and hallucination against the case's gold sets, each adding a
point to the session's curves, and the session's goal alignment against its target plan."""

from __future__ import annotations

from contraflow.models.events import EntityMetrics, TurnEvent
from contraflow.models.state import SessionState
from contraflow.streams.core.calls import EmbedFn, ExtractFn
from contraflow.streams.core.extract.entity_filter import filter_entities
from contraflow.streams.core.extract.reasoning import strip_reasoning
from contraflow.streams.core.metrics.alignment import alignment_score, alignment_texts
from contraflow.streams.core.metrics.recall import entity_scores

CURVE_NAMES = ("recall", "precision", "f1", "hallucinated_rate")


async def entity_metrics(
    state: SessionState, turn: TurnEvent, visible: str, extract_entities: ExtractFn | None
) -> tuple[EntityMetrics | None, ...]:
    """Scores against both gold sets; the curves grow by one point each (reasoning stripped)."""
    if not state.gold_critical or extract_entities is None:
        return None, None
    source = strip_reasoning(turn.summary) if turn.summary else visible
    predicted = filter_entities(await extract_entities(source))
    results = []
    for name, gold in (("critical", state.gold_critical), ("extended", state.gold_extended)):
        scores = entity_scores(set(gold), predicted, visible)
        for metric in CURVE_NAMES:
            state.curves.setdefault(f"{metric}_{name}", []).append(getattr(scores, metric))
        results.append(EntityMetrics(**scores.model_dump(), gold=len(gold)))
    return tuple(results)


async def goal_alignment(state: SessionState, embed: EmbedFn | None) -> float | None:
    texts = alignment_texts((a.text for a in state.advice_history), state.case.target_plan if state.case else None)
    if texts is None or embed is None:
        return None
    return alignment_score(await embed(texts))
