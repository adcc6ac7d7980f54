"""Reading NLI pairs from JSONL files (plain or gzipped).

Each line holds ``premise``, ``hypothesis`` and ``label``, and may hold ``teacher``: a
larger model's probabilities for the pair, the soft target of distillation
(streams/training/distil.py). Labels are the three NLI classes, or ``non_contradiction`` for
two-class sets such as DECODE: such a pair says only that the label is *not*
contradiction, so it is kept as the label set {entailment, neutral} and trained with the
marginal likelihood over that set.

Lines in the original SNLI / MultiNLI release format (``sentence1``, ``sentence2``,
``gold_label``) are read as well, so those corpora need no conversion; their pairs whose
annotators reached no majority (gold label ``-``) carry no label and are skipped.

Two reshapings of training data serve contraflow's reading of "contradiction", where two
statements about different things do not conflict: SNLI's captions describe one photo,
so its annotators call two unrelated scenes a contradiction; `without_unrelated_contradictions`
drops such pairs, and `unrelated_negatives` adds pairs of statements on different subjects
labelled ``non_contradiction``.
"""

from __future__ import annotations

import gzip
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel, field_validator

from contraflow.streams.errors import BadInput

NLI_LABELS: tuple[str, str, str] = ("entailment", "neutral", "contradiction")
TWO_CLASS_NEGATIVE = "non_contradiction"

# Labels that hold in both directions: if A contradicts B, B contradicts A, and a pair
# that is not a contradiction one way is not one the other way either.
SYMMETRIC_LABELS = frozenset({"contradiction", TWO_CLASS_NEGATIVE})

# Which of the three classes each label admits.
LABEL_SETS: dict[str, frozenset[str]] = {
    "entailment": frozenset({"entailment"}),
    "neutral": frozenset({"neutral"}),
    "contradiction": frozenset({"contradiction"}),
    TWO_CLASS_NEGATIVE: frozenset({"entailment", "neutral"}),
}


class NLIExample(BaseModel):
    """One labelled premise/hypothesis pair."""

    premise: str
    hypothesis: str
    label: str
    source: str = ""
    teacher: tuple[float, float, float] | None = None  # a teacher's probabilities, in NLI_LABELS order

    @field_validator("teacher")
    @classmethod
    def _probabilities(cls, value: tuple[float, float, float] | None) -> tuple[float, float, float] | None:
        if value is not None and (min(value) < 0 or abs(sum(value) - 1) > 1e-3):
            raise ValueError(f"teacher probabilities must be non-negative and sum to 1, got {list(value)}")
        return value

    @field_validator("label")
    @classmethod
    def _known_label(cls, value: str) -> str:
        label = value.strip().lower()
        if label not in LABEL_SETS:
            raise ValueError(f"unknown NLI label {value!r}; expected one of {sorted(LABEL_SETS)}")
        return label

    @property
    def is_contradiction(self) -> bool:
        return self.label == "contradiction"


SNLI_FIELDS = ("sentence1", "sentence2", "gold_label")
NO_CONSENSUS = "-"


def _example(row: dict, path: Path) -> NLIExample | None:
    """The example of one parsed line; None for an SNLI-format pair with no gold label."""
    if "premise" not in row and all(field in row for field in SNLI_FIELDS):
        if row["gold_label"] == NO_CONSENSUS:
            return None
        row = {
            "premise": row["sentence1"],
            "hypothesis": row["sentence2"],
            "label": row["gold_label"],
            "source": row.get("source", path.name),
        }
    return NLIExample.model_validate(row)


def _open_bytes(path: Path):
    return gzip.open(path, "rb") if path.suffix == ".gz" else path.open("rb")


def iter_examples(path: str | Path) -> Iterator[NLIExample]:
    """Yield the examples of one JSONL file; a bad line names its file and line."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"NLI data file not found: {path}")
    with _open_bytes(path) as handle:
        for line_no, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise BadInput(f"{path}:{line_no}: not UTF-8 text ({exc.reason})") from None
            if not line.strip():
                continue
            try:
                example = _example(json.loads(line), path)
            except (ValueError, TypeError) as exc:
                raise BadInput(f"{path}:{line_no}: not an NLI example: {exc}") from exc
            if example is not None:
                yield example


def load_examples(paths: list[str | Path]) -> list[NLIExample]:
    """All examples of the given files, in file order."""
    return [example for path in paths for example in iter_examples(path)]


def swapped(examples: list[NLIExample]) -> list[NLIExample]:
    """The pairs whose label is symmetric, with premise and hypothesis exchanged (a teacher's
    probabilities are for the pair as it was written, so they are not kept)."""
    return [
        example.model_copy(update={"premise": example.hypothesis, "hypothesis": example.premise, "teacher": None})
        for example in examples
        if example.label in SYMMETRIC_LABELS
    ]


_WORD = re.compile(r"[a-z]+")
# Its own list, not spaCy's stop words (entities) or the BM25 list (keyword index): those
# change which pairs are dropped and drawn, and the model card's measurements rest on this one.
_FUNCTION_WORD_TEXT = (
    "about above after again all also and any are aren because been before being below between both but "
    "can cannot could did didn does doesn doing don down during each few for from had has have having her "
    "here hers herself him himself his how into its itself just let more most much myself nor not now off "
    "once only other our ours out over own same she should some such than that the their theirs them "
    "themselves then there these they this those through too under until very was wasn were what when "
    "where which while who whom why will with would you your yours yourself yes yeah really well "
)
FUNCTION_WORDS = frozenset(_FUNCTION_WORD_TEXT.split())


def content_words(text: str) -> frozenset[str]:
    """Lower-cased words of three letters or more that are not function words."""
    return frozenset(word for word in _WORD.findall(text.lower()) if len(word) > 2 and word not in FUNCTION_WORDS)


def shares_content(first: str, second: str) -> bool:
    return not content_words(first).isdisjoint(content_words(second))


def without_unrelated_contradictions(examples: list[NLIExample]) -> list[NLIExample]:
    """The examples minus the contradiction pairs whose two sides share no content word."""
    return [e for e in examples if not e.is_contradiction or shares_content(e.premise, e.hypothesis)]


def unrelated_negatives(examples: list[NLIExample], count: int, seed: int) -> list[NLIExample]:
    """`count` non_contradiction pairs: the premise of one contradiction pair against the
    hypothesis of another, drawn (seeded) until the two share no content word."""
    contradictions = [e for e in examples if e.is_contradiction]
    if count and len(contradictions) < 2:
        raise BadInput("unrelated negatives need at least two contradiction pairs to draw from")
    rng = random.Random(seed)
    pairs: list[NLIExample] = []
    for _ in range(100 * count + 1000):
        if len(pairs) == count:
            break
        first, second = rng.sample(contradictions, 2)
        if shares_content(first.premise, second.hypothesis):
            continue
        pairs.append(
            NLIExample(
                premise=first.premise,
                hypothesis=second.hypothesis,
                label=TWO_CLASS_NEGATIVE,
                source=f"{first.source}/unrelated",
            )
        )
    if len(pairs) < count:
        raise BadInput(f"drew only {len(pairs)} of {count} unrelated negatives: most contradiction pairs share words")
    return pairs
