"""`contraflow nli unpack`: an int8 export back as a Hugging Face folder that training and the
transformers scorer load, its weights those the export was made from."""

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from contraflow.streams.tools.cli import main

SNLI_DEV = Path(__file__).resolve().parents[3] / "shared" / "data" / "nli" / "dev" / "snli_dev.jsonl.gz"


def test_unpacked_weights_are_the_exported_ones(tiny_model: Path, tiny_onnx: Path, tmp_path: Path) -> None:
    """Every parameter of the float model comes back under its own name and shape, within half
    a quantisation step of the original (int8 per output channel for the layers, uint8 per
    tensor for the embedding tables), and transformers loads the folder with nothing missing."""
    from safetensors.numpy import load_file
    from transformers import AutoModelForSequenceClassification

    out = tmp_path / "unpacked"
    assert main(["nli", "unpack", str(tiny_onnx), str(out)]) == 0
    original = load_file(str(tiny_model / "model.safetensors"))
    unpacked = load_file(str(out / "model.safetensors"))
    assert set(unpacked) == {name for name in original if not name.endswith("position_ids")}
    for name, value in unpacked.items():
        assert value.shape == original[name].shape, name
        half_step = (original[name].max() - original[name].min()) / 254 + 1e-6
        assert np.abs(value - original[name]).max() <= half_step, name
    _, info = AutoModelForSequenceClassification.from_pretrained(str(out), output_loading_info=True)
    assert not info["missing_keys"] and not info["unexpected_keys"]


@pytest.mark.skipif(not SNLI_DEV.is_file(), reason="needs ../shared/data/nli")
def test_the_unpacked_shipped_model_judges_as_the_shipped_one(tmp_path: Path) -> None:
    """`builtin` unpacks to a float model (a --backbone for nli train) that agrees with the
    int8 model on the class of 98 % of 500 SNLI dev pairs, the rest moved by ONNX Runtime
    quantising the activations of the int8 one."""
    from contraflow.streams.core.nli.scorer import OnnxScorer, TransformersScorer
    from contraflow.streams.settings import BUILTIN_MODEL_DIR

    assert main(["nli", "unpack", "builtin", str(tmp_path / "shipped")]) == 0
    with gzip.open(SNLI_DEV, "rt") as lines:
        pairs = [(row["premise"], row["hypothesis"]) for row in map(json.loads, list(lines)[:500])]
    shipped = OnnxScorer(BUILTIN_MODEL_DIR).score(pairs)
    unpacked = TransformersScorer(tmp_path / "shipped").score(pairs)
    assert (shipped.argmax(axis=1) == unpacked.argmax(axis=1)).mean() >= 0.97
    assert np.abs(shipped - unpacked).mean() < 0.02


def test_a_graph_that_is_not_a_fused_int8_export_is_a_one_line_error(
    tiny_model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from contraflow.streams.training.export import export_onnx

    export_onnx(tiny_model, tmp_path / "fp32", quantize=False)
    capsys.readouterr()  # the export's own output
    assert main(["nli", "unpack", str(tmp_path / "fp32"), str(tmp_path / "out")]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "not a fused int8 BERT graph" in error


def test_the_dialogue_head_unpacks_to_what_its_float_twin_computes(tmp_path: Path) -> None:
    """`--graph dialogue.onnx` unpacks the shipped dialogue head (its word table read from
    `model.onnx` beside it): in float32, it judges as the head's float32-compute twin does,
    the same dequantised weights, so a next student can start from the shipped one."""
    from contraflow.streams.core.nli.scorer import OnnxScorer, TransformersScorer
    from contraflow.streams.settings import BUILTIN_MODEL_DIR

    pairs = [
        ("Take the tablet with food.", "Take the tablet on an empty stomach."),
        ("Please don't take the ibuprofen.", "Stick to paracetamol rather than buying ibuprofen."),
        ("Keep taking your warfarin.", "Do not stop the warfarin before the appointment."),
        ("Use the drops four times a day.", "Use the drops twice a day."),
    ]
    out = tmp_path / "dialogue"
    assert main(["nli", "unpack", "builtin", str(out), "--graph", "dialogue.onnx"]) == 0
    unpacked = TransformersScorer(out).score(pairs)
    twin = OnnxScorer(BUILTIN_MODEL_DIR, graph="dialogue.onnx", float_recheck=0.0).score(pairs)
    general = OnnxScorer(BUILTIN_MODEL_DIR).score(pairs)
    assert np.abs(unpacked - twin).max() < 0.01
    assert np.abs(unpacked - general).max() > 0.05  # the dialogue head, not the general graph


def test_a_graph_the_folder_does_not_hold_is_a_one_line_error(
    tiny_onnx: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["nli", "unpack", str(tiny_onnx), str(tmp_path / "out"), "--graph", "dialogue.onnx"]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "dialogue.onnx does not exist" in error
