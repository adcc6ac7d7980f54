"""What several test files share, in one place: a scripted NLI function, a turn maker
and a runner for the turn pipeline, and the tiny randomly initialised NLI model (its
verdicts are arbitrary, so only plumbing is asserted with it)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from contraflow.models.events import Role, TurnEvent
from contraflow.models.state import SessionState
from contraflow.streams.core.turns import TurnPipeline

ENTAIL = [0.9, 0.08, 0.02]
CONTRA = [0.02, 0.08, 0.9]
NEAR_CONTRA = [0.30, 0.36, 0.34]  # contradiction is high but not the argmax


class ScriptedNLI:
    """Returns a row per hypothesis keyword; records what it was asked."""

    def __init__(self, rows: dict[str, list[float]], premise_word: str = "") -> None:
        self.rows = rows
        self.premise_word = premise_word
        self.calls: list[tuple[str, str]] = []

    async def __call__(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        self.calls.extend(pairs)
        out = []
        for premise, hypothesis in pairs:
            rows = self.rows if self.premise_word in premise else {}
            # the hypothesis decides; failing that the premise, so both directions of a pair agree
            match = next((r for word, r in rows.items() if word in hypothesis), None)
            out.append(match or next((r for word, r in rows.items() if word in premise), ENTAIL))
        return np.array(out, dtype=np.float32)


def turn(
    index: int, text: str, role: Role = Role.assistant, session: str = "s1", event_id: str | None = None
) -> TurnEvent:
    return TurnEvent(
        event_id=event_id or f"{session}-{index}",
        session_id=session,
        turn_index=index,
        role=role,
        text=text,
        ts=datetime(2026, 11, 22, 9, index, tzinfo=UTC),
        model="m",
        tenant="t",
    )


async def run(pipeline: TurnPipeline, turns: list[TurnEvent], state: SessionState | None = None):
    outcomes = []
    for t in turns:
        outcome = await pipeline.process(state, t)
        state = outcome.state
        outcomes.append(outcome)
    return state, outcomes


LABELS = ("entailment", "neutral", "contradiction")

NLI_ROWS = [
    ("A dog runs in the park.", "An animal is outside.", "entailment"),
    ("A dog runs in the park.", "A cat sleeps indoors.", "contradiction"),
    ("A woman reads a book.", "She is a teacher.", "neutral"),
    ("i love hiking on weekends .", "I hate walking anywhere.", "contradiction"),
    ("i have two kids .", "My kids are at school.", "non_contradiction"),
]


def write_pairs(path: Path) -> Path:
    """A small labelled training file (NLI_ROWS six times over), in `nli train`'s JSONL."""
    rows = NLI_ROWS * 6
    path.write_text("".join(json.dumps({"premise": p, "hypothesis": h, "label": y}) + "\n" for p, h, y in rows))
    return path


TINY_ENCODER = {"hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 2, "intermediate_size": 64}


def build_tiny_model(folder: Path, id2label: dict[int, str]) -> Path:
    """A 2-layer, 32-wide BERT sequence classifier with the MiniLM tokenizer."""
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification

    from contraflow.streams.training.commands import backbone_path

    torch.manual_seed(0)
    tokenizer = AutoTokenizer.from_pretrained(backbone_path())
    config = BertConfig(
        vocab_size=tokenizer.vocab_size,
        **TINY_ENCODER,
        max_position_embeddings=512,
        num_labels=3,
        id2label=id2label,
        label2id={v: k for k, v in id2label.items()},
    )
    BertForSequenceClassification(config).eval().save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder
