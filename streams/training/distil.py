"""Soft targets for distillation: a larger teacher's probabilities written onto training pairs.

`contraflow nli label FILES --model TEACHER --out OUT.jsonl` scores every pair once (a pair
written several times, as `sentence_pairs.py --near-copies` does, is scored once) and writes
each example with its ``teacher`` probabilities over (entailment, neutral, contradiction).
`contraflow nli train OUT.jsonl --distil-weight W` then trains on
``(1 - W) * label loss + W * cross-entropy to the teacher`` for the pairs that carry one.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from contraflow.streams.core.nli.scorer import PairScorer
from contraflow.streams.training.data import NLI_LABELS, NLIExample


def with_teacher(examples: list[NLIExample], scorer: PairScorer, argmax_label: bool = False) -> list[NLIExample]:
    """The examples with the scorer's probabilities as their ``teacher`` targets (and, with
    `argmax_label`, the teacher's most probable class as their label)."""
    unique = list(dict.fromkeys((e.premise, e.hypothesis) for e in examples))
    probabilities = scorer.score(unique)
    by_pair = {pair: tuple(round(float(p), 5) for p in row) for pair, row in zip(unique, probabilities, strict=True)}
    labelled = []
    for example in examples:
        teacher = by_pair[(example.premise, example.hypothesis)]
        update: dict = {"teacher": teacher}
        if argmax_label:
            update["label"] = NLI_LABELS[max(range(len(NLI_LABELS)), key=teacher.__getitem__)]
        labelled.append(example.model_copy(update=update))
    return labelled


def write_examples(examples: Iterable[NLIExample], path: str | Path) -> int:
    """Write examples as JSONL (the fields `load_examples` reads back); returns how many."""
    count = 0
    with Path(path).open("w", encoding="utf-8") as handle:
        for example in examples:
            handle.write(example.model_dump_json(exclude_none=True) + "\n")
            count += 1
    return count
