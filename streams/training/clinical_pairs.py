"""Programmatic clinical advice pairs for NLI training (`contraflow nli train --clinical-pairs`).

SNLI teaches that a different event in the same scene is a contradiction; in a clinical
conversation two pieces of advice about different things do not conflict, while a
reversal of one piece of advice does. These pairs teach that reading: premise = earlier
advice, hypothesis = later advice, every pair emitted in both orders (each label holds
either way).

- entailment: the same advice said twice in different words (a regimen, "do not stop X" /
  "keep taking X", "avoid A" / "don't have any A", a permission, a daily limit);
- neutral: advice about different targets (drug, other drug, activity) in any directions,
  refinements of one drug's regimen on different slots, titration steps, conditional
  advice, advice for a different person;
- contradiction: a reversal of the same target (take / do not take, safe / not safe, can /
  must not), or the same drug with a changed dose, daily limit, timing, frequency or
  duration.

Drug names are the one-word generic names with an NHS medicines page in the dictionary of
the ``drug-named-entity-recognition`` package; activities and substances are listed here.
Everything is drawn from one seeded random generator.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable
from typing import Any

from contraflow.streams.core.extract.drug_dictionary import load_drug_dictionary
from contraflow.streams.errors import BadInput
from contraflow.streams.training.clinical_phrasings import (
    ACTIVITIES,
    CONDITIONAL,
    CONDITIONS,
    CONTINUE,
    DAYS,
    DISCOURSE,
    DOSES,
    ENCOURAGE,
    FOOD,
    FREQUENCY,
    LIMIT,
    MOVE,
    NUMBER_WORDS,
    OTHER_PERSON,
    PERMIT,
    PERSONS,
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
    TITRATION_NEXT,
    TITRATION_START,
    UNIT_FORMS,
    Target,
    drug_target,
)
from contraflow.streams.training.data import NLIExample

SOURCE = "clinical"
LABEL_SHARES = {"entailment": 0.3, "contradiction": 0.3}  # neutral: the rest
# Dictionary entries with an NHS page that are brands or products, not generic names.
NOT_GENERIC = frozenset({"buscopan", "fybogel", "gaviscon"})


@functools.cache
def common_drug_names() -> tuple[str, ...]:
    """One-word generic names with an NHS medicines page, plus their one-word generic
    synonyms (paracetamol), from the drug-named-entity-recognition dictionary."""
    dictionary = load_drug_dictionary()
    canonical = dictionary["drug_canonical_to_data"]
    word = re.compile(r"[a-z]+")
    names = {name for name, data in canonical.items() if word.fullmatch(name) and "nhs_url" in data} - NOT_GENERIC
    synonyms = {
        variant
        for variant, data in dictionary["drug_variant_to_variant_data"].items()
        if word.fullmatch(variant)
        and not data.get("is_brand")
        and variant not in canonical
        and names.intersection(dictionary["drug_variant_to_canonical"].get(variant, ()))
    }
    return tuple(sorted(names | synonyms))


Regimen = dict[str, Any]  # slot -> value: a dose is (amount, unit), a frequency doses a day (7: weekly, 0: as needed)


def _dose(rng: random.Random) -> tuple[float, str]:
    unit = rng.choice(tuple(DOSES))
    return rng.choice(DOSES[unit]), unit


def _other_dose(rng: random.Random, dose: tuple[float, str]) -> tuple[float, str]:
    """A different dose: another amount of the same unit, sometimes the same number in mg / micrograms."""
    amount, unit = dose
    if unit in ("mg", "micrograms") and rng.random() < 0.2:
        return amount, "micrograms" if unit == "mg" else "mg"
    return rng.choice([a for a in DOSES[unit] if a != amount]), unit


def _say_dose(rng: random.Random, dose: tuple[float, str]) -> str:
    amount, unit = dose
    number = f"{amount:g}"
    word = NUMBER_WORDS[int(amount)] if amount == int(amount) and amount < len(NUMBER_WORDS) else number
    text = rng.choice(UNIT_FORMS[unit]).format(n=number, w=word)
    return text + "s" if unit == "tablet" and amount != 1 else text


def _consistent(regimen: Regimen) -> Regimen:
    """Without a time of day ("every morning") where the frequency is not once a day."""
    if regimen.get("freq", 1) != 1:
        regimen.pop("time", None)
    return regimen


def _regimen(rng: random.Random, slots: int, required: str) -> Regimen:
    """A regimen of `slots` slots, `required` among them; a time of day only with a
    frequency of once a day."""
    chosen = [required, *rng.sample([s for s in SLOTS if s != required], slots - 1)]
    regimen = {slot: _dose(rng) if slot == "dose" else rng.choice(SLOT_VALUES[slot]) for slot in chosen}
    if "time" in regimen and "freq" in regimen:
        regimen["freq"] = 1
    return regimen


def _slot_text(rng: random.Random, slot: str, value: Any) -> str:
    if slot == "dose":
        return _say_dose(rng, value)
    if slot == "days":
        return f"for {rng.choice(DAYS[value])}"
    return rng.choice({"freq": FREQUENCY, "time": TIME, "food": FOOD}[slot][value])


def _fill(rng: random.Random, template: str, drug: str, regimen: Regimen, **extra: str) -> str:
    rest = [_slot_text(rng, slot, value) for slot, value in regimen.items() if slot != "dose"]
    rng.shuffle(rest)
    dose = _slot_text(rng, "dose", regimen["dose"]) if "dose" in regimen else ""
    slots = " ".join(filter(None, [dose, *rest]))
    return template.format(drug=drug, dose=dose, rest=" ".join(rest), slots=slots, **extra)


def _fits(template: str, regimen: Regimen) -> bool:
    """A template that names the dose needs a regimen with one."""
    return "{dose}" not in template or "dose" in regimen


def _say_regimen(rng: random.Random, drug: str, regimen: Regimen) -> str:
    templates = [rng.choice(REGIMEN_OPENERS).format(vp=vp) for vp in REGIMEN_VPS] + list(REGIMEN_SENTENCES)
    return _fill(rng, rng.choice([t for t in templates if _fits(t, regimen)]), drug, regimen)


def _tidy(text: str, rng: random.Random) -> str:
    """Spaces and capitals put right; sometimes a discourse opener ("Yes, ", "Actually, ")."""
    text = re.sub(r"\s+([.,])", r"\1", re.sub(r"\s+", " ", text)).strip()
    if rng.random() < 0.3:
        opener = rng.choice(DISCOURSE)
        text = opener + (text if re.match(r"I\b", text) else text[0].lower() + text[1:])
    return text[0].upper() + text[1:]


# -- statements about one target ------------------------------------------------------

Say = Callable[[random.Random], str]  # says one fixed piece of advice, in words drawn anew each call


def _say(rng: random.Random, target: Target, templates: tuple[str, ...], **extra: str) -> str:
    return rng.choice(templates).format(base=target.base, gerund=target.gerund, noun=target.noun, **extra)


def _no(target: Target) -> Say:
    """Advice against the target: do not, avoid, not safe, must not, stop."""
    templates = PROHIBIT + (PROHIBIT_CONSUMABLE if target.consumable else ()) + (STOP_DRUG if target.drug else ())
    return lambda rng: _say(rng, target, templates)


def _yes(rng: random.Random, target: Target, limits: bool = True) -> Say:
    """One piece of advice for the target, drawn with `rng`: a permission, a recommendation,
    a small amount allowed, or for a drug a continuation, a regimen or (with `limits`) a daily limit."""
    makers: list[Say] = [lambda r: _say(r, target, PERMIT)]
    if target.encouraged:
        makers.append(lambda r: _say(r, target, ENCOURAGE))
    if target.small:
        small = rng.choice(target.small)
        makers.append(lambda r: _say(r, target, SMALL, small=small))
    if target.drug:
        regimen, limit = _regimen(rng, rng.randint(1, 3), required=rng.choice(SLOTS)), _dose(rng)
        makers.append(lambda r: r.choice(CONTINUE).format(drug=target.noun))
        makers.append(lambda r: _say_regimen(r, target.noun, regimen))
        if limits:
            makers.append(lambda r: _say_limit(r, target.noun, limit))
    return rng.choice(makers)


def _say_limit(rng: random.Random, drug: str, dose: tuple[float, str]) -> str:
    return rng.choice(LIMIT).format(drug=drug, dose=_say_dose(rng, dose))


def _either(rng: random.Random, target: Target) -> str:
    """Advice for or against the target."""
    return (_yes(rng, target) if rng.random() < 0.5 else _no(target))(rng)


def _target(rng: random.Random, drugs: tuple[str, ...], drug: bool) -> Target:
    return drug_target(rng.choice(drugs)) if drug else rng.choice(ACTIVITIES)


def _other_than(rng: random.Random, drugs: tuple[str, ...], target: Target, drug: bool) -> Target:
    """Another target, named by none of the words that name `target`."""
    other = _target(rng, drugs, drug)
    while other.words & target.words:
        other = _target(rng, drugs, drug)
    return other


# -- pair families: each returns (premise, hypothesis) -----------------------------------

Pair = tuple[str, str]


def _restated(rng: random.Random, drugs: tuple[str, ...]) -> Pair:
    target = _target(rng, drugs, rng.random() < 0.5)
    say = _yes(rng, target) if rng.random() < 0.6 else _no(target)
    return say(rng), say(rng)


def _reversed(rng: random.Random, drugs: tuple[str, ...]) -> Pair:
    target = _target(rng, drugs, rng.random() < 0.5)
    pair = _yes(rng, target)(rng), _no(target)(rng)
    return pair if rng.random() < 0.5 else pair[::-1]


def _changed_slot(slot: str) -> Callable[[random.Random, tuple[str, ...]], Pair]:
    """Contradictions: a regimen against the same drug's regimen with `slot` changed
    (keeping some of the other slots)."""

    def pair(rng: random.Random, drugs: tuple[str, ...]) -> Pair:
        drug = rng.choice(drugs)
        regimen = _regimen(rng, rng.randint(1, 3), required=slot)
        old = regimen[slot]
        new = _other_dose(rng, old) if slot == "dose" else rng.choice([v for v in SLOT_VALUES[slot] if v != old])
        kept = {s: v for s, v in regimen.items() if s != slot and rng.random() < 0.5}
        changed = _consistent({slot: new, **kept})
        return _say_regimen(rng, drug, regimen), _say_regimen(rng, drug, changed)

    return pair


def _changed_limit(rng: random.Random, drugs: tuple[str, ...]) -> Pair:
    drug, dose = rng.choice(drugs), _dose(rng)
    return _say_limit(rng, drug, dose), _say_limit(rng, drug, _other_dose(rng, dose))


def _other_target(rng: random.Random, drugs: tuple[str, ...]) -> Pair:
    """Advice on two different targets, each for or against."""
    first, second = rng.choice(((True, True), (True, False), (False, True), (False, False)))
    one = _target(rng, drugs, first)
    return _either(rng, one), _either(rng, _other_than(rng, drugs, one, second))


def _refinement(rng: random.Random, drugs: tuple[str, ...]) -> Pair:
    """One drug's regimen told in two parts on different slots (in the morning / with food)."""
    drug = rng.choice(drugs)
    regimen = _regimen(rng, rng.randint(2, 4), required=rng.choice(SLOTS))
    slots = list(regimen)
    rng.shuffle(slots)
    cut = rng.randint(1, len(slots) - 1)
    first, second = ({s: regimen[s] for s in part} for part in (slots[:cut], slots[cut:]))
    return _say_regimen(rng, drug, first), _say_regimen(rng, drug, second)


