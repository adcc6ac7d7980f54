"""Repetition cleaning (seed 003): a response with more than 30 % repeated content is
cleaned before it joins the session's history; metrics keep using the raw text.

Repeated content is measured on word 4-grams: the share of a response's 4-grams that
already occurred earlier in the same response. Cleaning drops sentences seen before and
then, inside what is left, words that only restart a 4-gram already seen (a loop with no
punctuation)."""

from __future__ import annotations

import re

from contraflow.streams.core.extract.advice import split_sentences

REPETITION_LIMIT = 0.30
NGRAM = 4
_WORD = re.compile(r"\w+(?:['’]\w+)?")


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def repetition_ratio(text: str, n: int = NGRAM) -> float:
    """Share of word n-grams that repeat an earlier n-gram of the same text (0 when too short)."""
    words = _words(text)
    grams = [tuple(words[i : i + n]) for i in range(len(words) - n + 1)]
    if not grams:
        return 0.0
    seen: set[tuple[str, ...]] = set()
    repeats = 0
    for gram in grams:
        repeats += gram in seen
        seen.add(gram)
    return repeats / len(grams)


def _drop_looping_words(text: str, n: int) -> str:
    """Drop each word that starts an n-gram seen before (and the tail of such a run)."""
    tokens = text.split()
    keys = [t.lower().strip(".,;:!?\"'()") for t in tokens]
    seen: set[tuple[str, ...]] = set()
    kept: list[str] = []
    skipping = False
    for i, token in enumerate(tokens):
        gram = tuple(keys[i : i + n])
        if len(gram) == n:
            skipping = gram in seen
            seen.add(gram)
        if not skipping:
            kept.append(token)
    return " ".join(kept)


def clean_repetition(text: str, limit: float = REPETITION_LIMIT, n: int = NGRAM) -> tuple[str, float, bool]:
    """(text for the history, repetition ratio, whether it was cleaned)."""
    ratio = repetition_ratio(text, n)
    if ratio <= limit:
        return text, ratio, False
    sentences, seen_sentences = [], set()
    for sentence in split_sentences(text):
        key = " ".join(_words(sentence))
        if key and key not in seen_sentences:
            seen_sentences.add(key)
            sentences.append(sentence)
    return _drop_looping_words(" ".join(sentences), n), ratio, True
