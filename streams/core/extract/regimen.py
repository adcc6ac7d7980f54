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

How a verdict uses this: `streams.verdict` (the `regimen` rule)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from contraflow.streams.core.extract.advice import instruction_part, is_advice, is_imperative
from contraflow.streams.core.extract.drug_dictionary import generic_names
from contraflow.streams.core.extract.regimen_patterns import (
    ALTERNATIVE,
    AMOUNT,
    CHANGING,
    CIRCUMSTANCES,
    CLASS_ALIASES,
    CLASS_NAMES,
    CONCESSIVE,
    CONDITIONAL,
    CONTEXT_PHRASE,
    CONTRACTIONS,
    CONTRAST,
    COUNT_WORDS,
    COUNTED_STRENGTH,
    DURATION,
    EITHER_WAY,
    EVERY_DAY,
    EXPLANATION,
    EXTRA_DOSE,
    FLIPS,
    FREQUENCIES,
    GIVING,
    IN_MG,
    LIMIT,
    LIST_MARKER,
    MEDICINE_WORDS,
    NAMED_FORM,
    NAMES_WITH_FLIPS,
    NOT_REQUIRED,
    NUMBER_WORDS,
    ONE_DOSE_OF_SEVERAL,
    OTHER_ACTION,
    PERMISSION,
    PERSON,
    PERSON_OF,
    PLANNED_STAGE,
    PUNCTUATION,
    RECIPIENT,
    REGARDLESS,
    RESTATED,
    RESUME,
    RULED_OUT_CHANGE,
    SPACED_FROM,
    SPACING,
    STRENGTH,
    SUBJECT_MODAL,
    SUBORDINATE,
    TIMES,
    TOPIC_INTRODUCER,
    UNITS,
    UNSURE,
    WITH_FOOD,
    WITHOUT_FOOD,
)
from contraflow.streams.core.extract.targets import BODY_PARTS, content_words, substance_name, targets_of


def _specific(targets: frozenset[str]) -> frozenset[str]:
    """The targets that name one drug or thing, not a class ("nsaid") or an everyday
    substance under another of its names ("pints" is alcohol)."""
    return frozenset(
        t
        for t in targets
        if t not in CLASS_ALIASES and not any(t.startswith(name) for name in CLASS_NAMES) and not substance_name(t)
    )


@dataclass(frozen=True)
class Regimen:
    """The slots of one claim; None or empty where the claim says nothing."""

    targets: frozenset[str]  # what the instruction is about (main clause)
    polarity: int  # +1 do / allowed, -1 don't / not allowed
    amounts: frozenset[tuple[float, str]]
    per_day: float | None
    times: frozenset[str]
    food: str | None  # "with" or "without"
    conditional: bool
    changing: bool
    days: float | None = None  # how long, in days
    resumes: bool = False  # restarts something paused
    other_action: str | None = None  # about sharing, storing, asking …, not doing: the action ("check")
    not_required: bool = False  # "you don't need to": not a prohibition
    permission: bool = False  # "you can", "it's fine to": allowed, not required
    limit: bool = False  # states a most: "no more than 8 tablets in 24 hours", "up to four times a day"
    person: str | None = None  # whom the instruction is for, where it says: "you", "he", "your son" …
    conditions: frozenset[str] = frozenset()  # content words of the condition ("if you become pregnant")
    one_dose_of_several: bool = False  # "the second dose", "his morning dose": one of the day's doses
    stage: bool = False  # one stage of a plan: "for the first two weeks", "from two weeks"
    regardless: bool = False  # holds whatever happens: "even if you feel better", "even while you're ill"


# a topic named before a colon: "And alcohol: the safest approach is not to drink at all"
_TOPIC_HEADING = re.compile(r"^(?:(?:and|also|now|then)\s+)?([a-z][\w'-]*(?:\s+[\w'-]+){0,2}):\s+(?=\S)")


# "No - carry on taking it", "Yes, take it": the answer to the user's question, not a word of the
# instruction (a leading "no" would turn it around)
_ANSWER = re.compile(r"^(?:yes|no|nope|yeah|yep|sure|okay|ok)\s*[,.!:;\u2014\u2013]+\s*")


