"""In-memory BM25 over the embedded store's entry texts (the keyword half of hybrid search).

Text analysis, the same steps as LanceDB's English full-text index that this replaces:
Unicode folded to ASCII where it has an ASCII form, lower-cased, split into word tokens,
tokens longer than 40 characters dropped, English stop words (Lucene's list) removed,
Snowball English stemming. Scores are Okapi BM25 (k1 1.2, b 0.75, idf ln(1 + (N - df +
0.5) / (df + 0.5))), with N, df and the mean length over every indexed entry whatever
its status, as a full-text index over the table would count them.

Why in memory: LanceDB's own full-text query took ~15 ms at 10,000 entries on this
machine, ~30 ms while a sentence was being embedded on the other core, and grew with the
number of small fragments that one-entry writes leave between compactions; scoring the
postings of a short query here takes ~1 ms and does not depend on fragments.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from functools import lru_cache

import numpy as np

K1 = 1.2
B = 0.75
MAX_TOKEN_LENGTH = 40
STOP_WORDS = frozenset(
    """a an and are as at be but by for if in into is it no not of on or such that the their then
    there these they this to was will with""".split()  # noqa: SIM905 (a list of 33 words reads better so)
)
_WORD = re.compile(r"\w+")


@lru_cache(maxsize=1)
def _stemmer():  # type: ignore[no-untyped-def]
    import snowballstemmer

    return snowballstemmer.stemmer("english")


@lru_cache(maxsize=200_000)
def _stem(token: str) -> str:
    return str(_stemmer().stemWord(token))


def analyze(text: str) -> list[str]:
    """The terms of a text, in order (repeats kept: they are the term frequencies)."""
    folded = text.lower()
    if not folded.isascii():
        folded = "".join(ch for ch in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(ch))
    return [
        _stem(token) for token in _WORD.findall(folded) if len(token) <= MAX_TOKEN_LENGTH and token not in STOP_WORDS
    ]


class KeywordIndex:
    """Term postings by row number; rows are given by the caller (the entry index)."""

    def __init__(self) -> None:
        self._postings: dict[str, dict[int, int]] = {}
        self._terms: dict[int, Counter[str]] = {}
        self._lengths = np.zeros(1024, dtype=np.float64)
        self._total_length = 0

    def put(self, row: int, text: str) -> None:
        """Index the row's text, replacing what the row held before."""
        self._remove(row)
        terms = Counter(analyze(text))
        self._terms[row] = terms
        for term, count in terms.items():
            self._postings.setdefault(term, {})[row] = count
        if row >= len(self._lengths):
            grown = np.zeros(max(row + 1, 2 * len(self._lengths)), dtype=np.float64)
            grown[: len(self._lengths)] = self._lengths
            self._lengths = grown
        length = sum(terms.values())
        self._lengths[row] = length
        self._total_length += length

    def scores(self, text: str, size: int) -> np.ndarray:
        """BM25 score of every row below `size` for the query text (0 where no term matches)."""
        totals = np.zeros(size, dtype=np.float64)
        documents = len(self._terms)
        if not documents:
            return totals
        mean_length = max(self._total_length / documents, 1e-9)
        for term in set(analyze(text)):
            postings = self._postings.get(term)
            if not postings:
                continue
            rows = np.fromiter(postings.keys(), dtype=np.int64, count=len(postings))
            counts = np.fromiter(postings.values(), dtype=np.float64, count=len(postings))
            idf = math.log(1.0 + (documents - len(postings) + 0.5) / (len(postings) + 0.5))
            norm = K1 * (1.0 - B + B * self._lengths[rows] / mean_length)
            totals += np.bincount(rows, weights=idf * counts * (K1 + 1.0) / (counts + norm), minlength=size)
        return totals

    def _remove(self, row: int) -> None:
        old = self._terms.pop(row, None)
        if old is None:
            return
        for term in old:
            postings = self._postings[term]
            del postings[row]
            if not postings:
                del self._postings[term]
        self._total_length -= int(self._lengths[row])
