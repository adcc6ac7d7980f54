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
from dataclasses import dataclass
from functools import lru_cache

from streams.extract.targets import CONCEPTS, topic_of

_CONTRACTIONS = (
    (re.compile(r"\bwon't\b"), "will not"),
    (re.compile(r"\bcan't\b|\bcannot\b"), "can not"),
    (re.compile(r"\bshan't\b"), "shall not"),
    (re.compile(r"n't\b"), " not"),
)
# words and phrases that turn an instruction around; each one flips the polarity
_FLIPS = re.compile(
    r"\b(?:not|never|no|none|nothing|neither|nor|avoid\w*|stop\w*|skip\w*|quit\w*|discontinu\w*|"
    r"cut out|cut it out|hold off|stay off|keep off|lay off|stay away|keep away|holding off|refrain\w*|"
    r"steer clear|come off|coming off|give up|"
    r"pause\w*|withh[oe]ld\w*|unsafe|dangerous|harmful|risky|inadvisable|off-limits|abstain\w*|"
    r"cease\w*|halt\w*)\b"
)
_CONDITIONAL = re.compile(
    r"\b(?:if|unless|in case|as needed|when needed|if needed|as required|whenever|should you|in the event|"
    r"once (?:you|your|it|the|they|he|she|that|this))\b"
)
_CHANGING = re.compile(
    r"\b(?:increas\w*|decreas\w*|reduc\w*|lower\w*|rais\w*|build(?:ing)? up|step(?:ping)? (?:up|down)|"
    r"go(?:ing)? up|go(?:ing)? down|taper\w*|titrat\w*|gradually|for the first|from next|"
    r"after (?:a|one|two|three|four|\d+) (?:days?|weeks?|months?)|start\w*)\b"
)
# subordinate clauses: context, not the instruction
_SUBORDINATE = re.compile(
    r"\b(?:if|unless|while|whilst|when|whenever|because|since|as long as|until|in case|so that|"
    r"though|although|however|except|but|as you|now that|given that|rather than|instead of|"
    r"once (?:you|your|it|the|they|he|she|that|this))\b"
)
_CONTEXT_PHRASE = re.compile(
    r"\b(?:with|alongside|together with|on top of|as well as|along with)\s+"
    r"(?:(?:your|the|a|an|any|some|other|my|his|her|their)\s+)?[\w-]+"
)

