"""Reading NLI pairs from JSONL files (plain or gzipped).

Each line holds ``premise``, ``hypothesis`` and ``label``. Labels are the three NLI
classes, or ``non_contradiction`` for two-class sets such as DECODE: such a pair says
only that the label is *not* contradiction, so it is kept as the label set
{entailment, neutral} and trained with the marginal likelihood over that set.

Lines in the original SNLI / MultiNLI release format (``sentence1``, ``sentence2``,
``gold_label``) are read as well, so those corpora need no conversion; their pairs whose
annotators reached no majority (gold label ``-``) carry no label and are skipped.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel, field_validator

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


def _open_text(path: Path):
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8")
    return path.open("r", encoding="utf-8")


def iter_examples(path: str | Path) -> Iterator[NLIExample]:
    """Yield the examples of one JSONL file; a bad line names its file and line."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"NLI data file not found: {path}")
    with _open_text(path) as handle:
        for line_no, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                example = _example(json.loads(line), path)
            except (ValueError, TypeError) as exc:
                raise ValueError(f"{path}:{line_no}: not an NLI example: {exc}") from exc
            if example is not None:
                yield example


def load_examples(paths: list[str | Path]) -> list[NLIExample]:
    """All examples of the given files, in file order."""
    return [example for path in paths for example in iter_examples(path)]


def swapped(examples: list[NLIExample]) -> list[NLIExample]:
    """The pairs whose label is symmetric, with premise and hypothesis exchanged."""
    return [
        example.model_copy(update={"premise": example.hypothesis, "hypothesis": example.premise})
        for example in examples
        if example.label in SYMMETRIC_LABELS
    ]
