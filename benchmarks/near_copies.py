"""Near copies of an advice sentence, for `sentence_pairs.py augment`: the kinds of change
(a number, a word of direction, timing or frequency, the drug, an added condition, the
person the advice is for, the way it is put, two changes at once) and `perturbations`,
which draws one of each kind a sentence allows."""

from __future__ import annotations

import random
import re

WORD = re.compile(r"[a-z0-9]+")

_SWAPS = [
    ("twice", "once"),
    ("once", "twice"),
    ("three times", "twice"),
    ("daily", "weekly"),
    ("weekly", "daily"),
    ("morning", "evening"),
    ("evening", "morning"),
    ("night", "morning"),
    ("bedtime", "breakfast"),
    ("before", "after"),
    ("after", "before"),
    ("with food", "on an empty stomach"),
    ("increase", "reduce"),
    ("reduce", "increase"),
    ("more", "less"),
    ("less", "more"),
    ("start", "stop"),
    ("stop", "keep taking"),
    ("continue", "stop"),
    ("avoid", "try"),
    ("safe", "risky"),
    ("fine", "not advisable"),
    ("can", "cannot"),
    ("should", "should not"),
    ("do not", "do"),
    ("don't", "do"),
    ("never", "always"),
    ("always", "never"),
    ("must", "need not"),
    ("not", ""),
    ("no longer", "still"),
    ("still", "no longer"),
    ("yes", "no"),
]
_NUMBER = re.compile(r"\b\d+(?:\.\d+)?\b")


_CONDITIONS = [
    "if the pain comes back",
    "unless your doctor tells you otherwise",
    "only if your blood pressure is above 140",
    "while you are pregnant",
    "for the next two weeks",
    "until your kidney results are back",
    "if you feel dizzy",
    "as long as you have no side effects",
    "on the days you exercise",
    "once the rash has cleared",
]
_PEOPLE = [
    ("you", "your son"),
    ("you", "your mother"),
    ("your child", "you"),
    ("your daughter", "you"),
    ("your husband", "you"),
    ("your father", "you"),
]
_HEDGES = ["I recommend that you", "It is best to", "Please", "You should", "My advice is to"]
KINDS = ("number", "swap", "drug", "condition", "person", "hedge", "double")


def _swapped(sentence: str, draw: random.Random) -> str | None:
    lower = sentence.lower()
    found = [(old, new) for old, new in _SWAPS if re.search(rf"\b{re.escape(old)}\b", lower)]
    if not found:
        return None
    old, new = draw.choice(found)
    hit = re.search(rf"\b{re.escape(old)}\b", sentence, flags=re.IGNORECASE)
    return re.sub(r"\s{2,}", " ", sentence[: hit.start()] + new + sentence[hit.end() :]).strip() if hit else None


def _renumbered(sentence: str, draw: random.Random) -> str | None:
    numbers = list(_NUMBER.finditer(sentence))
    if not numbers:
        return None
    hit = draw.choice(numbers)
    value = float(hit.group())
    new = draw.choice([value * 2, value / 2, value + draw.choice([1, 5, 10])])
    return sentence[: hit.start()] + f"{new:g}" + sentence[hit.end() :]


def perturbations(sentence: str, drugs: list[str], draw: random.Random, kinds: tuple[str, ...] = KINDS) -> list[str]:
    """Near copies of an advice sentence with one thing changed: a number, a word of
    direction, timing or frequency, the drug, an added condition, the person the advice is
    for, the way it is put ("You should" for an imperative) or two of the first changes at
    once. Whether the change contradicts is the teacher's call: "once" for "twice" does,
    "evening" for "morning" may not, advice for your son does not bind you."""
    out: list[str | None] = []
    lower = sentence.lower()
    if "number" in kinds:
        out.append(_renumbered(sentence, draw))
    if "swap" in kinds:
        out.append(_swapped(sentence, draw))
    named = [w for w in WORD.findall(lower) if w in drugs]
    if "drug" in kinds and named and len(drugs) > 1:
        old = draw.choice(named)
        new = draw.choice([d for d in drugs if d != old])
        out.append(re.sub(rf"\b{re.escape(old)}\b", new, sentence, flags=re.IGNORECASE))
    if "condition" in kinds and sentence.endswith("."):
        out.append(f"{sentence[:-1]} {draw.choice(_CONDITIONS)}.")
    if "person" in kinds:
        found = [(old, new) for old, new in _PEOPLE if re.search(rf"\b{old}\b", lower)]
        if found:
            old, new = draw.choice(found)
            out.append(re.sub(rf"\b{old}\b", new, sentence, count=1, flags=re.IGNORECASE))
    if "hedge" in kinds and sentence[:1].isupper() and lower.split()[:1] != ["you"]:
        first, _, rest = sentence.partition(" ")
        if rest and first.lower() in {"take", "stop", "avoid", "keep", "use", "start", "do", "try", "drink", "eat"}:
            out.append(f"{draw.choice(_HEDGES)} {first.lower()} {rest}")
    if "double" in kinds:
        once = _swapped(sentence, draw)
        twice = _renumbered(once, draw) if once else None
        out.append(twice)
    return [o for o in out if o and o != sentence]
