"""Real model-loading code on a tiny model built at test time."""

import shutil
from pathlib import Path

import numpy as np
import pytest

from contraflow.streams.core.nli.heads import (
    DIALOGUE_FILE,
    FOLD_DEQUANTIZE,
    SHARED_WEIGHTS,
    SHARED_WEIGHTS_KEY,
    twin_file,
)
from contraflow.streams.core.nli.scorer import (
    ONNX_FILE,
    NLIModelError,
    OnnxScorer,
    TransformersScorer,
    label_order,
    load_scorer,
)
from contraflow.streams.errors import BadInput
from contraflow.streams.settings import BUILTIN_MODEL_DIR, NLIBackend, Settings
from contraflow.streams.tools.cli import main
from contraflow.streams.training.float_twin import float_twin, write_float_twin
from tests.fixtures import build_tiny_model

PAIRS = [
    ("A man plays a guitar on stage.", "A man performs music."),
    ("The patient takes warfarin.", "The patient takes no anticoagulant at all, ever, under any circumstances."),
    ("Short.", "Also short."),
]


def test_transformers_scorer_returns_probabilities_in_input_order(tiny_model: Path) -> None:
    scorer = load_scorer(str(tiny_model), NLIBackend.transformers, batch_size=2)
    assert isinstance(scorer, TransformersScorer)
    probs = scorer.score(PAIRS)
    assert probs.shape == (3, 3)
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, rtol=1e-5)
    # sorting by length and batching must not change any pair's result
    for i, pair in enumerate(PAIRS):
        np.testing.assert_allclose(scorer.score([pair])[0], probs[i], atol=1e-5)


def test_onnx_int8_scorer_agrees_with_torch(tiny_model: Path, tiny_onnx: Path) -> None:
    onnx = load_scorer(str(tiny_onnx))
    assert isinstance(onnx, OnnxScorer)
    torch_probs = load_scorer(str(tiny_model), NLIBackend.transformers).score(PAIRS)
    np.testing.assert_allclose(onnx.score(PAIRS), torch_probs, atol=0.05)


@pytest.fixture
def tiny_twin(tiny_onnx: Path, tmp_path: Path) -> Path:
    """A copy of the tiny int8 model with the float twin of its graph beside it."""
    folder = Path(shutil.copytree(tiny_onnx, tmp_path / "model"))
    assert main(["nli", "float-twin", str(folder), "--graph", ONNX_FILE]) == 0
    return folder


def test_the_float_twin_computes_closer_to_the_float_model_than_the_int8_graph(
    tiny_model: Path, tiny_twin: Path
) -> None:
    """The twin keeps the int8 weights but quantises no activation: it is nearer torch's float32
    answers than the int8 graph it is built from, and borrows every weight from that graph."""
    torch_probs = load_scorer(str(tiny_model), NLIBackend.transformers).score(PAIRS)
    int8 = OnnxScorer(tiny_twin).score(PAIRS)
    twin = OnnxScorer(tiny_twin, float_recheck=0.0).score(PAIRS)
    np.testing.assert_allclose(twin, torch_probs, atol=0.01)
    assert np.abs(twin - torch_probs).mean() < np.abs(int8 - torch_probs).mean()
    assert (tiny_twin / twin_file(ONNX_FILE)).stat().st_size < (tiny_twin / ONNX_FILE).stat().st_size / 20


def test_the_shipped_float_twin_is_the_rewrite_of_the_shipped_dialogue_head() -> None:
    """dialogue_float.onnx, a few kilobytes of graph reading its weights from dialogue.onnx and
    model.onnx, computes what rewriting dialogue.onnx now would."""
    import onnx
    import onnxruntime as ort

    pairs = [("Take the tablet with food.", "Take the tablet on an empty stomach."), *PAIRS]
    shipped = load_scorer(str(BUILTIN_MODEL_DIR), dialogue=True, float_recheck=0.0)
    rewritten = load_scorer(str(BUILTIN_MODEL_DIR), dialogue=True, float_recheck=0.0)
    rewritten.float_session = ort.InferenceSession(
        float_twin(onnx.load(str(BUILTIN_MODEL_DIR / DIALOGUE_FILE))).SerializeToString(),
        rewritten._options(FOLD_DEQUANTIZE),
        providers=["CPUExecutionProvider"],
    )
    np.testing.assert_array_equal(shipped.score(pairs), rewritten.score(pairs))
    assert (BUILTIN_MODEL_DIR / twin_file(DIALOGUE_FILE)).stat().st_size < 100_000


