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
from dataclasses import dataclass
from typing import Any

from contraflow.streams.core.extract.drug_dictionary import load_drug_dictionary
from contraflow.streams.errors import BadInput
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


@dataclass(frozen=True)
class Target:
    """Something advice is about: a drug, an activity or a substance."""

    base: str  # verb phrase: "drive", "take ibuprofen"
    gerund: str  # "driving", "taking ibuprofen"
    noun: str  # "driving", "ibuprofen"
    words: frozenset[str]  # the words that name it in every sentence about it
    small: tuple[str, ...] = ()  # a small amount that may be allowed ("a glass of wine")
    encouraged: bool = False  # advice may recommend it
    consumable: bool = False  # "don't have any ..." reads well
    drug: bool = False


def _activity(base: str, gerund: str, words: str, noun: str = "", small: tuple[str, ...] = (), **flags: bool) -> Target:
    return Target(base, gerund, noun or gerund, frozenset(words.split()), small, **flags)


ACTIVITIES: tuple[Target, ...] = (
    _activity("drive", "driving", "drive driving"),
    _activity(
        "drink alcohol",
        "drinking alcohol",
        "alcohol wine beer",
        noun="alcohol",
        small=("a glass of wine", "the odd beer", "a small glass of wine with dinner"),
        consumable=True,
    ),
    _activity(
        "exercise", "exercising", "exercise exercising", noun="exercise", small=("light exercise",), encouraged=True
    ),
    _activity(
        "have caffeine",
        "having caffeine",
        "caffeine coffee",
        noun="caffeine",
        small=("one coffee a day", "a cup of coffee in the morning"),
        consumable=True,
    ),
    _activity("fly", "flying", "fly flying flights"),
    _activity("swim", "swimming", "swim swimming", encouraged=True),
    _activity("lift heavy things", "lifting heavy things", "lift lifting heavy"),
    _activity("go out in the sun", "going out in the sun", "sun", noun="the sun", small=("a little sun",)),
    _activity("nap during the day", "napping during the day", "nap napping naps", noun="daytime naps"),
    _activity("take hot baths", "taking hot baths", "bath baths", noun="hot baths"),
    _activity("drink lots of fluids", "drinking lots of fluids", "fluids", noun="extra fluids", encouraged=True),
    _activity(
        "add salt to your food", "adding salt to your food", "salt salty", noun="salt", small=("a pinch of salt",)
    ),
    _activity(
        "eat sugary foods",
        "eating sugary foods",
        "sugary sugar sweets",
        noun="sugar",
        small=("a little sugar in your tea",),
    ),
    _activity("use screens before bed", "using screens before bed", "screens", noun="screens at bedtime"),
    _activity("go back to work", "going back to work", "work", noun="work", small=("light duties at work",)),
    _activity("go to school", "going to school", "school", noun="school"),
    _activity("smoke", "smoking", "smoke smoking cigarettes", noun="cigarettes", consumable=True),
    _activity("eat grapefruit", "eating grapefruit", "grapefruit", noun="grapefruit", consumable=True),
    _activity("play contact sports", "playing contact sports", "contact sports", noun="contact sports"),
    _activity("get the wound wet", "getting the wound wet", "wound wet"),
    _activity("put weight on the ankle", "putting weight on the ankle", "ankle"),
    _activity("climb stairs", "climbing stairs", "stairs", encouraged=True),
    _activity("travel abroad", "travelling abroad", "travel travelling abroad"),
    _activity("eat dairy", "eating dairy", "dairy milk cheese", noun="dairy", small=("a splash of milk in your tea",)),
    _activity("go to the gym", "going to the gym", "gym", noun="the gym", encouraged=True),
    _activity("cycle", "cycling", "cycle cycling", encouraged=True),
    _activity("walk", "walking", "walk walking walks", encouraged=True, small=("short walks",)),
    _activity("use your inhaler", "using your inhaler", "inhaler", noun="your inhaler", encouraged=True),
    _activity("put the cream on", "putting the cream on", "cream", noun="the cream", encouraged=True),
    _activity("use the eye drops", "using the eye drops", "eye drops", noun="the eye drops", encouraged=True),
    _activity("wear the brace", "wearing the brace", "brace", noun="the brace", encouraged=True),
)


def drug_target(name: str) -> Target:
    return Target(f"take {name}", f"taking {name}", name, frozenset({name}), consumable=True, drug=True)


# -- how each kind of advice is said --------------------------------------------------

