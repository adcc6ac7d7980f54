"""What an advice item or statement is about: its targets, for the topic gate.

Two kinds, both normalised:
- `targets`: named things — the clinical entities the entity extractor finds (drugs,
  conditions, symptoms, allergies; doses and numbers are left out), and the concepts of a
  small lexicon of everyday activities, substances and body parts, under one name each
  ("wine", "beer", "drinking" → "alcohol"; "jog", "gym" → "exercise"; drug classes name
  their members too: "NSAIDs" → "nsaid", and "ibuprofen" → "ibuprofen" and "nsaid").
- `words`: the item's content words, stemmed (Snowball), without stop words and the
  generic words of advice ("take", "day", "dose", "doctor"): the fallback for items whose
  targets the lexicon and the extractor do not know.

The lexicon is `target_lexicon`, the content words `content_words`. How these decide which
items are compared: `streams.verdict.gated`."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from contraflow.streams.core.extract.content_words import WORD
from contraflow.streams.core.extract.drug_dictionary import drug_variants, generic_names
from contraflow.streams.core.extract.stop_words import STOP_WORDS
from contraflow.streams.core.extract.target_lexicon import (
    BODY_PARTS,
    CONCEPTS,
    MEDICINE_CONCEPTS,
    SAME_AS,
    SUBSTANCE_CONCEPTS,
)

# words that say "the medicine we are talking about" without naming it
# "it's better to use sachets": an "it" that stands for what follows, not for something named before
_EXPLETIVE_IT = re.compile(r"\bit(?:'s| is| would be| will be)\s+(?:\w+\s+){0,2}?(?:to|that)\b")
_REFERENCES = frozenset(
    {
        "it",
        "them",
        "medication",
        "medications",
        "medicine",
        "medicines",
        "tablet",
        "tablets",
        "pill",
        "pills",
        "capsule",
        "capsules",
        "dose",
        "course",
        "prescription",
        "drug",
        "drugs",
    }
)
# doses and amounts the entity extractor reports ("50 mg", "two puffs"): what is said, not what about
_AMOUNT = re.compile(
    r"\d|\b(?:mg|mcg|micrograms?|g|ml|units?|puffs?|tablets?|capsules?|drops?|sachets?|doses?|one|two|three|"
    r"four|half)\b"
)


def _phrase_pattern(phrases: Iterable[str]) -> re.Pattern[str]:
    ordered = sorted(set(phrases), key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(re.escape(p) for p in ordered) + r")\b")


_CONCEPT_OF: dict[str, list[str]] = {}
for _concept, _phrases in CONCEPTS.items():
    for _phrase in _phrases:
        _CONCEPT_OF.setdefault(_phrase, []).append(_concept)
_CONCEPT_PATTERN = _phrase_pattern(_CONCEPT_OF)
_BODY_PATTERN = _phrase_pattern(BODY_PARTS)


def medicines(targets: Iterable[str]) -> list[str]:
    """The targets that are medicines: a medicine concept or one of its names, or a name of
    the drug dictionary that names no other concept (the dictionary lists "sunscreen" too)."""
    names = drug_variants()
    return sorted(t for t in targets if _is_medicine(t, names))


def substance_name(target: str) -> bool:
    """Whether a target is another name of an everyday substance ("pints" for alcohol)."""
    concepts = _CONCEPT_OF.get(target)
    return concepts is not None and target not in CONCEPTS and not SUBSTANCE_CONCEPTS.isdisjoint(concepts)


def _is_medicine(target: str, names: frozenset[str]) -> bool:
    if target in MEDICINE_CONCEPTS:
        return True
    concepts = _CONCEPT_OF.get(target)
    return target in names if concepts is None else not MEDICINE_CONCEPTS.isdisjoint(concepts)


@dataclass(frozen=True)
class Topic:
    """What one item is about."""

    targets: frozenset[str]
    refers_back: bool  # names its object only by "it", "the medication", …


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 3 else word


def topic_of(text: str, entities: Iterable[str] = ()) -> Topic:
    """The targets of one item and whether it names its object only by "it"; `entities` are
    the extractor's for it. Its content words (`content_words`) are the caller's to take, from
    the part of the text that is about something."""
    targets = targets_of(text, entities)
    tokens = set(WORD.findall(_EXPLETIVE_IT.sub(" ", text.lower())))
    return Topic(targets, not targets and bool(tokens & _REFERENCES))


def targets_of(text: str, entities: Iterable[str] = ()) -> frozenset[str]:
    """The targets of one item (`topic_of` without whether it refers back)."""
    lowered = text.lower()
    targets: set[str] = set()
    for match in _CONCEPT_PATTERN.finditer(lowered):
        phrase = match.group(0)
        targets.update(_CONCEPT_OF[phrase])
        # a member of a class names itself too ("ibuprofen" and "nsaid"), a class only itself
        if phrase not in CONCEPTS:
            targets.add(SAME_AS.get(phrase, phrase))
    targets.update(_singular(m.group(0)) for m in _BODY_PATTERN.finditer(lowered))
    for entity in entities:
        name = " ".join(entity.lower().split())
        if name and not _AMOUNT.search(name) and name not in STOP_WORDS:
            targets.update(_CONCEPT_OF.get(name, [name]))
    # a brand or another spelling names its generic too ("Nurofen": ibuprofen); not a concept's
    # own name, whose dictionary entries are classes ("antibiotic": anti-bacterial agents)
    generics = generic_names()
    named = frozenset().union(*(generics.get(t, ()) for t in targets if t not in CONCEPTS))
    # and the generic's class: "Voltarol" is diclofenac, an NSAID
    return frozenset(targets) | named | {c for name in named for c in _CONCEPT_OF.get(name, ())}
