"""Which extracted entities are worth scoring (`filter_entities`). Plain Python: the turn
pipeline filters in the worker's own process, the extractor itself runs in the model
process."""

from __future__ import annotations

import re
from collections.abc import Iterable

from contraflow.streams.core.extract import entity_rules as rules
from contraflow.streams.core.extract.stop_words import STOP_WORDS

EDGE_CHARS = " \t\n.,;:!?\"'()[]{}"
_KNOWN_ABBREVIATIONS = frozenset(abbreviation.lower() for abbreviation in rules.ABBREVIATIONS)
_NUMBER = re.compile(r"^[\d.,/%-]+$")
# spaCy's stop words less the few that name a body site ("back pain" is an entity).
_STOP_WORDS = STOP_WORDS - {"back", "front", "side", "top", "bottom"}

# Words that never make an entity on their own (with stop words and numbers): `filter_entities`
# drops a span made only of these.
GENERIC_WORDS: frozenset[str] = frozenset(
    {
        "patient",
        "patients",
        "client",
        "person",
        "people",
        "doctor",
        "doctors",
        "gp",
        "nurse",
        "clinician",
        "therapist",
        "psychiatrist",
        "physician",
        "condition",
        "conditions",
        "disease",
        "disorder",
        "illness",
        "medication",
        "medications",
        "medicine",
        "medicines",
        "meds",
        "drug",
        "drugs",
        "dose",
        "dosage",
        "prescription",
        "history",
        "symptom",
        "symptoms",
        "sign",
        "signs",
        "treatment",
        "treatments",
        "therapy",
        "diagnosis",
        "care",
        "plan",
        "pain",
        "problem",
        "problems",
        "issue",
        "issues",
        "concern",
        "concerns",
        "health",
        "feeling",
        "feelings",
        "today",
        "yesterday",
        "tomorrow",
        "day",
        "days",
        "week",
        "weeks",
        "month",
        "months",
        "year",
        "years",
        "time",
        "times",
        "session",
        "appointment",
        "visit",
        "summary",
        "case",
        "result",
        "results",
        "test",
        "tests",
        "level",
        "levels",
        "daily",
    }
)


def filter_entities(entities: Iterable[str]) -> set[str]:
    """The entities worth scoring, lower-cased and stripped: drops empty and pure-number spans, spans
    under 3 characters that are not known abbreviations ("ms" stays), and spans made only of stop
    words (pronouns included), numbers and generic clinical words ("patient", "the doctor", "her
    medication", "history", "today", "symptoms", "pain")."""
    kept: set[str] = set()
    for entity in entities:
        text = " ".join(entity.lower().split()).strip(EDGE_CHARS)
        if not text or _NUMBER.match(text):
            continue
        if len(text) < 3 and text not in _KNOWN_ABBREVIATIONS:
            continue
        words = re.findall(r"[a-z0-9]+(?:'[a-z]+)?", text)
        if all(word in _STOP_WORDS or word in GENERIC_WORDS or _NUMBER.match(word) for word in words):
            continue
        kept.add(text)
    return kept