DISCOURSE = ("Yes, ", "Actually, ", "Okay, ", "So, ", "Right, ", "Well, ", "Alright, ", "And ")
PERMIT = (
    "You can {base}.",
    "It's fine to {base}.",
    "It's okay to {base}.",
    "{gerund} is fine.",
    "{gerund} is safe for you.",
    "There's no problem with {gerund}.",
    "Feel free to {base}.",
    "You're allowed to {base}.",
    "Go ahead and {base}.",
    "You don't need to avoid {noun}.",
    "It's safe for you to {base}.",
    "{gerund} won't do you any harm.",
    "Nothing wrong with {gerund}.",
    "I'm happy for you to {base}.",
)
PROHIBIT = (
    "Don't {base}.",
    "Do not {base}.",
    "You must not {base}.",
    "You shouldn't {base}.",
    "Please avoid {gerund}.",
    "Avoid {gerund}.",
    "Stay away from {noun}.",
    "Steer clear of {noun}.",
    "No {noun} for now.",
    "It's not safe for you to {base}.",
    "{gerund} is not safe for you.",
    "I don't want you {gerund}.",
    "Cut out {noun} completely.",
    "Please stop {gerund}.",
    "It's best not to {base}.",
    "I'd recommend that you don't {base}.",
)
PROHIBIT_CONSUMABLE = ("Don't have any {noun}.", "No {noun} at all, please.", "You can't have any {noun}.")
STOP_DRUG = (
    "Stop {noun}.",
    "Stop taking {noun}.",
    "Come off {noun}.",
    "Don't take any more {noun}.",
    "Stop the {noun} now.",
    "I'd stop the {noun}.",
    "You should stop taking {noun}.",
    "It's best to come off {noun}.",
    "No more {noun}.",
)
ENCOURAGE = (
    "You should {base}.",
    "Make sure you {base}.",
    "Try to {base}.",
    "I'd recommend {gerund}.",
    "It would help to {base}.",
    "{gerund} will do you good.",
    "Keep {gerund}.",
    "It's a good idea to {base}.",
    "I want you to {base}.",
    "Please {base}.",
    "It's best to {base}.",
    "Do try to {base}.",
)
SMALL = (
    "{small} is fine.",
    "You can have {small}.",
    "{small} won't hurt.",
    "It's okay to have {small}.",
    "{small} is allowed.",
    "I'm fine with {small}.",
)
CONTINUE = (
    "Don't stop {drug}.",
    "Do not stop taking {drug}.",
    "Keep taking {drug}.",
    "Keep taking your {drug}.",
    "Continue {drug}.",
    "Continue with the {drug}.",
    "Carry on with {drug}.",
    "Carry on taking your {drug}.",
    "Stay on {drug}.",
    "Keep going with the {drug}.",
    "Don't come off {drug}.",
    "Stick with {drug}.",
    "Please don't stop the {drug}.",
    "{drug} should be continued.",
    "You should keep taking {drug}.",
    "I'd recommend you continue {drug}.",
)
LIMIT = (
    "Don't take more than {dose} of {drug} a day.",
    "No more than {dose} of {drug} in 24 hours.",
    "The most {drug} you can take is {dose} a day.",
    "Never go over {dose} of {drug} in a day.",
    "Your maximum of {drug} is {dose} per day.",
    "Keep {drug} to {dose} a day at most.",
    "You can take up to {dose} of {drug} a day.",
    "Don't exceed {dose} of {drug} in a day.",
    "Stick to a maximum of {dose} of {drug} a day.",
    "{drug} is capped at {dose} a day.",
    "Up to {dose} of {drug} a day is the limit.",
    "Take no more than {dose} of {drug} in a day.",
)
REGIMEN_OPENERS = (
    "{vp}.",
    "Please {vp}.",
    "You should {vp}.",
    "I'd recommend that you {vp}.",
    "It's best to {vp}.",
    "I'd like you to {vp}.",
    "You need to {vp}.",
    "Make sure you {vp}.",
    "The plan is to {vp}.",
    "From now on, {vp}.",
    "Going forward, {vp}.",
    "What I'd suggest is to {vp}.",
)
# {slots}: every slot of the regimen; {dose} and {rest}: its dose and the other slots.
REGIMEN_VPS = (
    "take {drug} {slots}",
    "take your {drug} {slots}",
    "keep taking your {drug}, {slots}",
    "have the {drug} {slots}",
    "stick to {drug} {slots}",
    "go on taking {drug} {slots}",
    "take {dose} of {drug} {rest}",
    "have {dose} of {drug} {rest}",
)
REGIMEN_SENTENCES = (
    "Your {drug} dose is {dose} {rest}.",
    "The {drug} is {slots}.",
    "{drug}, {slots}.",
    "{drug} {slots}, please.",
)
TITRATION_START = (
    "Start {drug} at {dose} for {days}.",
    "Begin with {dose} of {drug} for {days}.",
    "To begin with, take {dose} of {drug} for {days}.",
    "Take {drug} {dose} for {days} to start with.",
    "Start on {dose} of {drug}, just for {days}.",
    "We'll start you on {drug} {dose} for {days}.",
)
TITRATION_NEXT = (
    "After {days}, {move} {drug} to {dose}.",
    "After that, {move} the {drug} to {dose}.",
    "Once that's done, {move} your {drug} to {dose}.",
    "Then {move} the {drug} to {dose}.",
    "After {days} we'll {move} your {drug} to {dose}.",
    "The next step is to {move} {drug} to {dose}.",
)
MOVE = {True: ("increase", "raise", "step up", "bump up"), False: ("reduce", "lower", "cut", "bring down")}
CONDITIONS = (
    "the pain is severe",
    "the pain gets bad",
    "you feel dizzy",
    "you get a rash",
    "your temperature goes above 38",
    "you can't sleep",
    "the swelling gets worse",
    "you feel sick",
    "your chest feels tight",
    "you get a headache",
    "the cough keeps you up",
    "you start wheezing",
)
CONDITIONAL = (
    "If {cond}, take {drug}.",
    "Take {drug} if {cond}.",
    "If {cond}, you can take {dose} of {drug}.",
    "If {cond}, stop {drug} and call us.",
    "If {cond}, skip the next dose of {drug}.",
    "If {cond}, halve your {drug} dose.",
    "Use {drug} if {cond}.",
    "Have {dose} of {drug} if {cond}.",
    "If {cond}, take an extra {dose} of {drug}.",
    "Stop the {drug} for a day if {cond}.",
    "If {cond}, hold off on {drug} until you've seen us.",
)
PERSONS = ("your son", "your daughter", "your husband", "your wife", "your mum", "your dad", "your partner", "the baby")
OTHER_PERSON = (
    "Give {person} {drug} {slots}.",
    "{person} should take {drug} {slots}.",
    "{person} can have {drug} {slots}.",
    "{person} needs {dose} of {drug} {rest}.",
    "{person} must not take {drug}.",
    "{person} should stop {drug}.",
    "Don't give {person} any {drug}.",
    "{person} can't have {drug}.",
    "{person} should keep taking {drug}.",
    "For {person}, {drug} {slots}.",
)

