"""A justified revision is not a flip-flop (docs/verdicts.md §4): a contradicting pair is
a revision when the user stated, between the two pieces of advice, a new fact that can
justify the change."""

from __future__ import annotations

from contraflow.models.events import TurnEvent
from contraflow.models.state import SessionState, UserFact
from contraflow.streams.core.extract.facts import CAUTION_FACTS
from contraflow.streams.core.extract.regimen import loosens, supports
from contraflow.streams.core.verdict import TurnVerdict


def justification(state: SessionState, verdict: TurnVerdict, turn: TurnEvent) -> UserFact | None:
    """The latest new fact the user stated between the earlier advice and this turn that
    can justify the change: a fact that calls for caution (pregnancy, a diagnosis, an
    allergy, another medicine, a side effect) does not justify allowing what was
    forbidden, or more of it. What the user reports their clinician said justifies only
    a change its way ("The GP said go to 20 mg")."""
    earlier = verdict.earlier.turn_index
    between = [
        f
        for f in state.user_facts
        if earlier < f.turn_index < turn.turn_index and (f.reason != "clinician" or supports(f.text, verdict.new_claim))
    ]
    if loosens(verdict.earlier_claim, verdict.new_claim, verdict.slot):
        between = [f for f in between if f.reason not in CAUTION_FACTS]
    return between[-1] if between else None
