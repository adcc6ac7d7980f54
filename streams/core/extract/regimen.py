"""What one advice claim tells the person to do, as comparable slots: the instruction's
polarity (do / don't), its amounts, how often, when in the day, and with or without food.

Two claims about the same target contradict when they disagree on a slot both state:
"avoid alcohol" against "a glass of wine is fine" (polarity), "two puffs" against "one
puff" (amount), "once a day" against "twice a day" (frequency), "with your evening meal"
against "first thing in the morning on an empty stomach" (time of day, food). They agree
when every slot both state is the same, whatever the wording ("keep taking it" and "don't
stop taking it" are both "do"). Slots are read from the claim's main clause, so the
object of the instruction is what counts: in "avoid ibuprofen while you're on warfarin"
the instruction is about ibuprofen, not warfarin.

Conditional claims ("if the pain comes back, take…") and planned changes ("increase to…
after a week") are not held against plain instructions: they are not reversals.

The claim's parts are read in `regimen_clauses`, the slots in `regimen_slots`, where two
claims disagree in `regimen_disagreement`, with the words and patterns of
`regimen_patterns` and `regimen_values`; this module reads one claim whole (`regimen_of`)
and compares two.

How a verdict uses this: `streams.verdict` (the `regimen` rule)."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from contraflow.streams.core.extract.advice import instruction_part, is_advice
from contraflow.streams.core.extract.content_words import content_words
from contraflow.streams.core.extract.drug_dictionary import generic_names
from contraflow.streams.core.extract.regimen_clauses import (
    condition_of,
    indexed_segments,
    main_clause,
    normalise,
    without_explanation,
)
from contraflow.streams.core.extract.regimen_disagreement import actions_meet, comparable, disagreement, larger_amount
from contraflow.streams.core.extract.regimen_patterns import (
    AVOIDING_INSTEAD,
    CEILING,
    CHANGING,
    LIMIT,
    MEDICINE_WORDS,
    NAMES_WITH_FLIPS,
    NOT_REQUIRED,
    ONE_DOSE_OF_SEVERAL,
    ONLY_WHEN,
    OTHERS_OF_A_KIND,
    PERMISSION,
    PLANNED_STAGE,
    REGARDLESS,
    RESUME,
    RULED_OUT_CHANGE,
    STOPPING_WHAT_ONE_DOES,
    THING_NOT_NEEDED,
    TOPIC_INTRODUCER,
    UNLIMITED,
    UNSURE,
)
from contraflow.streams.core.extract.regimen_slots import (
    RATHER,
    Regimen,
    addressee,
    amounts_of,
    days_of,
    flip_count,
    food_of,
    given_amounts,
    other_action_of,
    per_day_of,
    schedule_text,
    step_of,
    times_of,
    without_slots,
)
from contraflow.streams.core.extract.regimen_values import UNITS
from contraflow.streams.core.extract.targets import targets_of

# words for a medicine's form: "the tablets" are whichever medicine is under discussion
_FORM_WORDS = frozenset(content_words("tablet tablets pill pills capsule capsules medicine medicines medication"))
# words of time: "for 30 minutes" is how long, not what an instruction is about
_TIME_WORDS = frozenset(
    content_words("second seconds minute minutes hour hours day days week weeks month months year years time times")
)


def instruction_words(text: str) -> frozenset[str]:
    """The content words of a claim's main clause, without words for a medicine's form: what
    an instruction is about when it names nothing the lexicon knows ("keep wearing the brace")."""
    return content_words(main_clause(normalise(text))) - _FORM_WORDS - _TIME_WORDS


def dose_units(text: str) -> frozenset[str]:
    """The units of the amounts a claim gives ("mg", "tablet")."""
    return frozenset(unit for _, unit in amounts_of(normalise(text)))


_FORM = re.compile(r"\b(puff|tablet|pill|capsule|drop|spray|sachet|patch)(?:e?s)?\b")


def dose_marks(text: str) -> frozenset[str]:
    """What ties a claim that names no medicine to the one last given that way: the units it
    gives amounts in, the forms it names without one ("keep going with the capsules") and
    how often a day ("the twice-daily doses")."""
    lowered = normalise(text)
    per_day = per_day_of(lowered)
    often = {f"{per_day:g} a day"} if per_day is not None and per_day > 0 else set()
    return dose_units(text) | {UNITS[match.group(1)] for match in _FORM.finditer(lowered)} | often


@lru_cache(maxsize=4096)
def detail_kinds(text: str) -> frozenset[str]:
    """The kinds of regimen detail a sentence gives: the units of its amounts ("mg", "tablet"),
    doses a day, a part of the day, how long. Two sentences that give the same kind can
    disagree on it ("a 5-day course" / "the full 7 days") whatever else they say. Cached: the
    sentence rule asks it of every earlier sentence for every new one."""
    lowered = normalise(instruction_part(text))
    kinds = {unit for _, unit in given_amounts(lowered)}
    if per_day_of(lowered) is not None:
        kinds.add("doses a day")
    if times_of(schedule_text(lowered)):
        kinds.add("time of day")
    if days_of(lowered) is not None:
        kinds.add("how long")
    return frozenset(kinds)


def states_dose(text: str) -> bool:
    """Whether a claim gives an amount or a frequency ("take 10 mg twice a day"): a dosing
    instruction that names no drug is about the one under discussion."""
    lowered = normalise(text)
    return bool(amounts_of(lowered)) or per_day_of(lowered) is not None


def states_schedule(text: str) -> bool:
    """Whether a claim gives a dose, or says when to take something ("take it first thing in
    the morning on an empty stomach"): a schedule that names nothing is the schedule of what
    is under discussion."""
    lowered = normalise(text)
    timed = food_of(lowered) is not None or bool(times_of(lowered))
    return states_dose(text) or (timed and bool(MEDICINE_WORDS.search(lowered)))


def takes_medicine(text: str) -> bool:
    """Whether a claim is about taking a medicine: it gives a dose, or speaks of taking,
    tablets or doses ("take it with food", "the capsules")."""
    return states_dose(text) or bool(MEDICINE_WORDS.search(normalise(text)))


def _targets(core: str, inherited: frozenset[str], main: str) -> frozenset[str]:
    """What the instruction is about: the named things of its main clause with food and
    times of day taken out (`core`: "take it at bedtime" is about the drug, not sleep);
    else what it inherits; else the named things of the whole main clause."""
    named = _with_generics(targets_of(core) | {name for name in inherited if name in core}, inherited)
    return frozenset(named or inherited or targets_of(main))


def _with_generics(named: frozenset[str], pool: frozenset[str]) -> frozenset[str]:
    """`named` and the targets of `pool` that are generic names of them: "one Zirtek tablet"
    names cetirizine too."""
    generics = generic_names()
    return named | {t for t in pool if any(t in generics.get(name, ()) for name in named)}


@lru_cache(maxsize=8192)
def regimen_of(text: str, inherited: frozenset[str] = frozenset()) -> Regimen:
    """The slots of one claim; `inherited` are its targets when its main clause names none
    ("take it with food" after "start metformin"). A statement after a dash is no part of
    it ("don't use it for more than 7 days - longer can cause rebound congestion")."""
    lowered = STOPPING_WHAT_ONE_DOES.sub("", normalise(instruction_part(text)))
    indexed = indexed_segments(without_slots(RATHER.sub(" ", lowered)))
    segments = [segment for _, segment in indexed]
    targets = _targets(" ".join(segments), inherited, main_clause(lowered))
    own = [
        (index, seg)
        for index, seg in indexed
        if not TOPIC_INTRODUCER.match(seg) and (targets_of(seg) & targets or any(n in seg for n in targets))
    ]
    head = segments[0] if segments else ""  # what the claim opens with: "call 111 (if …)", "contact your GP"
    if not own:  # "as for alcohol, it's best to avoid it": the instruction follows the topic
        own = [(index, seg) for index, seg in indexed if not TOPIC_INTRODUCER.match(seg)]
    # the part that instructs, where several name the target ("sertraline passes into breast milk, so
    # you should stop breastfeeding")
    # "avoid tea, coffee, milk and antacids": a list after the instruction is its object
    listed = bool(own) and len(own[0][1].split()) <= 3
    fallback = indexed[0] if indexed and is_advice(head) and listed else own[0] if own else (0, head)
    # a statement that names the thing is no instruction where another part instructs: "doxycycline
    # doesn't affect desogestrel - you can keep taking both as normal"
    if not is_advice(fallback[1]):
        fallback = next((pair for pair in indexed if is_advice(pair[1])), fallback)
    at, chosen = next((pair for pair in own if is_advice(pair[1])), fallback)
    # the instruction's own targets, where it names some: "hold off on the antibiotic and treat the pain
    # first: paracetamol or ibuprofen…" holds off the antibiotic, not the painkillers
    named = _with_generics(frozenset(t for t in targets if t in targets_of(chosen) or t in chosen), targets)
    targets = named or targets
    # the other way it offers, avoiding something else, says nothing of the thing: "use condoms or avoid sex"
    instruction = AVOIDING_INSTEAD.sub(" ", NAMES_WITH_FLIPS.sub(" ", chosen))
    # ruling out a change keeps the regimen as it is: "hold off on the increase" is "carry on"
    rules_out_change = bool(RULED_OUT_CHANGE.search(instruction))
    condition = condition_of(lowered, at)
    flips = flip_count(instruction) - rules_out_change
    others = OTHERS_OF_A_KIND.search(instruction)
    return Regimen(
        targets=targets,
        polarity=-1 if flips % 2 else 1,
        # the amount the instruction gives, not one its explanation restates ("take 1600 mg —
        # your usual 800 mg plus the 800 mg you missed"); none for a change ruled out
        amounts=frozenset() if rules_out_change else given_amounts(lowered),
        per_day=None if rules_out_change else per_day_of(lowered),
        times=times_of(schedule_text(lowered)),
        food=food_of(schedule_text(lowered)),
        one_dose_of_several=bool(ONE_DOSE_OF_SEVERAL.search(lowered)),
        stage=bool(PLANNED_STAGE.search(lowered)),
        step=step_of(lowered),
        others=bool(others) and not others.group(1),
        whole_class=bool(others and others.group(1)),
        regardless=bool(REGARDLESS.search(lowered)),
        conditional=condition is not None,
        # "if she's not sure whether she's had it": doubt is a case of its own, in words of no content
        conditions=content_words(condition or "") | ({"unsure"} if UNSURE.search(condition or "") else set()),
        changing=bool(CHANGING.search(CEILING.sub(" ", lowered))) and not rules_out_change,
        days=days_of(lowered),
        resumes=bool(RESUME.search(instruction)),
        other_action=other_action_of(instruction, head, lowered),
        person=addressee(instruction, lowered),
        not_required=bool(NOT_REQUIRED.search(instruction)),
        permission=bool(PERMISSION.search(instruction)),
        thing_not_needed=bool(THING_NOT_NEEDED.search(instruction)),
        unlimited=bool(UNLIMITED.search(lowered)),
        only_when=bool(ONLY_WHEN.search(lowered)) and condition is not None,
        limit=bool(LIMIT.search(lowered)),
    )


def loosening(earlier: str, new: str, slot: str | None) -> str | None:
    """How the new claim asks for less care than the earlier one: it "allows" what the earlier
    forbade (slot "polarity"), gives "more" of it (slot "amount": a larger amount in a unit both
    give), "more often" (slot "frequency": more doses a day, "every 4 hours" after "three times
    a day"), "longer" (slot "duration": a limit on how long raised, "no more than 7 days" / "for
    up to 4 weeks"), or "with food" what was to be taken without (slot "food"). A pair no slot
    decided (the threshold did, or the sentence rule, which has no slots) loosens in any of
    these ways. None: the new claim does not loosen the earlier one."""
    a, b = regimen_of(earlier), regimen_of(new)
    ways = {
        "polarity": ("allows", b.polarity > a.polarity),
        "amount": ("more", larger_amount(b, a)),
        "frequency": ("more often", _more_often(b, a)),
        "duration": ("longer", a.limit and a.days is not None and b.days is not None and b.days > a.days),
        "food": ("with food", a.food == "without" and b.food == "with"),
    }
    decided = ways.values() if slot is None else [ways[slot]] if slot in ways else []
    return next((way for way, holds in decided if holds), None)


def _more_often(more: Regimen, less: Regimen) -> bool:
    """Whether `more` gives more doses a day than `less`, both counted ("daily" says no count)."""
    return more.per_day is not None and less.per_day is not None and more.per_day > less.per_day > 0


def plans_change(text: str) -> bool:
    """Whether a claim plans a change or a stage ("after two weeks the dose is usually
    increased to 20 mg"), in its instruction rather than in its reasons."""
    instruction = without_explanation(normalise(text))
    return bool(CHANGING.search(instruction) or PLANNED_STAGE.search(instruction))


def compare(a_text: str, a_targets: frozenset[str], b_text: str, b_targets: frozenset[str]) -> tuple[bool, str | None]:
    """(decided, slot): whether the slots of two claims decide between them, and the slot they
    disagree on (None: they agree, or are about different things). Where one names nothing
    the lexicon knows, the content words their main clauses share are what they are about
    ("keep wearing the brace" / "leave the knee brace off")."""
    a, b = regimen_of(a_text, a_targets), regimen_of(b_text, b_targets)
    if not comparable(a, b):
        # an instruction about another action on the thing meets none about the thing itself
        if not actions_meet(a, b):
            return True, None
        shared = instruction_words(a_text) & instruction_words(b_text)
        if not shared:
            return False, None
        a, b = replace(a, targets=shared), replace(b, targets=shared)
    return True, disagreement(a, b)


# which way a clinician moved a dose, as the user reports it: "Prescriber says I can go up again"
_SAID_UP = re.compile(r"\b(?:go(?:ing)?\s+up|increas\w*|upp(?:ed|ing)|rais(?:e|ed|ing)|doubl\w*|higher)\b")
_SAID_DOWN = re.compile(r"\b(?:go(?:ing)?\s+down|reduc\w*|decreas\w*|lower(?:ed|ing)?|halv\w*|cut\s+(?:back|down))\b")
_MORE = frozenset({"more", "more often"})


def supports(statement: str, earlier: str, claim: str) -> bool:
    """Whether what a clinician said, as the user reports it ("The GP said go to 20 mg"),
    goes the way of the change from `earlier` to `claim` rather than against it ("The GP
    prescribed senna" does not support "leave out the senna"; "the prescriber says I can go
    up again" does not support a lower top dose)."""
    targets = regimen_of(claim).targets
    if compare(statement.lower(), targets, claim, targets)[1] is not None:
        return False
    way = said_way(statement)
    if way is None:
        return True
    raised, lowered = loosening(earlier, claim, None) in _MORE, loosening(claim, earlier, None) in _MORE
    return not (raised and way == "down") and not (lowered and way == "up")


def said_way(statement: str) -> str | None:
    """Which way a reported change of dose went: "up" ("she's increased me to 100 mg"),
    "down" ("the GP has reduced my amlodipine"), or None (no way, or both)."""
    up, down = bool(_SAID_UP.search(statement.lower())), bool(_SAID_DOWN.search(statement.lower()))
    return None if up == down else "up" if up else "down"