def _normalise(text: str) -> str:
    # a spaced hyphen is a dash
    lowered = LIST_MARKER.sub("", text.lower().replace("’", "'")).replace(" - ", " \u2014 ")
    lowered = _ANSWER.sub("", lowered.strip())
    for pattern, replacement in CONTRACTIONS:
        lowered = pattern.sub(replacement, lowered)
    return _TOPIC_HEADING.sub(r"as for \1, ", lowered, count=1)


# an aside in brackets: "with a full glass of water (not tea, coffee or juice)"
_ASIDE = re.compile(r"\([^()]*\)")


def _parts(text: str) -> list[str]:
    """The claim up to its reasons, without its asides, split at punctuation."""
    return PUNCTUATION.split(_ASIDE.sub(" ", _without_explanation(text)))


def _indexed_segments(text: str) -> list[tuple[int, str]]:
    """The parts of a claim that carry its instruction, with their places among `_parts`:
    segments that do not open with a subordinate clause, each cut where one starts, without
    "with …" context."""
    kept: list[tuple[int, str]] = []
    for index, part in enumerate(_parts(text)):
        segment = CONTRAST.sub("", part.strip(), count=1)  # "…, but a short pause is safer": the point
        if segment and SUBORDINATE.match(segment):  # "if you feel ready you can stop": no comma closes it
            main = SUBJECT_MODAL.search(segment)
            segment = segment[main.start() :] if main else ""
        if not segment:
            continue
        cut = SUBORDINATE.search(segment)
        if cut and len(segment[: cut.start()].split()) <= 1:  # "so while you're on it you should stop…"
            main = SUBJECT_MODAL.search(segment, cut.end())
            segment = segment[main.start() :] if main else segment
            cut = SUBORDINATE.search(segment)
        segment = " ".join(CONTEXT_PHRASE.sub(" ", segment[: cut.start()] if cut else segment).split())
        if segment:
            kept.append((index, segment))
    return kept


def _segments(text: str) -> list[str]:
    return [segment for _, segment in _indexed_segments(text)]


def _condition(lowered: str, at: int) -> str | None:
    """The condition the instruction (the part at `at`) holds under: one that comes before it
    or inside it, or the part right after it ("take it, if you need to"); not one in the
    reasons or in a later remark. None when it holds regardless."""
    parts = [CONCESSIVE.sub(" ", part) for part in _parts(lowered)]
    found = [part[match.start() :] for part in parts[: at + 1] if (match := CONDITIONAL.search(part))]
    after = parts[at + 1].strip() if at + 1 < len(parts) else ""
    if CONDITIONAL.match(after):
        found.append(after)
    return " ".join(found) if found else None


def _without_explanation(text: str) -> str:
    """The claim up to the reasons it gives ("…, because the combination can cause flushing,
    vomiting…"); a claim that opens with one ("Since the seizures were long ago, …") keeps it."""
    for match in EXPLANATION.finditer(text):
        if text[: match.start()].strip(" ,"):
            return text[: match.start()]
    return text


def main_clause(text: str) -> str:
    """The claim without its subordinate clauses and "with …" context phrases."""
    return " ".join(_segments(text))


# words for a medicine's form: "the tablets" are whichever medicine is under discussion
_FORM_WORDS = frozenset(content_words("tablet tablets pill pills capsule capsules medicine medicines medication"))
# words of time: "for 30 minutes" is how long, not what an instruction is about
_TIME_WORDS = frozenset(
    content_words("second seconds minute minutes hour hours day days week weeks month months year years time times")
)


def instruction_words(text: str) -> frozenset[str]:
    """The content words of a claim's main clause, without words for a medicine's form: what
    an instruction is about when it names nothing the lexicon knows ("keep wearing the brace")."""
    return content_words(main_clause(_normalise(text))) - _FORM_WORDS - _TIME_WORDS


def dose_units(text: str) -> frozenset[str]:
    """The units of the amounts a claim gives ("mg", "tablet")."""
    return frozenset(unit for _, unit in _amounts(_normalise(text)))


_FORM = re.compile(r"\b(puff|tablet|pill|capsule|drop|spray|sachet|patch)(?:e?s)?\b")