def test_the_dialogue_head_scores_again_in_float_only_the_pairs_between_floor_and_ceiling() -> None:
    """verdict=sentences: a pair that may contradict is decided by the float32-compute twin;
    the others keep the int8 graph's answer: those far below the threshold, and those the
    int8 graph is sure of."""
    pairs = [
        ("Take the tablet with food.", "Take the tablet on an empty stomach."),
        ("Use the drops four times a day.", "Use the drops twice a day."),
        ("Take one tablet at night.", "Take it in the morning instead."),
        ("Maximum 4 doses in 24 hours.", "Not more than 3 doses in 24 hours."),
        ("Keep the dressing dry.", "Drink plenty of water."),
        ("Wear sunscreen outdoors.", "Stretch before you run."),
    ]
    int8 = load_scorer(str(BUILTIN_MODEL_DIR), dialogue=True).score(pairs)
    twin = load_scorer(str(BUILTIN_MODEL_DIR), dialogue=True, float_recheck=0.0).score(pairs)
    both = load_scorer(str(BUILTIN_MODEL_DIR), dialogue=True, float_recheck=0.5, float_recheck_ceiling=0.97).score(
        pairs
    )
    band = (int8[:, 2] >= 0.5) & (int8[:, 2] < 0.97)
    assert band.any() and (int8[:, 2] >= 0.97).any() and (int8[:, 2] < 0.5).any()
    assert not np.allclose(twin[band], int8[band], atol=1e-4)  # the twin is another computation
    np.testing.assert_array_equal(both[band], twin[band])
    np.testing.assert_array_equal(both[~band], int8[~band])


def test_a_missing_twin_is_one_clear_error(tiny_onnx: Path) -> None:
    with pytest.raises(NLIModelError, match=r"no float twin.*nli float-twin.*CONTRAFLOW_SENTENCE_FLOAT_RECHECK=1"):
        OnnxScorer(tiny_onnx, float_recheck=0.5)
    OnnxScorer(tiny_onnx, float_recheck=1.0).score(PAIRS)  # off, the graph alone needs none