def _titration(rng: random.Random, drugs: tuple[str, ...]) -> Pair:
    drug, days = rng.choice(drugs), rng.choice(tuple(DAYS))
    start = _dose(rng)
    amount, unit = start
    then = rng.choice([a for a in DOSES[unit] if a != amount]), unit
    first = rng.choice(TITRATION_START).format(drug=drug, dose=_say_dose(rng, start), days=rng.choice(DAYS[days]))
    move = rng.choice(MOVE[then[0] > amount])
    second = rng.choice(TITRATION_NEXT).format(
        drug=drug, dose=_say_dose(rng, then), days=rng.choice(DAYS[days]), move=move
    )
    return first, second


def _conditional(rng: random.Random, drugs: tuple[str, ...]) -> Pair:
    """Conditional advice on a drug against advice on another target, or against a plain
    yes to the same drug ("Keep taking X." / "If you get a rash, stop X.")."""
    drug = drug_target(rng.choice(drugs))
    said = rng.choice(CONDITIONAL).format(drug=drug.noun, dose=_say_dose(rng, _dose(rng)), cond=rng.choice(CONDITIONS))
    if rng.random() < 0.5:
        return said, _either(rng, _other_than(rng, drugs, drug, rng.random() < 0.5))
    return _yes(rng, drug, limits=False)(rng), said