def dose_marks(text: str) -> frozenset[str]:
    """What ties a claim that names no medicine to the one last given that way: the units it
    gives amounts in, the forms it names without one ("keep going with the capsules") and
    how often a day ("the twice-daily doses")."""
    lowered = _normalise(text)
    per_day = _per_day(lowered)
    often = {f"{per_day:g} a day"} if per_day is not None and per_day > 0 else set()
    return dose_units(text) | {UNITS[match.group(1)] for match in _FORM.finditer(lowered)} | often


def states_dose(text: str) -> bool:
    """Whether a claim gives an amount or a frequency ("take 10 mg twice a day"): a dosing
    instruction that names no drug is about the one under discussion."""
    lowered = _normalise(text)
    return bool(_amounts(lowered)) or _per_day(lowered) is not None


def states_schedule(text: str) -> bool:
    """Whether a claim gives a dose, or says when to take something ("take it first thing in
    the morning on an empty stomach"): a schedule that names nothing is the schedule of what
    is under discussion."""
    lowered = _normalise(text)
    timed = _food(lowered) is not None or bool(_times(lowered))
    return states_dose(text) or (timed and bool(MEDICINE_WORDS.search(lowered)))


def takes_medicine(text: str) -> bool:
    """Whether a claim is about taking a medicine: it gives a dose, or speaks of taking,
    tablets or doses ("take it with food", "the capsules")."""
    return states_dose(text) or bool(MEDICINE_WORDS.search(_normalise(text)))


_ADVISES_READER = re.compile(r"^(?:i|we)(?:'d| would)?\s+(?:strongly\s+)?(?:advise|recommend|suggest|urge)\b")


def _person(instruction: str, lowered: str) -> str | None:
    """Whom an instruction is for, when its main clause says: "he shouldn't be running" is for
    "he", "you can keep running" and an imperative ("keep up the running") for "you"; "you can give him
    ibuprofen" is for "he" (the reader gives, he takes); "give the paracetamol if she seems
    uncomfortable" is for "she", whom the rest of the claim names."""
    match = RECIPIENT.search(instruction) or PERSON.search(instruction)
    if match is None and GIVING.match(instruction.strip()):
        match = next((m for m in PERSON.finditer(lowered) if m.group(0) != "you"), None)
    if match is None:
        # "give 2.5 ml" is for someone the reader looks after, not for the reader; "I'd advise against
        # ibuprofen" is advice to the reader
        addressed = is_imperative(instruction) or _ADVISES_READER.match(instruction.strip())
        return "you" if addressed and not GIVING.match(instruction.strip()) else None
    word = match.group(match.lastindex or 0)
    if word.startswith("your "):
        return word.split()[1].rstrip("s")
    return PERSON_OF.get(word, word)


def _days(text: str) -> float | None:
    match = DURATION.search(text)
    if not match:
        return None
    count, unit = next((match.group(i), match.group(i + 1)) for i in range(1, match.re.groups, 2) if match.group(i))
    count = count.replace("-", " ")
    number = NUMBER_WORDS.get(count) or COUNT_WORDS.get(count) or float(count)
    return number * {"day": 1.0, "week": 7.0, "month": 30.0}[unit]


def _given_amounts(lowered: str) -> frozenset[tuple[float, str]]:
    """The amounts a claim gives: not those of its reasons, nor a dose it only restates
    beside the new one; a claim that only restates one gives that one."""
    return _amounts(RESTATED.sub(" ", _without_explanation(lowered))) or _amounts(lowered)


def _count(number: str) -> float:
    value = NUMBER_WORDS.get(number)
    return value if value is not None else float(number.replace(",", ""))


# a range of amounts: "2–4 puffs", "200 to 400 mg" allow each end
_RANGE = re.compile(r"\b(\d+(?:\.\d+)?)\s*(?:\u2013|-|to)\s*(\d+(?:\.\d+)?)\s*([a-z\u00b5]+)\b")


