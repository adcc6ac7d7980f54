"""The tokenizers-only pair tokenizer against transformers' own, on the shipped model's files."""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from contraflow.streams.core.nli.tokens import PairTokenizer, TransformersPairTokenizer, load_pair_tokenizer
from contraflow.streams.settings import Settings

PAIRS = [
    ("Take ibuprofen with food.", "Do not take ibuprofen."),
    ("A man plays a guitar on stage while the crowd sings along loudly.", "Nobody is there."),
    ("Short.", "Héllo, naïve café – 12.5 mg!"),
]


@pytest.mark.parametrize("max_length", [256, 12])
def test_ids_match_transformers_including_truncation(max_length: int) -> None:
    model_dir = Path(Settings().nli_model_path)
    fast = load_pair_tokenizer(model_dir, max_length)
    assert isinstance(fast, PairTokenizer)
    ours = fast.encode(PAIRS)
    theirs = TransformersPairTokenizer(model_dir, max_length).encode(PAIRS)
    assert ours.keys() == theirs.keys()
    for name in ours:
        np.testing.assert_array_equal(ours[name], theirs[name], err_msg=name)
    assert ours["input_ids"].shape[1] <= max_length


def test_a_directory_with_only_a_vocabulary_loads_through_transformers(tmp_path: Path) -> None:
    """Older model directories carry vocab.txt but no tokenizer.json; they give the same ids."""
    model_dir = Path(Settings().nli_model_path)
    vocab = json.loads((model_dir / "tokenizer.json").read_text())["model"]["vocab"]
    legacy = tmp_path / "legacy"
    legacy.mkdir()
    (legacy / "vocab.txt").write_text("\n".join(sorted(vocab, key=vocab.get)) + "\n")
    shutil.copy(model_dir / "tokenizer_config.json", legacy)
    slow = load_pair_tokenizer(legacy, 256)
    assert isinstance(slow, TransformersPairTokenizer)
    expected = load_pair_tokenizer(model_dir, 256).encode(PAIRS)
    for name, value in slow.encode(PAIRS).items():
        np.testing.assert_array_equal(value, expected[name], err_msg=name)
