"""The model's dialogue head (streams/core/nli/heads.py): `contraflow nli dialogue-head` puts a
student beside the general graph without a second copy of the word embeddings; the sentence
rule judges with it, everything else with the general graph, and a model.onnx replaced under
it is a clear error."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from contraflow.streams.core.nli.heads import DIALOGUE_FILE, twin_file
from contraflow.streams.core.nli.scorer import NLIModelError, OnnxScorer, load_scorer
from contraflow.streams.errors import BadInput
from contraflow.streams.runtime.services import uses_dialogue_head
from contraflow.streams.settings import Settings
from contraflow.streams.tools.cli import main
from contraflow.streams.training.dialogue_head import write_dialogue_head

PAIRS = [
    ("Take the tablets with food.", "Take the tablets on an empty stomach."),
    ("Keep taking your warfarin.", "Do not stop the warfarin."),
    ("Use your inhaler twice a day.", "Drink plenty of water."),
]


@pytest.fixture
def model_dir(tiny_onnx: Path, tiny_student: Path, tmp_path: Path) -> Path:
    """A copy of the tiny general model with the tiny student as its dialogue head."""
    folder = Path(shutil.copytree(tiny_onnx, tmp_path / "model"))
    assert main(["nli", "dialogue-head", str(tiny_student), str(folder)]) == 0
    return folder


def test_the_dialogue_head_scores_as_the_student_and_borrows_the_embeddings(
    model_dir: Path, tiny_onnx: Path, tiny_student: Path
) -> None:
    student = OnnxScorer(tiny_student).score(PAIRS)
    general = OnnxScorer(tiny_onnx).score(PAIRS)
    assert not np.allclose(student, general, atol=1e-3)  # so the checks below tell the two apart
    np.testing.assert_array_equal(load_scorer(str(model_dir), dialogue=True).score(PAIRS), student)
    np.testing.assert_array_equal(load_scorer(str(model_dir)).score(PAIRS), general)
    # the word embeddings (30,522 x 32 bytes in the tiny model) are read from model.onnx, not copied
    saved = (tiny_student / "model.onnx").stat().st_size - (model_dir / DIALOGUE_FILE).stat().st_size
    assert saved > 30_522 * 32 * 0.99


def test_the_dialogue_head_comes_with_its_float_twin(model_dir: Path, tiny_student: Path) -> None:
    """The float recheck (on by default) runs the int8 student's float32-compute twin, written
    beside it; it borrows every weight from dialogue.onnx and model.onnx."""
    import onnx

    twin = onnx.load(str(model_dir / twin_file(DIALOGUE_FILE)), load_external_data=False)
    stored = [tensor.name for tensor in twin.graph.initializer if tensor.ByteSize() > 1024]
    assert stored == []
    int8 = OnnxScorer(tiny_student).score(PAIRS)
    in_float = load_scorer(str(model_dir), dialogue=True, float_recheck=0.0).score(PAIRS)
    assert not np.array_equal(in_float, int8)
    np.testing.assert_allclose(in_float, int8, atol=0.05)


def test_changed_general_weights_are_an_error_that_says_what_to_do(
    tiny_onnx: Path, tiny_student: Path, tmp_path: Path
) -> None:
    folder = Path(shutil.copytree(tiny_onnx, tmp_path / "model"))
    (borrowed,) = write_dialogue_head(tiny_student, folder).shared
    graph = bytearray((folder / "model.onnx").read_bytes())
    graph[borrowed.offset + borrowed.length // 2] ^= 1  # one embedding weight changed in place
    (folder / "model.onnx").write_bytes(graph)
    with pytest.raises(NLIModelError, match=r"written against other weights.*nli dialogue-head"):
        load_scorer(str(folder), dialogue=True)


def test_a_student_with_another_label_order_is_refused(tiny_onnx: Path, tiny_student: Path, tmp_path: Path) -> None:
    student = Path(shutil.copytree(tiny_student, tmp_path / "student"))
    config = json.loads((student / "config.json").read_text())
    config["id2label"] = {"0": "contradiction", "1": "neutral", "2": "entailment"}
    (student / "config.json").write_text(json.dumps(config))
    with pytest.raises(BadInput, match="labels"):
        write_dialogue_head(student, Path(shutil.copytree(tiny_onnx, tmp_path / "model")))


def test_only_the_sentence_rule_judges_with_the_dialogue_head(model_dir: Path, tiny_onnx: Path) -> None:
    def uses(folder: Path, **options: object) -> bool:
        return uses_dialogue_head(Settings(nli_model=str(folder), **options))

    assert uses(model_dir, verdict="sentences")  # auto: the model has one
    assert not uses(tiny_onnx, verdict="sentences")  # auto: it has none
    assert not uses(model_dir, verdict="sentences", sentence_head="general")
    assert not uses(model_dir, verdict="regimen")  # the rules were calibrated on the general graph
    assert uses(tiny_onnx, verdict="sentences", sentence_head="dialogue")
    with pytest.raises(NLIModelError, match="no dialogue head"):
        load_scorer(str(tiny_onnx), dialogue=True)