def _amounts(text: str) -> frozenset[tuple[float, str]]:
    text = _RANGE.sub(r"\1 \3 \2 \3", text)
    found = set()
    for count, strength, unit, form in COUNTED_STRENGTH.findall(text):
        found |= {
            (_count(count), UNITS[form.rstrip("s")]),
            (_count(count) * float(strength), UNITS[unit.rstrip("s")]),
        }
    rest = STRENGTH.sub(" ", COUNTED_STRENGTH.sub(" ", text))
    for number, unit in [*AMOUNT.findall(rest), *NAMED_FORM.findall(rest)]:
        stem = unit[:-2] if unit.endswith("es") and unit.startswith("patch") else unit.rstrip("s")
        found.add((_count(number), UNITS.get(stem, stem)))
    return frozenset((round(value * IN_MG[unit], 6), "mg") if unit in IN_MG else (value, unit) for value, unit in found)


# used as often as needed: no fixed number a day ("as often as she needs, commonly three or four times a day")
_AS_NEEDED = re.compile(r"\bas often as (?:you|she|he|they|needed|necessary|required)\b|\bfreely\b")


def _per_day(text: str) -> float | None:
    if _AS_NEEDED.search(text):
        return None
    for pattern, value in FREQUENCIES:
        match = pattern.search(text)
        if match:
            return 24.0 / float(next(g for g in match.groups() if g)) if value is None else value
    return None


# a time or meal the instruction turns away from: "at bedtime rather than in the morning", "not right at
# bedtime" (the negation is of the time, not of the instruction)
_RATHER = re.compile(
    r"\b(?:rather than|instead of)\b[^,.;:\u2014\u2013]*|"
    r"\bnot (?:right |just |straight )?(?:at|before|after|with|on|in|near|close to) (?:\w+ ){0,3}?"
    r"(?:bedtime|bed|night|morning|evening|food|meals?|breakfast|lunch|dinner|stomach)\b"
)
# a clock time: "by 2pm", "at 10 pm", "7:30am"
_CLOCK = re.compile(r"\b(\d{1,2})(?:[:.]\d{2})?\s*(am|pm)\b")


def _schedule_text(lowered: str) -> str:
    """The part of a claim that says when and how to take something: not its reasons, nor
    the time it turns away from."""
    return _RATHER.sub(" ", _without_explanation(lowered))


def _clock_part(hour: int, half: str) -> str:
    hour = hour % 12 + (12 if half == "pm" else 0)
    if 5 <= hour < 12:
        return "morning"
    if 12 <= hour < 17:
        return "midday"
    return "evening" if 17 <= hour < 21 else "night"


def _times(text: str) -> frozenset[str]:
    """The parts of the day a claim names: words ("at bedtime") and clock times ("by 2pm")."""
    named = {name for name, pattern in TIMES if pattern.search(text)}
    return frozenset(named | {_clock_part(int(h), half) for h, half in _CLOCK.findall(text)})


def _food(text: str) -> str | None:
    if EITHER_WAY.search(text):  # "with or without food": either
        return None
    if WITHOUT_FOOD.search(text):
        return "without"
    if WITH_FOOD.search(text):
        return "with"
    return None


# when to take something relative to meals: "about 30 minutes after the same meal each day",
# "before breakfast, lunch and your evening meal": a schedule, not what the claim is about
_MEAL = (
    r"(?:(?:the|your|each|a|every|same|main|evening|morning|midday)\s+)*"
    r"(?:meals?|food|eating|snacks?|breakfast|lunch|dinner|supper)\b"
)
_MEAL_TIMING = re.compile(rf"\b(?:before|after|with|at|around|between)\s+{_MEAL}(?:\s*(?:,|and|or)\s*{_MEAL})*")


# where a thing is put, not what: "apply a thin layer to the affected skin", "one drop in each affected eye"
_PLACE = re.compile(
    r"\b(?:to|on|onto|into|over|in)\s+(?:the|your|his|her|their|each|both)\s+(?:\w+\s+)?"
    rf"(?:{'|'.join(sorted(BODY_PARTS, key=len, reverse=True))})\b"
)
# water a medicine is taken with: "with a small sip of water", "with a full glass of plain tap water"
_WITH_WATER = re.compile(
    r"\bwith (?:a |an |plenty of )?(?:\w+ ){0,2}?(?:(?:glass|sip|drink|cup) of )?(?:plain |tap |still )*water\b"
)


