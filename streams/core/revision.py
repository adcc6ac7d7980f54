"""A justified revision is not a flip-flop (docs/verdicts.md §4): a contradicting pair is
a revision when the user stated, after the earlier advice and since the assistant last
spoke, a new fact that can justify the change."""

from __future__ import annotations

import re

from contraflow.models.events import TurnEvent
from contraflow.models.state import SessionState, UserFact
from contraflow.streams.core.extract.drug_dictionary import generic_names
from contraflow.streams.core.extract.facts import CAUTION_FACTS, drug_names, fact_reasons, fact_values
from contraflow.streams.core.extract.regimen import loosening, said_way, supports
from contraflow.streams.core.verdict import TurnVerdict


def justification(state: SessionState, verdict: TurnVerdict, turn: TurnEvent) -> UserFact | None:
    """The latest new fact the user stated since the assistant last spoke (and after the
    earlier advice) that can justify the change: a fact the assistant has already answered
    without changing course does not explain a change made later ("I also take calcium",
    then advice as before, then "mornings are chaos" and a new timing is a flip-flop). A
    fact that calls for caution (pregnancy, a diagnosis, an allergy, another medicine, a
    side effect) does not justify allowing what was forbidden, or more of it, or more often, or
    for longer than a limit, or with food what was to be taken without (a side effect does
    justify that one). What the user reports their clinician said justifies only a change its
    way ("The GP said go to 20 mg"), and an age, a reading or a medicine told again is no news."""
    since = verdict.earlier.turn_index
    if state.previous_advice is not None:  # the assistant turn before this one
        since = max(since, state.previous_advice.turn_index)
    between = [
        f
        for f in state.user_facts
        if since < f.turn_index < turn.turn_index
        and (f.reason != "clinician" or clinician_supports(f.text, verdict))
        and not told_before(state, f)
    ]
    way = loosening(verdict.earlier_claim, verdict.new_claim, verdict.slot)
    if way is not None:
        # a stomach upset is what taking a medicine with food is for; no other caution justifies less care
        between = [
            f for f in between if f.reason not in CAUTION_FACTS or (way == "with food" and f.reason == "side_effect")
        ]
    return between[-1] if between else None


# the clinician changed another of the person's medicines: "Doctor reduced other tablet"
_OTHER_MEDICINE = re.compile(
    r"\b(?:other|another|different)\s+(?:tablets?|pills?|medicines?|medications?|meds?|ones?)\b", re.I
)


def clinician_supports(statement: str, verdict: TurnVerdict) -> bool:
    """Whether what the user reports their clinician said justifies this change: it goes the
    change's way (`regimen.supports`), and a change of dose is about the medicine the change
    is about, not another one ("Doctor reduced other tablet" does not justify a new time for
    the Lasix; "they've switched me to clarithromycin" does justify stopping the amoxicillin)."""
    if said_way(statement) is not None and _another_medicine(statement, verdict):
        return False
    return supports(statement, verdict.earlier_claim, verdict.new_claim)


def _another_medicine(statement: str, verdict: TurnVerdict) -> bool:
    """Whether the statement is about a medicine other than the pair's: it names others, or
    says "other tablet" where the pair names one."""
    said = _medicines(statement)
    claimed = _medicines(f"{verdict.earlier_claim} {verdict.new_claim}")
    if not claimed:
        return False
    return said.isdisjoint(claimed) if said else bool(_OTHER_MEDICINE.search(statement))


def _medicines(text: str) -> frozenset[str]:
    """The medicines a text names, each with its generic names ("Lasix": furosemide)."""
    names = drug_names(text)
    generics = generic_names()
    return frozenset(names | {generic for name in names for generic in generics.get(name, ())})


def told_before(state: SessionState, fact: UserFact) -> bool:
    """Whether the user had already told what `fact` tells: an age, a reading or a medicine
    said again ("That seems like a lot for a 6 year old" after "Max is 6") is push-back, not
    news. A sentence that also tells of something else ("since I started the co-codamol I've
    been really sick") is news."""
    earlier = [f.text for f in state.user_facts if f.turn_index < fact.turn_index]
    for reason in fact_reasons(fact.text):  # every kind it states must be old news
        values = fact_values(reason, fact.text)
        if not values or not values <= {value for text in earlier for value in fact_values(reason, text)}:
            return False
    return True
