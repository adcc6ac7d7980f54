"""The slots of one claim (`Regimen`) and how each value is read from the claim's text:
amounts, doses a day, how many days, parts of the day, food, whom the instruction is for,
the other action it is about, and how many times it turns around; and the text without
its food, time, water and body-part phrases (`without_slots`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from contraflow.streams.core.extract.advice import is_imperative
from contraflow.streams.core.extract.regimen_clauses import without_explanation
from contraflow.streams.core.extract.regimen_patterns import (
    ALTERNATIVE,
    EXTRA_DOSE,
    FLIPS,
    GIVING,
    OTHER_ACTION,
    PERSON,
    PERSON_LABEL,
    PERSON_OF,
    RECIPIENT,
    SPACED_FROM,
    SPACING,
)
from contraflow.streams.core.extract.regimen_values import (
    AMOUNT,
    COUNT_WORDS,
    COUNTED_STRENGTH,
    DURATION,
    EITHER_WAY,
    FREQUENCIES,
    IN_MG,
    NAMED_FORM,
    NUMBER_WORDS,
    RESTATED,
    STRENGTH,
    TIMES,
    UNITS,
    WITH_FOOD,
    WITHOUT_FOOD,
)
from contraflow.streams.core.extract.target_lexicon import BODY_PARTS


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
    thing_not_needed: bool = False  # "you don't need any more blood tests": the thing, whatever one does with it
    unlimited: bool = False  # no most: "as much salt as you like"
    only_when: bool = False  # only in its condition's case: "only use it on days when you feel unwell"
    limit: bool = False  # states a most: "no more than 8 tablets in 24 hours", "up to four times a day"
    person: str | None = None  # whom the instruction is for, where it says: "you", "he", "your son" …
    conditions: frozenset[str] = frozenset()  # content words of the condition ("if you become pregnant")
    one_dose_of_several: bool = False  # "the second dose", "his morning dose": one of the day's doses
    stage: bool = False  # one stage of a plan: "for the first two weeks", "from two weeks"
    regardless: bool = False  # holds whatever happens: "even if you feel better", "even while you're ill"
    step: str | None = None  # the step of a schedule it gives: "day 3", "day 4-5"
    others: bool = False  # about the other members of a class: "any other anti-inflammatories"
    whole_class: bool = False  # about one member and the others: "ibuprofen and other anti-inflammatories"


_ADVISES_READER = re.compile(r"^(?:i|we)(?:'d| would)?\s+(?:strongly\s+)?(?:advise|recommend|suggest|urge)\b")


def addressee(instruction: str, lowered: str) -> str | None:
    """Whom an instruction is for, when its main clause says: "he shouldn't be running" is for
    "he", "you can keep running" and an imperative ("keep up the running") for "you"; "you can give him
    ibuprofen" is for "he" (the reader gives, he takes); "give the paracetamol if she seems
    uncomfortable" is for "she", whom the rest of the claim names."""
    match = PERSON_LABEL.match(lowered) or RECIPIENT.search(instruction) or PERSON.search(instruction)
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


def days_of(text: str) -> float | None:
    match = DURATION.search(text)
    if not match:
        return None
    count, unit = next((match.group(i), match.group(i + 1)) for i in range(1, match.re.groups, 2) if match.group(i))
    count = count.replace("-", " ")
    number = NUMBER_WORDS.get(count) or COUNT_WORDS.get(count) or float(count)
    return number * {"day": 1.0, "week": 7.0, "month": 30.0}[unit]


def given_amounts(lowered: str) -> frozenset[tuple[float, str]]:
    """The amounts a claim gives: not those of its reasons, nor a dose it only restates
    beside the new one; a claim that only restates one gives that one."""
    return amounts_of(RESTATED.sub(" ", without_explanation(lowered))) or amounts_of(lowered)


def _count(number: str) -> float:
    value = NUMBER_WORDS.get(number)
    return value if value is not None else float(number.replace(",", ""))


# a range of amounts: "2–4 puffs", "200 to 400 mg" allow each end
_RANGE = re.compile(r"\b(\d+(?:\.\d+)?)\s*(?:\u2013|-|to)\s*(\d+(?:\.\d+)?)\s*([a-z\u00b5]+)\b")


def amounts_of(text: str) -> frozenset[tuple[float, str]]:
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


def per_day_of(text: str) -> float | None:
    if _AS_NEEDED.search(text):
        return None
    for pattern, value in FREQUENCIES:
        match = pattern.search(text)
        if match:
            return value(match) if callable(value) else value
    return None


# a time or meal the instruction turns away from: "at bedtime rather than in the morning", "not right at
# bedtime" (the negation is of the time, not of the instruction)
RATHER = re.compile(
    r"\b(?:rather than|instead of)\b[^,.;:\u2014\u2013]*|"
    r"\bnot (?:right |just |straight )?(?:at|before|after|with|on|in|near|close to) (?:\w+ ){0,3}?"
    r"(?:bedtime|bed|night|morning|evening|food|meals?|breakfast|lunch|dinner|stomach)\b"
)
# a clock time: "by 2pm", "at 10 pm", "7:30am"
_CLOCK = re.compile(r"\b(\d{1,2})(?:[:.]\d{2})?\s*(am|pm)\b")


_STEP = re.compile(r"^\W*(?:as for )?(day|week)s? (\d+)(?:\s*(?:–|-|to)\s*(\d+))?")


def step_of(lowered: str) -> str | None:
    """The step of a schedule a claim opens with ("Days 4–5: …" is "day 4-5"), else None."""
    match = _STEP.match(lowered)
    if not match:
        return None
    unit, first, last = match.groups()
    return f"{unit} {first}-{last}" if last else f"{unit} {first}"


def schedule_text(lowered: str) -> str:
    """The part of a claim that says when and how to take something: not its reasons, nor
    the time it turns away from."""
    return RATHER.sub(" ", without_explanation(lowered))


def _clock_part(hour: int, half: str) -> str:
    hour = hour % 12 + (12 if half == "pm" else 0)
    if 5 <= hour < 12:
        return "morning"
    if 12 <= hour < 17:
        return "midday"
    return "evening" if 17 <= hour < 21 else "night"


def times_of(text: str) -> frozenset[str]:
    """The parts of the day a claim names: words ("at bedtime") and clock times ("by 2pm")."""
    named = {name for name, pattern in TIMES if pattern.search(text)}
    return frozenset(named | {_clock_part(int(h), half) for h, half in _CLOCK.findall(text)})


def food_of(text: str) -> str | None:
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


def flip_count(instruction: str) -> int:
    """How many times the instruction turns around; alternatives count once ("stop or pause")."""
    count, end = 0, None
    for match in FLIPS.finditer(instruction):
        if end is None or not ALTERNATIVE.fullmatch(instruction[end : match.start()]):
            count += 1
        end = match.end()
    return count


def other_action_of(instruction: str, head: str, lowered: str) -> str | None:
    """The other action a claim is about ("check", "book", "extra dose", "spacing"), or None
    when it is about doing the thing itself."""
    if EXTRA_DOSE.search(lowered):
        return "extra dose"
    if SPACING.search(instruction) or SPACED_FROM.search(lowered):
        return "spacing"
    found = next((m for part in (instruction, head) if (m := OTHER_ACTION.search(part))), None)
    return found.group(0).split()[-1] if found else None
