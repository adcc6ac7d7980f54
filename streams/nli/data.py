"""Reading NLI pairs from JSONL files (plain or gzipped).

Each line holds ``premise``, ``hypothesis`` and ``label``. Labels are the three NLI
classes, or ``non_contradiction`` for two-class sets such as DECODE: such a pair says
only that the label is *not* contradiction, so it is kept as the label set
{entailment, neutral} and trained with the marginal likelihood over that set.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel, field_validator

NLI_LABELS: tuple[str, str, str] = ("entailment", "neutral", "contradiction")
TWO_CLASS_NEGATIVE = "non_contradiction"

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
                yield NLIExample.model_validate(json.loads(line))
            except (ValueError, TypeError) as exc:
                raise ValueError(f"{path}:{line_no}: not an NLI example: {exc}") from exc


def load_examples(paths: list[str | Path]) -> list[NLIExample]:
    """All examples of the given files, in file order."""
    return [example for path in paths for example in iter_examples(path)]
