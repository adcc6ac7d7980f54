"""Premise/hypothesis pairs to padded token arrays, with the `tokenizers` library alone.

A model directory written by `contraflow nli export` (and most Hugging Face models)
holds a `tokenizer.json`: the whole fast tokenizer, special tokens and pair template
included. Loading it with `tokenizers` gives the same ids as transformers' fast
tokenizer (the same Rust code) without importing transformers, whose import pulls in
torch and takes more than a minute on a busy two-core machine; a worker and the CLI
start that much faster. A directory with only the older vocabulary files still loads,
through transformers (the `[train]` extra).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from contraflow.streams.errors import BadInput
from contraflow.streams.extras import require

TOKENIZER_FILE = "tokenizer.json"
CONFIG_FILE = "tokenizer_config.json"


class PairTokenizer:
    """`encode(pairs)` -> {input_ids, attention_mask, token_type_ids}, int64 [n, longest]."""

    def __init__(self, model_dir: Path, max_length: int) -> None:
        from tokenizers import Tokenizer

        self._tokenizer = Tokenizer.from_file(str(model_dir / TOKENIZER_FILE))
        self._tokenizer.enable_truncation(max_length=max_length, strategy="longest_first")
        pad_token = _pad_token(model_dir)
        pad_id = self._tokenizer.token_to_id(pad_token)
        if pad_id is None:
            raise BadInput(f"{model_dir / TOKENIZER_FILE}: the padding token {pad_token!r} is not in the vocabulary")
        self._tokenizer.enable_padding(pad_id=pad_id, pad_token=pad_token)

    def encode(self, pairs: Sequence[tuple[str, str]]) -> dict[str, np.ndarray]:
        encodings = self._tokenizer.encode_batch([(premise, hypothesis) for premise, hypothesis in pairs])
        return {
            "input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
            "attention_mask": np.array([e.attention_mask for e in encodings], dtype=np.int64),
            "token_type_ids": np.array([e.type_ids for e in encodings], dtype=np.int64),
        }


class TransformersPairTokenizer:
    """The same interface over transformers' AutoTokenizer, for directories without tokenizer.json."""

    def __init__(self, model_dir: Path, max_length: int) -> None:
        from transformers import AutoTokenizer

        self._tokenizer = AutoTokenizer.from_pretrained(str(model_dir), local_files_only=True)
        self._max_length = max_length

    def encode(self, pairs: Sequence[tuple[str, str]]) -> dict[str, np.ndarray]:
        encoded = self._tokenizer(
            [premise for premise, _ in pairs],
            [hypothesis for _, hypothesis in pairs],
            truncation=True,
            max_length=self._max_length,
            padding=True,
            return_tensors="np",
        )
        return {name: np.asarray(value, dtype=np.int64) for name, value in encoded.items()}


def _pad_token(model_dir: Path) -> str:
    """The padding token named by tokenizer_config.json, '[PAD]' (BERT's) when it names none."""
    try:
        config = json.loads((model_dir / CONFIG_FILE).read_text())
    except (OSError, ValueError):
        return "[PAD]"
    token = config.get("pad_token") or "[PAD]"
    return token["content"] if isinstance(token, dict) else str(token)


def check_tokenizer_installed(model_dir: Path) -> None:
    """MissingExtra when the directory has no tokenizer.json and transformers is not installed."""
    if not (model_dir / TOKENIZER_FILE).is_file():
        require(["transformers"], f"the tokenizer of {model_dir} (no {TOKENIZER_FILE})")


def load_pair_tokenizer(model_dir: Path, max_length: int) -> PairTokenizer | TransformersPairTokenizer:
    """The `tokenizers`-only tokenizer when the directory has tokenizer.json, else transformers'."""
    if (model_dir / TOKENIZER_FILE).is_file():
        return PairTokenizer(model_dir, max_length)
    return TransformersPairTokenizer(model_dir, max_length)