def without_slots(text: str) -> str:
    """The text without its food and time-of-day phrases, the water it is taken with and the
    body part it is put on: "take it at bedtime with your evening meal" is about "it"."""
    for pattern in (_WITH_WATER, _PLACE, _MEAL_TIMING, WITHOUT_FOOD, WITH_FOOD, *(pattern for _, pattern in TIMES)):
        text = pattern.sub(" ", text)
    return text


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
    lowered = _normalise(instruction_part(text))
    indexed = _indexed_segments(without_slots(_RATHER.sub(" ", lowered)))
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
    instruction = NAMES_WITH_FLIPS.sub(" ", chosen)
    # ruling out a change keeps the regimen as it is: "hold off on the increase" is "carry on"
    rules_out_change = bool(RULED_OUT_CHANGE.search(instruction))
    condition = _condition(lowered, at)
    flips = _flip_count(instruction) - rules_out_change
    return Regimen(
        targets=targets,
        polarity=-1 if flips % 2 else 1,
        # the amount the instruction gives, not one its explanation restates ("take 1600 mg —
        # your usual 800 mg plus the 800 mg you missed"); none for a change ruled out
        amounts=frozenset() if rules_out_change else _given_amounts(lowered),
        per_day=_per_day(lowered),
        times=_times(_schedule_text(lowered)),
        food=_food(_schedule_text(lowered)),
        one_dose_of_several=bool(ONE_DOSE_OF_SEVERAL.search(lowered)),
        stage=bool(PLANNED_STAGE.search(lowered)),
        regardless=bool(REGARDLESS.search(lowered)),
        conditional=condition is not None,
        # "if she's not sure whether she's had it": doubt is a case of its own, in words of no content
        conditions=content_words(condition or "") | ({"unsure"} if UNSURE.search(condition or "") else set()),
        changing=bool(CHANGING.search(lowered)) and not rules_out_change,
        days=_days(lowered),
        resumes=bool(RESUME.search(instruction)),
        other_action=_other_action(instruction, head, lowered),
        person=_person(instruction, lowered),
        not_required=bool(NOT_REQUIRED.search(instruction)),
        permission=bool(PERMISSION.search(instruction)),
        limit=bool(LIMIT.search(lowered)),
    )


def _flip_count(instruction: str) -> int:
    """How many times the instruction turns around; alternatives count once ("stop or pause")."""
    count, end = 0, None
    for match in FLIPS.finditer(instruction):
        if end is None or not ALTERNATIVE.fullmatch(instruction[end : match.start()]):
            count += 1
        end = match.end()
    return count


def _spread(times: frozenset[str]) -> frozenset[str]:
    """The parts of the day doses spread over, evening and night as one ("morning and
    evening" and "breakfast and bedtime" are one schedule)."""
    return frozenset("evening" if t == "night" else t for t in times)


def _other_action(instruction: str, head: str, lowered: str) -> str | None:
    """The other action a claim is about ("check", "book", "extra dose", "spacing"), or None
    when it is about doing the thing itself."""
    if EXTRA_DOSE.search(lowered):
        return "extra dose"
    if SPACING.search(instruction) or SPACED_FROM.search(lowered):
        return "spacing"
    found = next((m for part in (instruction, head) if (m := OTHER_ACTION.search(part))), None)
    return found.group(0).split()[-1] if found else None


def _frequencies_differ(x: float, y: float) -> bool:
    """Doses a day that disagree; "every day" disagrees only with less than once a day."""
    if EVERY_DAY in (x, y):
        other = y if x == EVERY_DAY else x
        return other != EVERY_DAY and other < 1
    return x != y


def same_target(a: Regimen, b: Regimen) -> bool:
    """Both instructions are about the same thing: a shared drug or concept name; when both
    name specific drugs ("ibuprofen", "aspirin"), their shared class ("nsaid") is not enough.
    Pregnancy is the circumstance, not a thing to do: "runny yolks are fine
    in pregnancy" and "steer clear of pâté while you're pregnant" are about two foods."""
    a_targets, b_targets = a.targets - CIRCUMSTANCES, b.targets - CIRCUMSTANCES
    specific_a, specific_b = _specific(a_targets), _specific(b_targets)
    if specific_a and specific_b:
        return not specific_a.isdisjoint(specific_b)
    return not a_targets.isdisjoint(b_targets)


