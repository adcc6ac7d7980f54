"""Accuracy, per-class precision/recall/F1, contradiction-vs-rest F1 and the confusion
matrix of a scorer on labelled NLI files. Two-class files (DECODE) are judged as
contradiction vs not."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from pydantic import BaseModel
from tqdm import tqdm

from contraflow.streams.core.nli.scorer import NLIScorer
from contraflow.streams.training.data import NLI_LABELS, TWO_CLASS_NEGATIVE, load_examples

CONTRADICTION = NLI_LABELS.index("contradiction")


class ClassScores(BaseModel):
    precision: float
    recall: float
    f1: float
    support: int


class FileReport(BaseModel):
    """The scores of one file."""

    file: str
    pairs: int
    two_class: bool
    accuracy: float
    per_class: dict[str, ClassScores]
    contradiction_f1: float
    labels: list[str]
    confusion: list[list[int]]


def _prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def report(name: str, gold: list[str], probabilities: np.ndarray) -> FileReport:
    """Scores of predictions (argmax of `probabilities`) against `gold` labels."""
    predicted = probabilities.argmax(axis=1)
    two_class = TWO_CLASS_NEGATIVE in gold
    if two_class:
        labels = ["contradiction", TWO_CLASS_NEGATIVE]
        truth = np.array([0 if g == "contradiction" else 1 for g in gold])
        guess = np.where(predicted == CONTRADICTION, 0, 1)
    else:
        labels = list(NLI_LABELS)
        truth = np.array([NLI_LABELS.index(g) for g in gold])
        guess = predicted
    confusion = np.zeros((len(labels), len(labels)), dtype=int)
    np.add.at(confusion, (truth, guess), 1)
    per_class = {}
    for i, label in enumerate(labels):
        tp = int(confusion[i, i])
        p, r, f = _prf(tp, int(confusion[:, i].sum()) - tp, int(confusion[i, :].sum()) - tp)
        per_class[label] = ClassScores(precision=p, recall=r, f1=f, support=int(confusion[i, :].sum()))
    is_contra = np.array([g == "contradiction" for g in gold])
    said_contra = predicted == CONTRADICTION
    _, _, contradiction_f1 = _prf(
        int((is_contra & said_contra).sum()),
        int((~is_contra & said_contra).sum()),
        int((is_contra & ~said_contra).sum()),
    )
    return FileReport(
        file=name,
        pairs=len(gold),
        two_class=two_class,
        accuracy=float((truth == guess).mean()) if len(gold) else 0.0,
        per_class=per_class,
        contradiction_f1=contradiction_f1,
        labels=labels,
        confusion=confusion.tolist(),
    )


PROGRESS_CHUNK = 512  # pairs scored between two updates of the progress bar


def evaluate_file(
    scorer: NLIScorer, path: str | Path, progress: bool = False
) -> tuple[FileReport, list[str], np.ndarray]:
    """Score one file; returns the report, the gold labels and the probabilities. With
    `progress`, a bar on stderr counts the pairs scored."""
    examples = load_examples([path])
    pairs = [(e.premise, e.hypothesis) for e in examples]
    chunks = range(0, len(pairs), PROGRESS_CHUNK)
    with tqdm(total=len(pairs), desc=Path(path).name, unit="pair", disable=not progress) as bar:
        scored = []
        for start in chunks:
            scored.append(scorer.score(pairs[start : start + PROGRESS_CHUNK]))
            bar.update(len(scored[-1]))
    probabilities = np.concatenate(scored) if scored else np.zeros((0, 3), dtype=np.float32)
    gold = [e.label for e in examples]
    return report(Path(path).name, gold, probabilities), gold, probabilities


def format_report(result: FileReport) -> str:
    """A plain-text block for one file."""
    lines = [
        f"== {result.file}  ({result.pairs} pairs{', two-class' if result.two_class else ''})",
        f"accuracy {result.accuracy:.4f}   contradiction-vs-rest F1 {result.contradiction_f1:.4f}",
        f"{'class':<18}{'precision':>10}{'recall':>10}{'f1':>10}{'support':>10}",
    ]
    for label, s in result.per_class.items():
        lines.append(f"{label:<18}{s.precision:>10.4f}{s.recall:>10.4f}{s.f1:>10.4f}{s.support:>10}")
    lines.append("confusion (rows gold, columns predicted): " + " ".join(result.labels))
    for label, row in zip(result.labels, result.confusion, strict=True):
        lines.append(f"  {label:<18}" + "".join(f"{n:>8}" for n in row))
    return "\n".join(lines)
