"""The ways one piece of clinical advice is said, for the advice pairs (`clinical_pairs.py`):
doses, regimens (a dose, frequency, time of day, food, duration; drawn, changed and told in
words), daily limits, and advice for or against one target (yes, no, either). Each function
draws its words from the seeded generator it is given; the phrasings are in
`clinical_phrasings.py`."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from contraflow.streams.training.clinical_phrasings import (
    CONTINUE,
    DAYS,
    DOSES,
    ENCOURAGE,
    FOOD,
    FREQUENCY,
    LIMIT,
    NUMBER_WORDS,
    PERMIT,
    PROHIBIT,
    PROHIBIT_CONSUMABLE,
    REGIMEN_OPENERS,
    REGIMEN_SENTENCES,
    REGIMEN_VPS,
    SLOT_VALUES,
    SLOTS,
    SMALL,
    STOP_DRUG,
    TIME,
    UNIT_FORMS,
)
from contraflow.streams.training.clinical_targets import Target

Regimen = dict[str, Any]  # slot -> value: a dose is (amount, unit), a frequency doses a day (7: weekly, 0: as needed)


def draw_dose(rng: random.Random) -> tuple[float, str]:
    unit = rng.choice(tuple(DOSES))
    return rng.choice(DOSES[unit]), unit


def other_dose(rng: random.Random, dose: tuple[float, str]) -> tuple[float, str]:
    """A different dose: another amount of the same unit, sometimes the same number in mg / micrograms."""
    amount, unit = dose
    if unit in ("mg", "micrograms") and rng.random() < 0.2:
        return amount, "micrograms" if unit == "mg" else "mg"
    return rng.choice([a for a in DOSES[unit] if a != amount]), unit


def say_dose(rng: random.Random, dose: tuple[float, str]) -> str:
    amount, unit = dose
    number = f"{amount:g}"
    word = NUMBER_WORDS[int(amount)] if amount == int(amount) and amount < len(NUMBER_WORDS) else number
    text = rng.choice(UNIT_FORMS[unit]).format(n=number, w=word)
    return text + "s" if unit == "tablet" and amount != 1 else text


def consistent(regimen: Regimen) -> Regimen:
    """Without a time of day ("every morning") where the frequency is not once a day."""
    if regimen.get("freq", 1) != 1:
        regimen.pop("time", None)
    return regimen


def draw_regimen(rng: random.Random, slots: int, required: str) -> Regimen:
    """A regimen of `slots` slots, `required` among them; a time of day only with a
    frequency of once a day."""
    chosen = [required, *rng.sample([s for s in SLOTS if s != required], slots - 1)]
    regimen = {slot: draw_dose(rng) if slot == "dose" else rng.choice(SLOT_VALUES[slot]) for slot in chosen}
    if "time" in regimen and "freq" in regimen:
        regimen["freq"] = 1
    return regimen


def _slot_text(rng: random.Random, slot: str, value: Any) -> str:
    if slot == "dose":
        return say_dose(rng, value)
    if slot == "days":
        return f"for {rng.choice(DAYS[value])}"
    return rng.choice({"freq": FREQUENCY, "time": TIME, "food": FOOD}[slot][value])


def fill(rng: random.Random, template: str, drug: str, regimen: Regimen, **extra: str) -> str:
    rest = [_slot_text(rng, slot, value) for slot, value in regimen.items() if slot != "dose"]
    rng.shuffle(rest)
    dose = _slot_text(rng, "dose", regimen["dose"]) if "dose" in regimen else ""
    slots = " ".join(filter(None, [dose, *rest]))
    return template.format(drug=drug, dose=dose, rest=" ".join(rest), slots=slots, **extra)


def fits(template: str, regimen: Regimen) -> bool:
    """A template that names the dose needs a regimen with one."""
    return "{dose}" not in template or "dose" in regimen


def say_regimen(rng: random.Random, drug: str, regimen: Regimen) -> str:
    templates = [rng.choice(REGIMEN_OPENERS).format(vp=vp) for vp in REGIMEN_VPS] + list(REGIMEN_SENTENCES)
    return fill(rng, rng.choice([t for t in templates if fits(t, regimen)]), drug, regimen)


# -- statements about one target ------------------------------------------------------

Say = Callable[[random.Random], str]  # says one fixed piece of advice, in words drawn anew each call


def _say(rng: random.Random, target: Target, templates: tuple[str, ...], **extra: str) -> str:
    return rng.choice(templates).format(base=target.base, gerund=target.gerund, noun=target.noun, **extra)


def no(target: Target) -> Say:
    """Advice against the target: do not, avoid, not safe, must not, stop."""
    templates = PROHIBIT + (PROHIBIT_CONSUMABLE if target.consumable else ()) + (STOP_DRUG if target.drug else ())
    return lambda rng: _say(rng, target, templates)


def yes(rng: random.Random, target: Target, limits: bool = True) -> Say:
    """One piece of advice for the target, drawn with `rng`: a permission, a recommendation,
    a small amount allowed, or for a drug a continuation, a regimen or (with `limits`) a daily limit."""
    makers: list[Say] = [lambda r: _say(r, target, PERMIT)]
    if target.encouraged:
        makers.append(lambda r: _say(r, target, ENCOURAGE))
    if target.small:
        small = rng.choice(target.small)
        makers.append(lambda r: _say(r, target, SMALL, small=small))
    if target.drug:
        regimen, limit = draw_regimen(rng, rng.randint(1, 3), required=rng.choice(SLOTS)), draw_dose(rng)
        makers.append(lambda r: r.choice(CONTINUE).format(drug=target.noun))
        makers.append(lambda r: say_regimen(r, target.noun, regimen))
        if limits:
            makers.append(lambda r: say_limit(r, target.noun, limit))
    return rng.choice(makers)


def say_limit(rng: random.Random, drug: str, dose: tuple[float, str]) -> str:
    return rng.choice(LIMIT).format(drug=drug, dose=say_dose(rng, dose))


def either(rng: random.Random, target: Target) -> str:
    """Advice for or against the target."""
    return (yes(rng, target) if rng.random() < 0.5 else no(target))(rng)