def test_a_twin_whose_weights_changed_under_it_is_one_clear_error(tiny_twin: Path) -> None:
    import onnx

    twin = onnx.load(str(tiny_twin / twin_file(ONNX_FILE)), load_external_data=False)
    borrowed = SHARED_WEIGHTS.validate_json(next(p.value for p in twin.metadata_props if p.key == SHARED_WEIGHTS_KEY))
    largest = max(borrowed, key=lambda weight: weight.length)
    graph = bytearray((tiny_twin / largest.location).read_bytes())
    graph[largest.offset + largest.length // 2] ^= 1  # one weight changed in place
    (tiny_twin / largest.location).write_bytes(graph)
    with pytest.raises(NLIModelError, match=r"written against other weights.*nli float-twin"):
        OnnxScorer(tiny_twin, float_recheck=0.5)


def test_a_graph_that_quantises_no_activation_needs_no_twin(tiny_model: Path, tmp_path: Path) -> None:
    from contraflow.streams.training.export import export_onnx

    exported = export_onnx(tiny_model, tmp_path / "float", quantize=False).parent
    with pytest.raises(BadInput, match=r"needs no float twin.*CONTRAFLOW_SENTENCE_FLOAT_RECHECK=1"):
        write_float_twin(exported, ONNX_FILE)
    assert not (exported / twin_file(ONNX_FILE)).exists()


def test_a_quantised_graph_the_twin_cannot_read_is_one_clear_error(tiny_onnx: Path, tmp_path: Path) -> None:
    import onnx
    from onnx import helper

    model = onnx.load(str(tiny_onnx / "model.onnx"))
    matmul = next(node for node in model.graph.node if node.op_type == "MatMulInteger")
    detour = helper.make_node("Identity", [matmul.input[0]], ["activation_detour"], name="detour")
    matmul.input[0] = "activation_detour"
    model.graph.node.insert(list(model.graph.node).index(matmul), detour)
    shutil.copytree(tiny_onnx, tmp_path / "odd")
    onnx.save(model, str(tmp_path / "odd" / "model.onnx"))
    OnnxScorer(tmp_path / "odd").score(PAIRS)  # the graph itself runs
    with pytest.raises(BadInput, match=r"cannot write its float32-compute twin.*CONTRAFLOW_SENTENCE_FLOAT_RECHECK=1"):
        write_float_twin(tmp_path / "odd", ONNX_FILE)


@pytest.mark.parametrize("dialogue", [False, True], ids=["general graph", "dialogue head"])
def test_a_pair_is_judged_the_same_whatever_is_scored_beside_it(dialogue: bool) -> None:
    """The shipped int8 model: a worker's batcher runs pairs of many sessions together, so a
    turn's verdict must not depend on what other sessions sent at the same moment (nor
    differ between the live run, a replay and the redelivery after a crash)."""
    scorer = load_scorer(str(BUILTIN_MODEL_DIR), dialogue=dialogue)
    pairs = [
        ("Use the drops four times a day.", "Use the drops twice a day."),
        ("Take the tablet with food.", "Take the tablet on an empty stomach."),
    ]
    others = [
        (
            "After the procedure, keep the dressing dry for forty-eight hours and change it if it becomes "
            "soaked through or starts to smell, and see a nurse if the redness spreads.",
            "Avoid heavy lifting, contact sports and long soaks in the bath until the wound has fully "
            "closed, which usually takes about ten to fourteen days.",
        )
    ] * 12
    alone = np.vstack([scorer.score([pair]) for pair in pairs])
    np.testing.assert_allclose(scorer.score(pairs + others)[:2], alone, atol=1e-6)
    np.testing.assert_allclose(scorer.score(others[:3] + pairs[::-1])[3:][::-1], alone, atol=1e-6)


def test_label_order_is_read_from_the_model_config(tiny_model: Path, tmp_path: Path) -> None:
    """A model whose head lists contradiction first gives the same canonical columns."""
    permuted = {0: "CONTRADICTION", 1: "ENTAILMENT", 2: "NEUTRAL"}
    other = build_tiny_model(tmp_path / "permuted", permuted)
    assert label_order({"id2label": {str(k): v for k, v in permuted.items()}}, "x") == [1, 2, 0]
    scorer = load_scorer(str(other), NLIBackend.transformers)
    import torch

    with torch.inference_mode():
        enc = {k: torch.from_numpy(v) for k, v in scorer.tokenizer.encode([PAIRS[0]]).items()}
        raw = torch.softmax(scorer.model(**enc).logits, -1)[0].numpy()
    np.testing.assert_allclose(scorer.score([PAIRS[0]])[0], raw[[1, 2, 0]], atol=1e-5)


def test_empty_input_gives_empty_output(tiny_onnx: Path) -> None:
    assert load_scorer(str(tiny_onnx)).score([]).shape == (0, 3)


@pytest.mark.parametrize("location", ["/nonexistent/model", "some-org/not-cached-model"])
def test_missing_model_is_one_clear_error(location: str) -> None:
    with pytest.raises(NLIModelError, match="Nothing is downloaded"):
        load_scorer(location)


def test_a_file_that_is_not_a_model_is_one_clear_error(tmp_path: Path, tiny_onnx: Path) -> None:
    not_a_file = tmp_path / "weights.bin"
    not_a_file.write_bytes(b"\x00" * 64)
    with pytest.raises(NLIModelError, match="not a model directory"):
        load_scorer(str(not_a_file))
    broken = tmp_path / "broken"
    shutil.copytree(tiny_onnx, broken)
    (broken / "model.onnx").write_bytes(b"not an onnx graph")
    with pytest.raises(NLIModelError, match="not a loadable ONNX model"):
        load_scorer(str(broken))
    (broken / "config.json").write_text('{"id2label": {"0": "yes", "1": "no"}}')
    with pytest.raises(NLIModelError, match="cannot find the 'entailment' label"):
        load_scorer(str(broken))


def test_builtin_setting_points_into_the_package() -> None:
    assert Settings(nli_model="builtin").nli_model_path.endswith("streams/core/nli/assets/contraflow-nli-minilm-l6")
    assert Settings(nli_model="/x/y").nli_model_path == "/x/y"