def comparable(a: Regimen, b: Regimen) -> bool:
    """Whether the slots can decide: both name what they are about."""
    return bool(a.targets) and bool(b.targets)


def _amounts_in(regimen: Regimen, unit: str, daily: bool) -> set[float]:
    """The amounts a claim gives in `unit`; `daily`, also what they come to in a day where it
    says how often: "two 500 mg tablets four times a day" keeps to "no more than 4 g a day"."""
    given = {v for v, u in regimen.amounts if u == unit}
    often = regimen.per_day if daily and regimen.per_day and regimen.per_day > 0 else None
    return given | {v * often for v in given} if often else given


def _larger_amount(more: Regimen, less: Regimen) -> bool:
    """Whether `more` gives a larger amount than `less` in a unit both give."""
    units = {u for _, u in more.amounts} & {u for _, u in less.amounts}
    return any(
        max(v for v, u in more.amounts if u == unit) > max(v for v, u in less.amounts if u == unit) for unit in units
    )


def loosens(earlier: str, new: str, slot: str | None) -> bool:
    """Whether the new claim allows what the earlier one forbade (slot "polarity"), or more
    of it (slot "amount": a larger amount in a unit both give)."""
    a, b = regimen_of(earlier), regimen_of(new)
    if slot == "polarity":
        return b.polarity > a.polarity
    return slot == "amount" and _larger_amount(b, a)


def disagreement(a: Regimen, b: Regimen) -> str | None:
    """The slot on which two comparable claims disagree, or None when they agree (or are
    about different things, or one is conditional and the other is not)."""
    # an instruction about another action on the thing (checking, booking, calling) meets only another such
    # one: "check your blood pressure every morning" / "there's no need to check your blood pressure"
    if not same_target(a, b) or a.other_action != b.other_action or a.other_action == "extra dose":
        return None
    if a.person and b.person and a.person != b.person:  # "you can keep running" / "he shouldn't be running"
        return None
    if a.conditions and b.conditions and a.conditions.isdisjoint(b.conditions):
        return None  # "once your skin has adjusted, go up to every night" / "if you become pregnant, stop it"
    # a condition that says nothing of its own ("if you haven't already", "if needed") leaves the claim flat
    if (a.conditional and bool(a.conditions)) != (b.conditional and bool(b.conditions)):
        # a permission under a condition lifts a flat prohibition ("don't drive the morning after" /
        # "you can drive the morning after if you feel alert"); a prohibition under a condition only
        # narrows a flat permission ("you can drive" / "don't drive if your sugar is low")
        conditional, plain = (a, b) if a.conditional and a.conditions else (b, a)
        planned = a.resumes or b.resumes or a.changing or b.changing or a.stage or b.stage
        if planned:
            return None
        if conditional.polarity > 0 > plain.polarity and not plain.not_required:
            return "polarity"
        # "stop it while you're vomiting" / "keep taking it even while you've got this bug": the plain claim
        # says the condition changes nothing
        if plain.regardless and conditional.polarity != plain.polarity and not plain.not_required:
            return "polarity"
        # so does more than a flat limit allows ("two tablets, no more than 8 in 24 hours" / "if the pain's
        # bad, three at a time"); a larger dose for a worse case under no stated limit is an action plan
        exceeds = conditional.polarity > 0 and plain.polarity > 0 and plain.limit and _larger_amount(conditional, plain)
        return "amount" if exceeds else None
    if a.polarity != b.polarity:
        allowed, negative = (a, b) if a.polarity > 0 else (b, a)
        if negative.not_required and allowed.permission:  # "you don't need to give it" / "you can give it"
            return None
        return None if a.resumes or b.resumes or a.stage or b.stage else "polarity"
    if a.polarity < 0:  # two prohibitions do not disagree on how to take the thing
        return None
    if not (a.changing or b.changing):
        units = {unit for _, unit in a.amounts} & {unit for _, unit in b.amounts}
        limit, dose = (a, b) if a.limit else (b, a)
        # a dose within a limit keeps to it ("no more than 300 mg in 24 hours" / "take 50 mg"); a permission
        # "up to" an amount is an allowance, compared as one ("keep it to 2 units" / "you can have up to 6")
        if limit.limit and not dose.limit and not limit.permission:
            for unit in units:
                cap = max(v for v, u in limit.amounts if u == unit)
                doses = {v for v, u in dose.amounts if u == unit}
                # the dose a limit's own schedule gives: "400 mg three times a day, no more than 1,200 mg" /
                # "800 mg at a time, three times a day"
                own = {v for v, u in limit.amounts if u == unit and v != cap}
                same_schedule = limit.per_day is not None and limit.per_day == dose.per_day
                if max(doses) > cap or (same_schedule and own and own.isdisjoint(doses)):
                    return "amount"
            units = set()
        for unit in units:
            if _amounts_in(a, unit, b.limit).isdisjoint(_amounts_in(b, unit, a.limit)):
                return "amount"
        if a.per_day is not None and b.per_day is not None and _frequencies_differ(a.per_day, b.per_day):
            return "frequency"
        if a.days is not None and b.days is not None and a.days != b.days:
            # a course within a limit keeps to it: "don't use it for more than 7 days" / "use it for 5 days"
            limit, course = (a, b) if a.limit else (b, a)
            if not (limit.limit and not course.limit) or course.days > limit.days:
                return "duration"
    if a.food and b.food and a.food != b.food:
        return "food"
    several = a.one_dose_of_several or b.one_dose_of_several or (a.per_day or 0) > 1 or (b.per_day or 0) > 1
    # evening and bedtime are one part of the day here too ("around 8 pm" / "each evening")
    if a.times and b.times and _spread(a.times).isdisjoint(_spread(b.times)) and not several:
        return "time of day"
    if several and _spread(a.times) != _spread(b.times) and min(len(_spread(a.times)), len(_spread(b.times))) >= 2:
        return "time of day"  # "breakfast and no later than 2pm" / "breakfast and bedtime"
    return None