def _other_person(rng: random.Random, drugs: tuple[str, ...]) -> Pair:
    """Advice on a drug for someone else against advice on it for the patient."""
    drug = drug_target(rng.choice(drugs))
    regimen = _regimen(rng, rng.randint(1, 3), required=rng.choice(SLOTS))
    template = rng.choice([t for t in OTHER_PERSON if _fits(t, regimen)])
    theirs = _fill(rng, template, drug.noun, regimen, person=rng.choice(PERSONS))
    return theirs, _either(rng, drug)


Family = Callable[[random.Random, tuple[str, ...]], Pair]
FAMILIES: dict[str, tuple[tuple[str, float, Family], ...]] = {
    "entailment": (("restated", 1.0, _restated),),
    "neutral": (
        ("other-target", 0.5, _other_target),
        ("refinement", 0.15, _refinement),
        ("titration", 0.1, _titration),
        ("conditional", 0.15, _conditional),
        ("other-person", 0.1, _other_person),
    ),
    "contradiction": (
        ("reversal", 0.45, _reversed),
        ("dose", 0.15, _changed_slot("dose")),
        ("limit", 0.1, _changed_limit),
        ("frequency", 0.1, _changed_slot("freq")),
        ("time", 0.07, _changed_slot("time")),
        ("food", 0.07, _changed_slot("food")),
        ("duration", 0.06, _changed_slot("days")),
    ),
}


