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
the ``drug-named-entity-recognition`` package; activities and substances are listed in
`clinical_targets.py`, every phrasing in `clinical_phrasings.py`; the ways one piece of
advice is said (doses, regimens, limits, yes and no to one target) are in
`clinical_sayings.py`.
Everything is drawn from one seeded random generator.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable

from contraflow.streams.core.extract.drug_dictionary import load_drug_dictionary
from contraflow.streams.errors import BadInput
from contraflow.streams.training.clinical_phrasings import (
    CONDITIONAL,
    CONDITIONS,
    DAYS,
    DISCOURSE,
    DOSES,
    MOVE,
    OTHER_PERSON,
    PERSONS,
    SLOT_VALUES,
    SLOTS,
    TITRATION_NEXT,
    TITRATION_START,
)
from contraflow.streams.training.clinical_sayings import (
    consistent,
    draw_dose,
    draw_regimen,
    either,
    fill,
    fits,
    no,
    other_dose,
    say_dose,
    say_limit,
    say_regimen,
    yes,
)
from contraflow.streams.training.clinical_targets import ACTIVITIES, Target, drug_target
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


def _tidy(text: str, rng: random.Random) -> str:
    """Spaces and capitals put right; sometimes a discourse opener ("Yes, ", "Actually, ")."""
    text = re.sub(r"\s+([.,])", r"\1", re.sub(r"\s+", " ", text)).strip()
    if rng.random() < 0.3:
        opener = rng.choice(DISCOURSE)
        text = opener + (text if re.match(r"I\b", text) else text[0].lower() + text[1:])
    return text[0].upper() + text[1:]


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
    say = yes(rng, target) if rng.random() < 0.6 else no(target)
    return say(rng), say(rng)


def _reversed(rng: random.Random, drugs: tuple[str, ...]) -> Pair:
    target = _target(rng, drugs, rng.random() < 0.5)
    pair = yes(rng, target)(rng), no(target)(rng)
    return pair if rng.random() < 0.5 else pair[::-1]


def _changed_slot(slot: str) -> Callable[[random.Random, tuple[str, ...]], Pair]:
    """Contradictions: a regimen against the same drug's regimen with `slot` changed
    (keeping some of the other slots)."""

    def pair(rng: random.Random, drugs: tuple[str, ...]) -> Pair:
        drug = rng.choice(drugs)
        regimen = draw_regimen(rng, rng.randint(1, 3), required=slot)
        old = regimen[slot]
        new = other_dose(rng, old) if slot == "dose" else rng.choice([v for v in SLOT_VALUES[slot] if v != old])
        kept = {s: v for s, v in regimen.items() if s != slot and rng.random() < 0.5}
        changed = consistent({slot: new, **kept})
        return say_regimen(rng, drug, regimen), say_regimen(rng, drug, changed)

    return pair


def _changed_limit(rng: random.Random, drugs: tuple[str, ...]) -> Pair:
    drug, dose = rng.choice(drugs), draw_dose(rng)
    return say_limit(rng, drug, dose), say_limit(rng, drug, other_dose(rng, dose))


def _other_target(rng: random.Random, drugs: tuple[str, ...]) -> Pair:
    """Advice on two different targets, each for or against."""
    first, second = rng.choice(((True, True), (True, False), (False, True), (False, False)))
    one = _target(rng, drugs, first)
    return either(rng, one), either(rng, _other_than(rng, drugs, one, second))


def _refinement(rng: random.Random, drugs: tuple[str, ...]) -> Pair:
    """One drug's regimen told in two parts on different slots (in the morning / with food)."""
    drug = rng.choice(drugs)
    regimen = draw_regimen(rng, rng.randint(2, 4), required=rng.choice(SLOTS))
    slots = list(regimen)
    rng.shuffle(slots)
    cut = rng.randint(1, len(slots) - 1)
    first, second = ({s: regimen[s] for s in part} for part in (slots[:cut], slots[cut:]))
    return say_regimen(rng, drug, first), say_regimen(rng, drug, second)


def _titration(rng: random.Random, drugs: tuple[str, ...]) -> Pair:
    drug, days = rng.choice(drugs), rng.choice(tuple(DAYS))
    start = draw_dose(rng)
    amount, unit = start
    then = rng.choice([a for a in DOSES[unit] if a != amount]), unit
    first = rng.choice(TITRATION_START).format(drug=drug, dose=say_dose(rng, start), days=rng.choice(DAYS[days]))
    move = rng.choice(MOVE[then[0] > amount])
    second = rng.choice(TITRATION_NEXT).format(
        drug=drug, dose=say_dose(rng, then), days=rng.choice(DAYS[days]), move=move
    )
    return first, second


def _conditional(rng: random.Random, drugs: tuple[str, ...]) -> Pair:
    """Conditional advice on a drug against advice on another target, or against a plain
    yes to the same drug ("Keep taking X." / "If you get a rash, stop X.")."""
    drug = drug_target(rng.choice(drugs))
    said = rng.choice(CONDITIONAL).format(
        drug=drug.noun, dose=say_dose(rng, draw_dose(rng)), cond=rng.choice(CONDITIONS)
    )
    if rng.random() < 0.5:
        return said, either(rng, _other_than(rng, drugs, drug, rng.random() < 0.5))
    return yes(rng, drug, limits=False)(rng), said


def _other_person(rng: random.Random, drugs: tuple[str, ...]) -> Pair:
    """Advice on a drug for someone else against advice on it for the patient."""
    drug = drug_target(rng.choice(drugs))
    regimen = draw_regimen(rng, rng.randint(1, 3), required=rng.choice(SLOTS))
    template = rng.choice([t for t in OTHER_PERSON if fits(t, regimen)])
    theirs = fill(rng, template, drug.noun, regimen, person=rng.choice(PERSONS))
    return theirs, either(rng, drug)


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
