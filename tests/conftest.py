"""Shared fixtures: a tiny randomly initialised NLI model built at test time (its
verdicts are arbitrary, so only plumbing is asserted with it), one Tansu broker per
test session, and worker processes against it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

LABELS = ("entailment", "neutral", "contradiction")


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


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Hugging Face directory of the tiny model (label order entailment, neutral, contradiction)."""
    return build_tiny_model(tmp_path_factory.mktemp("tiny-nli"), dict(enumerate(LABELS)))


@pytest.fixture(scope="session")
def tiny_onnx(tiny_model: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny model exported to int8 ONNX by contraflow's own export code."""
    from contraflow.streams.training.export import export_onnx

    out = tmp_path_factory.mktemp("tiny-nli-onnx")
    export_onnx(tiny_model, out)
    return out


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[object]:
    """A Tansu broker of the test's own (memory only; it starts in well under a second),
    so no test reads another's events."""
    from contraflow.streams.tools.broker import TansuBroker

    with TansuBroker(log=tmp_path / "tansu.log") as running:
        yield running