def clinical_pairs(count: int, seed: int) -> list[NLIExample]:
    """`count` labelled advice pairs (about 30 % entailment, 40 % neutral, 30 % contradiction),
    each followed by its swapped copy (an odd count ends without the last copy). Source:
    ``clinical/<family>``. The same seed gives the same pairs."""
    if count < 0:
        raise BadInput(f"the number of clinical pairs must be 0 or more, got {count}")
    if not count:
        return []
    rng = random.Random(seed)
    drugs = common_drug_names()
    kept = (count + 1) // 2
    labels = [label for label, share in LABEL_SHARES.items() for _ in range(round(share * kept))]
    labels += ["neutral"] * (kept - len(labels))
    rng.shuffle(labels)
    seen: set[Pair] = set()
    examples: list[NLIExample] = []
    for label in labels:
        families = FAMILIES[label]
        pair: Pair = ("", "")
        while pair[0] == pair[1] or pair in seen:
            name, _, family = rng.choices(families, weights=[weight for _, weight, _ in families])[0]
            premise, hypothesis = family(rng, drugs)
            pair = _tidy(premise, rng), _tidy(hypothesis, rng)
        seen.update((pair, pair[::-1]))
        source = f"{SOURCE}/{label}-{name}"
        for premise, hypothesis in (pair, pair[::-1]):
            examples.append(NLIExample(premise=premise, hypothesis=hypothesis, label=label, source=source))
    return examples[:count]
