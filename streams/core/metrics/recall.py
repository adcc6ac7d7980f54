"""Entity recall with fuzzy matching, semantic validation and negation (seed 003, Study C).

A gold entity is recalled by a predicted entity when the two match lexically
(exact, substring either way, or word-Jaccard >= 0.6 for multi-word entities) and the
gold or the predicted string has at least one non-negated mention in the response text.

Entities are compared after normalisation: surrounding whitespace stripped, inner
whitespace collapsed to one space, case folded. Empty entities never match.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field

NEGATION_WINDOW_TOKENS = 5
JACCARD_THRESHOLD = 0.6

# Negation cues (single- and multi-word). A cue negates a mention when all of its tokens
# lie within the NEGATION_WINDOW_TOKENS tokens before the mention, in the same sentence.
_NEGATION_TERMS: tuple[str, ...] = (
    "no",
    "not",
    "never",
    "without",
    "deny",
    "denies",
    "denied",
    "don't",
    "doesn't",
    "didn't",
    "negative for",
    "free of",
    "ruled out",
    "absence of",
)

_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_SENTENCE_END = re.compile(r"[.!?;\n]")


def _normalise(text: str) -> str:
    return " ".join(text.replace("\u2019", "'").split()).casefold()


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(_normalise(text))


_NEGATION_TOKENS: tuple[tuple[str, ...], ...] = tuple(tuple(_tokens(term)) for term in _NEGATION_TERMS)


def jaccard(a: str, b: str) -> float:
    """|words(a) ∩ words(b)| / |words(a) ∪ words(b)| over lower-cased word sets; 0.0 if both are empty."""
    wa, wb = set(_tokens(a)), set(_tokens(b))
    union = wa | wb
    return len(wa & wb) / len(union) if union else 0.0


def _lexical_match(gold: str, predicted: str) -> bool:
    """Exact, substring either way, or Jaccard >= 0.6 when both entities have >= 2 distinct words."""
    g, p = _normalise(gold), _normalise(predicted)
    if not g or not p:
        return False
    if g == p or g in p or p in g:
        return True
    multi_word = len(set(_tokens(g))) >= 2 and len(set(_tokens(p))) >= 2
    return multi_word and jaccard(g, p) >= JACCARD_THRESHOLD


def _mention_starts(entity: str, text: str) -> list[int]:
    """Start offsets of case-insensitive (substring) occurrences of `entity` in normalised `text`."""
    needle = _normalise(entity)
    if not needle:
        return []
    return [m.start() for m in re.finditer(re.escape(needle), text)]


def _negated_at(text: str, start: int, window: int) -> bool:
    """Whether a negation cue lies within `window` tokens before offset `start` of normalised `text`."""
    before = text[:start]
    sentence_breaks = list(_SENTENCE_END.finditer(before))
    if sentence_breaks:
        before = before[sentence_breaks[-1].end() :]
    preceding = _tokens(before)[-window:] if window > 0 else []
    for cue in _NEGATION_TOKENS:
        n = len(cue)
        if any(tuple(preceding[i : i + n]) == cue for i in range(len(preceding) - n + 1)):
            return True
    return False


def _has_affirmed_mention(entity: str, text: str, window: int = NEGATION_WINDOW_TOKENS) -> bool:
    normalised = _normalise(text)
    return any(not _negated_at(normalised, s, window) for s in _mention_starts(entity, normalised))


def is_negated(entity: str, text: str, window: int = NEGATION_WINDOW_TOKENS) -> bool:
    """True when `entity` is mentioned in `text` and every mention is negated.

    A mention is negated when a term of `_NEGATION_TERMS` lies entirely within the `window`
    tokens that precede it; the window does not reach back past a sentence end (. ! ? ; or
    newline). An entity that is not mentioned at all is not negated (returns False).
    """
    normalised = _normalise(text)
    starts = _mention_starts(entity, normalised)
    return bool(starts) and all(_negated_at(normalised, s, window) for s in starts)


def _match_rank(gold: str, predicted: str) -> int | None:
    """0 exact, 1 substring, 2 Jaccard, None no lexical match (lower is a stronger match)."""
    if not _lexical_match(gold, predicted):
        return None
    g, p = _normalise(gold), _normalise(predicted)
    if g == p:
        return 0
    return 1 if (g in p or p in g) else 2


def match_entity(gold: str, predicted_entities: Iterable[str], response_text: str) -> str | None:
    """The predicted entity that recalls `gold` in `response_text`, or None.

    A candidate must match `gold` lexically and the gold or the candidate string must have a
    non-negated mention in `response_text`. When several candidates qualify, the strongest
    match wins (exact, then substring, then Jaccard), ties broken alphabetically, so the
    result does not depend on set iteration order.
    """
    ranked: list[tuple[int, str, str]] = []
    for candidate in predicted_entities:
        rank = _match_rank(gold, candidate)
        if rank is not None:
            ranked.append((rank, _normalise(candidate), candidate))
    for _, _, candidate in sorted(ranked):
        if _has_affirmed_mention(gold, response_text) or _has_affirmed_mention(candidate, response_text):
            return candidate
    return None


class EntityScores(BaseModel):
    """Per-turn entity scores; `matched` lists the recalled gold entities (normalised, sorted)."""

    model_config = ConfigDict(frozen=True)

    recall: float = Field(ge=0.0, le=1.0)
    precision: float = Field(ge=0.0, le=1.0)
    f1: float = Field(ge=0.0, le=1.0)
    hallucinated_rate: float = Field(ge=0.0, le=1.0)
    matched: list[str]


def _normalised_set(entities: Iterable[str]) -> set[str]:
    return {n for n in (_normalise(e) for e in entities) if n}


def entity_scores(gold: set[str], predicted: set[str], response_text: str) -> EntityScores:
    """Recall, precision, F1 and hallucinated rate of `predicted` against `gold` in `response_text`.

    Entities are normalised (see module docstring) and de-duplicated first.

    - recall = recalled gold entities / |gold| (``match_entity`` is not None); 0.0 when gold is empty.
    - precision = predicted entities that recall some gold entity / |predicted|; 0.0 when nothing is
      predicted. Matching is not one-to-one: one prediction may support several gold entities.
    - f1 = harmonic mean of precision and recall; 0.0 when both are 0.
    - hallucinated_rate = predicted entities that recall no gold entity / |predicted|, i.e.
      1 − precision; 0.0 when nothing is predicted (nothing was hallucinated).
    """
    gold_n, predicted_n = _normalised_set(gold), _normalised_set(predicted)
    matched = sorted(g for g in gold_n if match_entity(g, predicted_n, response_text) is not None)
    supported = sum(1 for p in predicted_n if any(match_entity(g, (p,), response_text) is not None for g in gold_n))
    recall = len(matched) / len(gold_n) if gold_n else 0.0
    precision = supported / len(predicted_n) if predicted_n else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    hallucinated_rate = 1.0 - precision if predicted_n else 0.0
    return EntityScores(recall=recall, precision=precision, f1=f1, hallucinated_rate=hallucinated_rate, matched=matched)