_NUMBER_WORDS = {"a": 1.0, "an": 1.0, "one": 1.0, "two": 2.0, "three": 3.0, "four": 4.0, "half": 0.5, "half a": 0.5}
_UNITS = {
    "mg": "mg",
    "milligram": "mg",
    "mcg": "mcg",
    "microgram": "mcg",
    "µg": "mcg",
    "g": "g",
    "gram": "g",
    "ml": "ml",
    "millilitre": "ml",
    "milliliter": "ml",
    "unit": "unit",
    "iu": "unit",
    "puff": "puff",
    "tablet": "tablet",
    "pill": "tablet",
    "capsule": "capsule",
    "drop": "drop",
    "spray": "spray",
    "teaspoon": "teaspoon",
    "tsp": "teaspoon",
    "spoonful": "teaspoon",
    "sachet": "sachet",
    "patch": "patch",
    "dose": "dose",
}
_AMOUNT = re.compile(
    r"\b(\d+(?:\.\d+)?|half a|a|an|one|two|three|four|half)\s*-?\s*"
    r"(mg|milligrams?|mcg|micrograms?|µg|g|grams?|ml|millilit(?:re|er)s?|units?|iu|puffs?|tablets?|pills?|"
    r"capsules?|drops?|sprays?|teaspoons?|tsp|spoonfuls?|sachets?|patch(?:es)?|doses?)\b"
)
_FREQUENCIES = (
    (re.compile(r"\b(?:four times|4 times|qds|qid) (?:a|per|each) day\b|\bfour times daily\b"), 4.0),
    (re.compile(r"\b(?:three times|3 times|tds|tid) (?:a|per|each) day\b|\bthree times daily\b"), 3.0),
    (
        re.compile(
            r"\b(?:twice|two times|2 times) (?:a|per|each) day\b|\btwice daily\b|\bbd\b|\bbid\b|"
            r"\bmorning and (?:evening|night)\b|\bevery 12 hours\b"
        ),
        2.0,
    ),
    (re.compile(r"\bevery (\d+) hours\b"), None),
    (re.compile(r"\b(?:once|one time) (?:a|per|each) day\b|\bonce daily\b|\bdaily\b|\bevery day\b"), 1.0),
    (re.compile(r"\b(?:once|one time) (?:a|per|each) week\b|\bweekly\b|\bevery week\b"), 1 / 7),
)
_TIMES = (
    ("morning", re.compile(r"\b(?:morning|breakfast|when you wake|on waking|first thing)\b|\d\s*am\b")),
    ("midday", re.compile(r"\b(?:midday|lunch|lunchtime|noon)\b")),
    ("evening", re.compile(r"\b(?:evening|dinner|supper|teatime|evening meal)\b")),
    ("night", re.compile(r"\b(?:night|bedtime|bed|before sleep|nighttime)\b|\d\s*pm\b")),
)
_WITHOUT_FOOD = re.compile(
    r"\b(?:empty stomach|before (?:food|eating|meals?|breakfast|you eat)|without food|"
    r"(?:\d+|thirty|an hour|one hour) (?:minutes? |hours? )?before (?:food|eating|breakfast|meals?|you eat))\b"
)
_WITH_FOOD = re.compile(
    r"\b(?:with (?:food|a meal|meals|your (?:\w+ )?meal|breakfast|lunch|dinner|supper|something to eat|milk)|"
    r"after (?:food|eating|a meal|meals|your (?:\w+ )?meal|breakfast|lunch|dinner|supper)|"
    r"straight after (?:\w+ )?(?:eating|food|a meal|it)|"
    r"on a full stomach)\b"
)
# names of a class, not of one drug: the concepts, their plurals, and lay names for them
_COUNT_WORDS = {"five": 5.0, "six": 6.0, "seven": 7.0, "ten": 10.0, "fourteen": 14.0}
_DURATION = re.compile(
    r"\b(?:for|course of|lasts?|in total of)\s+(?:another\s+|a total of\s+|at least\s+)?"
    r"(\d+|a|one|two|three|four|five|six|seven|ten|fourteen)\s+(day|week|month)s?\b|"
    r"\b(\d+|one|two|three|four|five|six|seven|ten|fourteen)[- ](day|week|month)s?\s+(?:course|in total)\b"
)
# "as for alcohol, it's best to avoid it": the first part names the topic, the second instructs
_TOPIC_INTRODUCER = re.compile(r"^(?:as for|as to|regarding|about|when it comes to|on the subject of)\b")
_RESUME = re.compile(r"\b(?:restart\w*|resum\w*|start \w+ again|start again|go back on|back on)\b")
# instructions about another action on the thing: sharing, storing, asking about it
_OTHER_ACTION = re.compile(
    r"^(?:(?:please|just|also|and|so|do not|never|always|remember to|make sure you|try to)\s+)*"
    r"(?:share|give|lend|store|carry|tell|let|ask|check|contact|call|book|mention|discuss|read|see|bring|show|"
    r"throw|dispose|pass|write|note|record|report|keep (?:\w+ )?out of)\b"
)
_CLASS_NAMES = frozenset(CONCEPTS)
_CLASS_ALIASES = frozenset(
    {
        "blood thinner",
        "blood thinners",
        "anti-inflammatory",
        "anti-inflammatories",
        "antiinflammatory",
        "painkiller",
        "painkillers",
        "pain relief",
        "pain reliever",
        "pain relievers",
    }
)