# -- regimens: dose, frequency, time of day, food, duration ---------------------------

DOSES = {
    "mg": (2.5, 5, 10, 20, 25, 40, 50, 75, 100, 150, 200, 250, 300, 400, 500, 600, 800, 1000),
    "micrograms": (25, 50, 75, 100, 125, 150, 200),
    "ml": (2.5, 5, 7.5, 10, 15, 20),
    "tablet": (1, 2, 3, 4),
}
UNIT_FORMS = {
    "mg": ("{n} mg", "{n}mg", "{n} milligrams"),
    "micrograms": ("{n} micrograms", "{n} mcg"),
    "ml": ("{n} ml", "{n} mL", "{n} millilitres"),
    "tablet": ("{n} tablet", "{w} tablet"),
}
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
FREQUENCY = {
    1: ("once a day", "once daily", "one time a day"),
    2: ("twice a day", "twice daily", "two times a day", "every twelve hours"),
    3: ("three times a day", "three times daily", "every eight hours"),
    4: ("four times a day", "four times daily", "every six hours"),
    7: ("once a week", "once weekly", "one day a week"),
    0: ("only when you need it", "only as needed", "only if you need it"),
}
TIME = {
    "morning": ("in the morning", "every morning", "each morning", "first thing in the morning", "when you get up"),
    "night": ("at night", "at bedtime", "before bed", "last thing at night", "every night"),
}
FOOD = {
    "with": ("with food", "with a meal", "after eating", "with something to eat"),
    "without": ("on an empty stomach", "before eating", "without food", "an hour before food"),
}
DAYS = {
    3: ("3 days", "three days"),
    5: ("5 days", "five days"),
    7: ("7 days", "a week", "seven days", "one week"),
    10: ("10 days", "ten days"),
    14: ("14 days", "two weeks", "a fortnight"),
    21: ("21 days", "three weeks"),
    28: ("28 days", "four weeks"),
}
SLOT_VALUES = {"freq": tuple(FREQUENCY), "time": tuple(TIME), "food": tuple(FOOD), "days": tuple(DAYS)}
SLOTS = ("dose", *SLOT_VALUES)

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