def plans_change(text: str) -> bool:
    """Whether a claim plans a change or a stage ("after two weeks the dose is usually
    increased to 20 mg"), in its instruction rather than in its reasons."""
    instruction = _without_explanation(_normalise(text))
    return bool(CHANGING.search(instruction) or PLANNED_STAGE.search(instruction))


def restates(m: Regimen, n: Regimen, slot: str, about: frozenset[str]) -> bool:
    """Whether `m` already says what `n` says on `slot` (both state it, with a value in
    common) about one of the targets `about`, without disagreeing on any other: after
    "increase to 20 mg", a later "keep taking your 20 mg" restates it."""
    if not comparable(m, n) or disagreement(m, n) is not None or m.targets.isdisjoint(about):
        return False
    if m.other_action or n.other_action or (m.person and n.person and m.person != n.person):
        return False
    if slot == "polarity":
        return m.polarity == n.polarity
    if slot == "amount":
        return not m.amounts.isdisjoint(n.amounts)
    values = {
        "frequency": (m.per_day, n.per_day),
        "duration": (m.days, n.days),
        "food": (m.food, n.food),
    }
    if slot in values:
        x, y = values[slot]
        return x is not None and x == y
    return slot == "time of day" and bool(m.times & n.times)


def compare(a_text: str, a_targets: frozenset[str], b_text: str, b_targets: frozenset[str]) -> tuple[bool, str | None]:
    """(decided, slot): whether the slots of two claims decide between them, and the slot they
    disagree on (None: they agree, or are about different things). Where one names nothing
    the lexicon knows, the content words their main clauses share are what they are about
    ("keep wearing the brace" / "leave the knee brace off")."""
    a, b = regimen_of(a_text, a_targets), regimen_of(b_text, b_targets)
    if not comparable(a, b):
        shared = instruction_words(a_text) & instruction_words(b_text)
        if not shared:
            return False, None
        a, b = replace(a, targets=shared), replace(b, targets=shared)
    return True, disagreement(a, b)


def supports(statement: str, claim: str) -> bool:
    """Whether what a clinician said, as the user reports it ("The GP said go to 20 mg"),
    goes the way of `claim` rather than against it ("The GP prescribed senna" does not
    support "leave out the senna")."""
    targets = regimen_of(claim).targets
    return compare(statement.lower(), targets, claim, targets)[1] is None