def _specific(targets: frozenset[str]) -> frozenset[str]:
    return frozenset(
        t for t in targets if t not in _CLASS_ALIASES and not any(t.startswith(name) for name in _CLASS_NAMES)
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
    other_action: bool = False  # about sharing, storing, asking …, not doing


def _normalise(text: str) -> str:
    lowered = text.lower().replace("’", "'")
    for pattern, replacement in _CONTRACTIONS:
        lowered = pattern.sub(replacement, lowered)
    return lowered


def _segments(text: str) -> list[str]:
    """The parts of a claim that carry its instruction: comma-separated segments that do not
    open with a subordinate clause, each cut where one starts, without "with …" context."""
    kept = []
    for segment in re.split(r"[,;:()–—]", text):
        segment = segment.strip()
        if not segment or _SUBORDINATE.match(segment):
            continue
        cut = _SUBORDINATE.search(segment)
        segment = " ".join(_CONTEXT_PHRASE.sub(" ", segment[: cut.start()] if cut else segment).split())
        if segment:
            kept.append(segment)
    return kept


def main_clause(text: str) -> str:
    """The claim without its subordinate clauses and "with …" context phrases."""
    return " ".join(_segments(text))


def states_dose(text: str) -> bool:
    """Whether a claim gives an amount or a frequency ("take 10 mg twice a day"): a dosing
    instruction that names no drug is about the one under discussion."""
    lowered = _normalise(text)
    return bool(_amounts(lowered)) or _per_day(lowered) is not None


def _days(text: str) -> float | None:
    match = _DURATION.search(text)
    if not match:
        return None
    count, unit = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
    number = _NUMBER_WORDS.get(count) or _COUNT_WORDS.get(count) or float(count)
    return number * {"day": 1.0, "week": 7.0, "month": 30.0}[unit]


def _amounts(text: str) -> frozenset[tuple[float, str]]:
    found = set()
    for number, unit in _AMOUNT.findall(text):
        value = _NUMBER_WORDS.get(number)
        stem = unit[:-2] if unit.endswith("es") and unit.startswith("patch") else unit.rstrip("s")
        found.add((value if value is not None else float(number), _UNITS.get(stem, stem)))
    return frozenset(found)


def _per_day(text: str) -> float | None:
    for pattern, value in _FREQUENCIES:
        match = pattern.search(text)
        if match:
            return 24.0 / float(match.group(1)) if value is None else value
    return None


def _food(text: str) -> str | None:
    if _WITHOUT_FOOD.search(text):
        return "without"
    if _WITH_FOOD.search(text):
        return "with"
    return None


def without_slots(text: str) -> str:
    for pattern in (_WITHOUT_FOOD, _WITH_FOOD, *(pattern for _, pattern in _TIMES)):
        text = pattern.sub(" ", text)
    return text


def _targets(core: str, inherited: frozenset[str], main: str) -> frozenset[str]:
    """What the instruction is about: the named things of its main clause with food and
    times of day taken out (`core`: "take it at bedtime" is about the drug, not sleep);
    else what it inherits; else the named things of the whole main clause."""
    named = topic_of(core).targets | {name for name in inherited if name in core}
    return frozenset(named or inherited or topic_of(main).targets)


@lru_cache(maxsize=8192)
def regimen_of(text: str, inherited: frozenset[str] = frozenset()) -> Regimen:
    """The slots of one claim; `inherited` are its targets when its main clause names none
    ("take it with food" after "start metformin")."""
    lowered = _normalise(text)
    segments = _segments(without_slots(lowered))
    targets = _targets(" ".join(segments), inherited, main_clause(lowered))
    own = [
        seg
        for seg in segments
        if not _TOPIC_INTRODUCER.match(seg) and (topic_of(seg).targets & targets or any(n in seg for n in targets))
    ]
    instruction = own[0] if own else (segments[0] if segments else "")
    flips = len(_FLIPS.findall(instruction))
    return Regimen(
        targets=targets,
        polarity=-1 if flips % 2 else 1,
        amounts=_amounts(lowered),
        per_day=_per_day(lowered),
        times=frozenset(name for name, pattern in _TIMES if pattern.search(lowered)),
        food=_food(lowered),
        conditional=bool(_CONDITIONAL.search(lowered)),
        changing=bool(_CHANGING.search(lowered)),
        days=_days(lowered),
        resumes=bool(_RESUME.search(instruction)),
        other_action=bool(_OTHER_ACTION.search(instruction)),
    )


def same_target(a: Regimen, b: Regimen) -> bool:
    """Both instructions are about the same thing: a shared drug or concept name; when both
    name specific drugs ("ibuprofen", "aspirin"), their shared class ("nsaid") is not enough."""
    specific_a, specific_b = _specific(a.targets), _specific(b.targets)
    if specific_a and specific_b:
        return not specific_a.isdisjoint(specific_b)
    return not a.targets.isdisjoint(b.targets)


def comparable(a: Regimen, b: Regimen) -> bool:
    """Whether the slots can decide: both name what they are about."""
    return bool(a.targets) and bool(b.targets)


def disagreement(a: Regimen, b: Regimen) -> str | None:
    """The slot on which two comparable claims disagree, or None when they agree (or are
    about different things, or one is conditional and the other is not)."""
    if not same_target(a, b) or a.conditional != b.conditional or a.other_action or b.other_action:
        return None
    if a.polarity != b.polarity:
        return None if a.resumes or b.resumes else "polarity"
    if a.polarity < 0:  # two prohibitions do not disagree on how to take the thing
        return None
    if not (a.changing or b.changing):
        units = {unit for _, unit in a.amounts} & {unit for _, unit in b.amounts}
        for unit in units:
            if {v for v, u in a.amounts if u == unit}.isdisjoint(v for v, u in b.amounts if u == unit):
                return "amount"
        if a.per_day is not None and b.per_day is not None and a.per_day != b.per_day:
            return "frequency"
        if a.days is not None and b.days is not None and a.days != b.days:
            return "duration"
    if a.food and b.food and a.food != b.food:
        return "food"
    if a.times and b.times and a.times.isdisjoint(b.times) and not (a.per_day or 0) > 1 and not (b.per_day or 0) > 1:
        return "time of day"
    return None
