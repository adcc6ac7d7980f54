"""The words and patterns the values of a regimen's slots are read with (`regimen_slots.py`):
amounts and units, counts of tablets and strengths, milligrams, restated doses, frequencies,
times of day, food, counts and durations. The words that read the instruction around them
(negations, permissions, limits, conditions, clauses, persons) are in `regimen_patterns.py`."""

from __future__ import annotations

import re
from collections.abc import Callable

NUMBER_WORDS = {"a": 1.0, "an": 1.0, "one": 1.0, "two": 2.0, "three": 3.0, "four": 4.0, "half": 0.5, "half a": 0.5}
UNITS = {
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
    "piece": "piece",
    "litre": "litre",
    "liter": "litre",
    "l": "litre",
}
AMOUNT = re.compile(
    r"\b(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?|half a|a|an|one|two|three|four|half)\s*-?\s*"
    r"(mg|milligrams?|mcg|micrograms?|µg|g|grams?|ml|millilit(?:re|er)s?|units?|iu|puffs?|tablets?|pills?|"
    r"capsules?|drops?|sprays?|teaspoons?|tsp|spoonfuls?|sachets?|patch(?:es)?|doses?|lit(?:re|er)s?|l|pieces?)\b"
)
# a count of tablets of a strength: "two 500 mg tablets" is 2 tablets, 1000 mg
COUNTED_STRENGTH = re.compile(
    r"\b(\d+|a|an|one|two|three|four|half)\s+(\d+(?:\.\d+)?)\s*(mg|mcg|micrograms?|g)\s+"
    r"(?:[\w-]+\s+)?(tablets?|capsules?|pills?)\b"
)
# a count of a form with the medicine's name between: "12 paracetamol tablets", "two cetirizine tablets"
NAMED_FORM = re.compile(
    r"\b(\d+|one|two|three|four)\s+(?!(?:mg|mcg|g|ml|more|extra|other|of|separate|different|small|large)\b)[a-z][\w-]*\s+"
    r"(tablets?|capsules?|pills?|puffs?|drops?|sachets?|sprays?)\b"
)
# amounts of a mass in milligrams: "1 g" is "1,000 mg", "400 micrograms" is "0.4 mg"
IN_MG = {"mg": 1.0, "g": 1000.0, "mcg": 0.001}
# a dose restated beside the new one: "take 1600 mg — your usual 800 mg plus the 800 mg you missed"
RESTATED = re.compile(r"\b(?:(?:your|the|his|her) usual|plus(?: the)?|on top of(?: the)?)\s+\d[\d.,]*\s*\w+")
# a product's strength, not a dose: "the 120 mg/5 ml suspension", "250 mg per 5 ml"
# a product's strength, not a dose: "the 120 mg/5 ml suspension", "250 mg per 5 ml", and the
# strength of the tablets one has: "six of your 5 mg tablets", "with 200 mg tablets" ("one 100 mg
# capsule" is a dose)
STRENGTH = re.compile(
    r"\b\d+(?:\.\d+)?\s*(?:mg|mcg|micrograms?|g)\s*(?:/|per|in)\s*(?:\d+(?:\.\d+)?\s*)?(?:ml|millilit(?:re|er)s?)\b|"
    r"\b(?:the|your|his|her|their|these|those|with|using)\s+\d+(?:\.\d+)?\s*(?:mg|mcg|micrograms?|g)\s+"
    r"(?:[\w-]+\s+)?(?:tablets?|capsules?|pills?|sachets?|patch(?:es)?|suppositor(?:y|ies))\b"
)
# "daily", "every day": each day, without saying how many times ("every morning and evening" is daily too)
EVERY_DAY = -1.0


def _per_interval(match: re.Match[str]) -> float:
    """Doses a day of "every 6 hours", "8 hours apart"."""
    return 24.0 / float(next(g for g in match.groups() if g))


def _counted(match: re.Match[str]) -> float:
    """Doses a day of "up to six times a day", "5 times a day"."""
    return COUNT_WORDS.get(match.group(1)) or float(match.group(1))


# each pattern with its doses a day, or the function that reads them from the match
FREQUENCIES: tuple[tuple[re.Pattern[str], float | Callable[[re.Match[str]], float]], ...] = (
    (re.compile(r"\b(?:four times|4 times|qds|qid) (?:a|per|each) day\b|\bfour[- ]times[- ]daily\b"), 4.0),
    (re.compile(r"\b(?:three times|3 times|tds|tid) (?:a|per|each) day\b|\bthree[- ]times[- ]daily\b"), 3.0),
    (
        re.compile(
            r"\b(?:twice|two times|2 times) (?:a|per|each) day\b|\btwice[- ]daily\b|\bbd\b|\bbid\b|"
            r"\b(?:every |each )?morning(?: and |-and-)(?:every |each )?(?:evening|night)\b|\bevery 12 hours\b|"
            r"\bbetween the two (?:daily )?doses\b"
        ),
        2.0,
    ),
    (re.compile(r"\bevery (\d+) hours\b|(?<!at least )(?<!at least about )\b(\d+) hours apart\b"), _per_interval),
    # any other count: "up to six times a day", "5 times a day"
    (re.compile(r"\b(\d+|five|six|seven|eight|nine|ten|twelve) times (?:a|per|each) day\b"), _counted),
    # all of the day's tablets at once: "take both tablets together", "1000 mg in one go"
    (re.compile(r"\b(?:both|all) (?:\w+ )?(?:tablets|capsules|doses) (?:together|at once)\b|\bin one go\b"), 1.0),
    (re.compile(r"\bevery hour\b|\bhourly\b"), 24.0),
    (
        re.compile(
            r"\b(?:once|one time) (?:a|per|each) day\b|\bonce[- ]daily\b|"
            r"\b(?:every|each) (?:morning|evening|night)\b|\bnightly\b"
        ),
        1.0,
    ),
    (re.compile(r"\bdaily\b|\b(?:every|each) day\b"), EVERY_DAY),
    (re.compile(r"\bevery other day\b|\bon alternate days\b"), 0.5),
    (re.compile(r"\b(?:once|one time) (?:a|per|each) week\b|\bweekly\b|\bevery week\b"), 1 / 7),
    (re.compile(r"\b(?:once|one time) (?:a|per|each) month\b|\bmonthly\b|\bevery month\b"), 1 / 30),
)
TIMES = (
    (
        "morning",
        re.compile(
            r"\b(?:morning|breakfast|when you wake|on waking|first thing|(?:when|as soon as) you (?:get|wake) up)\b"
        ),
    ),
    ("midday", re.compile(r"\b(?:midday|lunch|lunchtime|noon)\b")),
    ("evening", re.compile(r"\b(?:evening|dinner|supper|teatime|evening meal)\b")),
    ("night", re.compile(r"\b(?:night|bedtime|bed|before sleep|nighttime)\b")),
)
WITHOUT_FOOD = re.compile(
    r"\b(?:empty stomach|before (?:food|eating|meals?|breakfast|you eat)|without food|"
    r"(?:\d+|thirty|an hour|one hour) (?:minutes? |hours? )?before (?:food|eating|breakfast|meals?|you eat))\b"
)
EITHER_WAY = re.compile(r"\bwith or without (?:food|a meal|meals|eating)\b")
WITH_FOOD = re.compile(
    r"\b(?:(?:with|alongside|along with) (?:food|a meal|meals|a snack|something to eat|milk|"
    r"(?:(?:your|each|every|a|the|some) )?(?:\w+ (?:and )?)?(?:meals?|breakfast|lunch|dinner|supper|snack|cereal|"
    r"porridge|toast|yoghurt|yogurt))"
    r"(?: or (?:a )?(?:meal|snack|food))?|"
    r"after (?:food|eating|a meal|meals|your (?:\w+ )?meal|breakfast|lunch|dinner|supper)|"
    r"straight after (?:\w+ )?(?:eating|food|a meal|it)|"
    r"on a full stomach)\b"
)
COUNT_WORDS = {
    "five": 5.0,
    "six": 6.0,
    "seven": 7.0,
    "eight": 8.0,
    "nine": 9.0,
    "ten": 10.0,
    "twelve": 12.0,
    "fourteen": 14.0,
    "twenty one": 21.0,
    "twenty eight": 28.0,
    "a couple of": 2.0,
    "couple of": 2.0,
}
COUNT = (
    r"(\d+|a couple of|couple of|a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fourteen|twenty[- ]one|"
    r"twenty[- ]eight)"
)
# "for 5 days", "for up to 7 days", "for a full week", "no more than 14 days", "a 7-day course",
# "five days of penicillin", "the course is 10 days", "five days is enough"
DURATION = re.compile(
    r"\b(?:for|course of|lasts?|in total of|no (?:more|longer) than|beyond|past)\s+"
    r"(?:another\s+|a total of\s+|at least\s+|up to\s+|more than\s+|a full\s+|the full\s+|the next\s+|only\s+|just\s+)?"
    rf"{COUNT}\s+(?:more\s+)?(day|week|month)s?\b|"
    rf"\b{COUNT}[- ](day|week|month)s?(?:\s+|-)(?:course|in total|treatment)\b|"
    # "until you've completed 7 days", "until she has finished all five days"
    r"\buntil\s+(?:you|he|she|they)(?:'ve|'s|\s+have|\s+has)\s+(?:completed|finished|done|taken)\s+"
    rf"(?:all\s+|the\s+(?:full\s+)?)?{COUNT}\s+(day|week|month)s?\b|"
    rf"^(?:(?:a|an|only|just)\s+)?{COUNT}\s+(day|week|month)s?\s+of\b|"
    # "the course is 10 days", "five days is enough"
    rf"\b(?:course|treatment) is\s+(?:a |an |only |just )?{COUNT}\s+(day|week|month)s?\b|"
    rf"\b{COUNT}\s+(day|week|month)s?\s+(?:is|are|should be|will be)\s+(?:enough|plenty|sufficient|long enough)\b"
)
