"""Training, evaluation and calibration code on tiny data and the tiny model."""

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
import torch

from contraflow.streams.errors import BadInput
from contraflow.streams.training.calibrate import calibrate
from contraflow.streams.training.data import (
    NLI_LABELS,
    NLIExample,
    content_words,
    load_examples,
    swapped,
    unrelated_negatives,
)
from contraflow.streams.training.evaluate import report
from contraflow.streams.training.train import TrainConfig, bucketed_batches, distillation_loss, train, training_examples
from tests.fixtures import NLI_ROWS, write_pairs


@pytest.fixture
def train_file(tmp_path: Path) -> Path:
    return write_pairs(tmp_path / "train.jsonl")


def _trained(backbone: Path, data: Path, out: Path, **options: object) -> Path:
    """A model trained quietly on one thread from `backbone` on `data`, saved under `out`."""
    trained = train(
        TrainConfig(backbone=str(backbone), train_files=[str(data)], output_dir=str(out), threads=1, **options),
        log=lambda _: None,
    )
    assert trained is not None
    return trained


def _loss(
    logits: torch.Tensor, allowed: torch.Tensor, teacher: list[float] | None = None, weight: float = 0.0
) -> float:
    targets = torch.tensor([teacher or [0.0, 0.0, 0.0]])
    return distillation_loss(logits, allowed, targets, torch.tensor([teacher is not None]), weight).item()


def test_label_set_loss_is_cross_entropy_or_the_marginal() -> None:
    logits = torch.tensor([[2.0, 0.5, -1.0]])
    probs = torch.softmax(logits, -1)[0]
    single = _loss(logits, torch.tensor([[True, False, False]]))
    both = _loss(logits, torch.tensor([[True, True, False]]))
    assert single == pytest.approx(-math.log(probs[0].item()), rel=1e-5)
    assert both == pytest.approx(-math.log(probs[0].item() + probs[1].item()), rel=1e-5)


def test_a_teacher_mixes_its_cross_entropy_into_the_loss_by_the_distil_weight() -> None:
    logits = torch.tensor([[2.0, 0.5, -1.0]])
    allowed = torch.tensor([[True, False, False]])
    log_probs = torch.log_softmax(logits, -1)[0]
    teacher = [0.2, 0.7, 0.1]
    soft = -sum(t * lp for t, lp in zip(teacher, log_probs.tolist(), strict=True))
    hard = -log_probs[0].item()
    assert _loss(logits, allowed, teacher, weight=0.0) == pytest.approx(hard, rel=1e-5)
    assert _loss(logits, allowed, teacher, weight=1.0) == pytest.approx(soft, rel=1e-5)
    assert _loss(logits, allowed, teacher, weight=0.25) == pytest.approx(0.75 * hard + 0.25 * soft, rel=1e-5)
    assert _loss(logits, allowed, None, weight=1.0) == pytest.approx(hard, rel=1e-5)  # no teacher: labels only


def test_teacher_probabilities_must_be_a_distribution_and_are_not_kept_when_swapped() -> None:
    with pytest.raises(ValueError, match="sum to 1"):
        NLIExample(premise="a", hypothesis="b", label="neutral", teacher=(0.5, 0.5, 0.5))
    example = NLIExample(premise="a", hypothesis="b", label="contradiction", teacher=(0.1, 0.1, 0.8))
    assert swapped([example])[0].teacher is None


def test_bucketed_batches_cover_every_example_once_and_are_seeded() -> None:
    lengths = [(i * 37) % 100 for i in range(1000)]
    batches = bucketed_batches(lengths, batch_size=32, mega=4, seed=1)
    assert sorted(i for b in batches for i in b) == list(range(1000))
    assert batches == bucketed_batches(lengths, batch_size=32, mega=4, seed=1)
    assert batches != bucketed_batches(lengths, batch_size=32, mega=4, seed=2)
    spread = np.mean([max(lengths[i] for i in b) - min(lengths[i] for i in b) for b in batches])
    assert spread < 30  # similar lengths batch together


def test_unknown_label_names_the_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    good = '{"premise": "a", "hypothesis": "b", "label": "entailment"}\n'
    bad.write_text(good + '{"premise": "a", "hypothesis": "b", "label": "maybe"}\n')
    with pytest.raises(ValueError, match=r"bad.jsonl:2"):
        load_examples([bad])
    assert NLIExample(premise="a", hypothesis="b", label="Contradiction").is_contradiction


def test_snli_release_lines_are_read_and_pairs_without_a_gold_label_skipped(tmp_path: Path) -> None:
    rows = [
        {"sentence1": "A man plays a guitar.", "sentence2": "A man makes music.", "gold_label": "entailment"},
        {"sentence1": "A man plays a guitar.", "sentence2": "A man is asleep.", "gold_label": "-"},
        {"sentence1": "Kids swim.", "sentence2": "Nobody swims.", "gold_label": "contradiction", "pairID": "x"},
    ]
    path = tmp_path / "snli_1.0_train.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    examples = load_examples([path])
    assert [(e.premise, e.hypothesis, e.label) for e in examples] == [
        ("A man plays a guitar.", "A man makes music.", "entailment"),
        ("Kids swim.", "Nobody swims.", "contradiction"),
    ]
    assert examples[0].source == "snli_1.0_train.jsonl"
    path.write_text(json.dumps({"sentence1": "a", "sentence2": "b", "gold_label": "maybe"}) + "\n")
    with pytest.raises(ValueError, match=r"snli_1.0_train.jsonl:1"):
        load_examples([path])


def test_only_symmetric_labels_are_swapped() -> None:
    examples = [NLIExample(premise=p, hypothesis=h, label=y) for p, h, y in NLI_ROWS]
    assert [(e.premise, e.hypothesis, e.label) for e in swapped(examples)] == [
        ("A cat sleeps indoors.", "A dog runs in the park.", "contradiction"),
        ("I hate walking anywhere.", "i love hiking on weekends .", "contradiction"),
        ("My kids are at school.", "i have two kids .", "non_contradiction"),
    ]


def test_both_directions_adds_the_swapped_pairs_to_training(tiny_model: Path, train_file: Path, tmp_path: Path) -> None:
    logs: list[str] = []
    config = TrainConfig(
        backbone=str(tiny_model),
        train_files=[str(train_file)],
        both_directions=[str(train_file)],
        output_dir=str(tmp_path / "both"),
        epochs=1,
        batch_size=8,
        threads=1,
    )
    assert train(config, log=logs.append) is not None
    assert logs[0].startswith(f"{len(NLI_ROWS) * 6 + 3 * 6} training pairs")


def test_unrelated_contradictions_are_left_out_of_the_named_files_only(train_file: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.jsonl"
    other.write_text(train_file.read_text())
    config = TrainConfig(
        backbone="unused",
        train_files=[str(train_file), str(other)],
        drop_unrelated_contradictions=[str(train_file)],
        output_dir=str(tmp_path / "out"),
    )
    examples = training_examples(config)
    # the two contradictions of NLI_ROWS share no content word: left out of the first file only
    assert len(examples) == (len(NLI_ROWS) - 2) * 6 + len(NLI_ROWS) * 6
    assert not [e for e in examples[: (len(NLI_ROWS) - 2) * 6] if e.is_contradiction]
    assert len([e for e in examples if e.is_contradiction]) == 2 * 6


def test_unrelated_negatives_pair_statements_on_different_subjects_and_are_seeded() -> None:
    statements = [
        ("i have a dog .", "I have never had a pet."),
        ("i love hiking .", "I hate walking."),
        ("my car is red .", "I do not drive."),
        ("i live in paris .", "I have never left Texas."),
    ]
    examples = [NLIExample(premise=p, hypothesis=h, label="contradiction") for p, h in statements]
    examples.append(NLIExample(premise="i like tea .", hypothesis="Tea is fine.", label="non_contradiction"))
    negatives = unrelated_negatives(examples, 40, seed=3)
    assert len(negatives) == 40
    assert {e.label for e in negatives} == {"non_contradiction"}
    premises, hypotheses = {p for p, _ in statements}, {h for _, h in statements}
    for e in negatives:
        assert e.premise in premises and e.hypothesis in hypotheses
        assert (e.premise, e.hypothesis) not in statements
        assert not content_words(e.premise) & content_words(e.hypothesis)
    assert unrelated_negatives(examples, 40, seed=3) == negatives
    assert unrelated_negatives(examples, 40, seed=4) != negatives


def test_unrelated_negatives_need_contradictions_on_different_subjects() -> None:
    with pytest.raises(ValueError, match="at least two contradiction pairs"):
        unrelated_negatives([NLIExample(premise="a", hypothesis="b", label="neutral")], 5, seed=1)
    same_subject = [
        NLIExample(premise=f"dogs bark {n}", hypothesis="dogs never bark", label="contradiction") for n in "ab"
    ]
    with pytest.raises(ValueError, match="drew only 0 of 5 unrelated negatives"):
        unrelated_negatives(same_subject, 5, seed=1)


def test_dropping_from_a_file_that_is_not_trained_on_is_an_error(train_file: Path, tmp_path: Path) -> None:
    config = TrainConfig(
        backbone="unused",
        train_files=[str(train_file)],
        drop_unrelated_contradictions=[str(tmp_path / "snli.jsonl")],
        output_dir=str(tmp_path / "out"),
    )
    with pytest.raises(ValueError, match="not training files"):
        training_examples(config)


def test_interrupted_training_resumes_to_the_same_model(tiny_model: Path, train_file: Path, tmp_path: Path) -> None:
    def config(out: str) -> TrainConfig:
        return TrainConfig(
            backbone=str(tiny_model),
            train_files=[str(train_file)],
            output_dir=str(tmp_path / out),
            epochs=2,
            batch_size=4,
            checkpoint_every=3,
            threads=1,
        )

    straight = train(config("straight"), log=lambda _: None)
    assert train(config("resumed"), log=lambda _: None, stop_after=5) is None
    resumed = train(config("resumed"), log=lambda _: None)
    assert straight is not None and resumed is not None
    from safetensors.torch import load_file

    a, b = load_file(straight / "model.safetensors"), load_file(resumed / "model.safetensors")
    assert a.keys() == b.keys()
    for key in a:
        torch.testing.assert_close(a[key], b[key])
    saved = json.loads((straight / "config.json").read_text())
    assert saved["id2label"] == {"0": "entailment", "1": "neutral", "2": "contradiction"}


def test_a_resumed_run_shows_its_loss_not_a_fraction_of_it(
    tiny_model: Path, train_file: Path, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    config = TrainConfig(
        backbone=str(tiny_model),
        train_files=[str(train_file)],
        output_dir=str(tmp_path / "out"),
        epochs=2,
        batch_size=4,
        checkpoint_every=3,
        threads=1,
    )
    assert train(config, log=lambda _: None, stop_after=3) is None
    capfd.readouterr()
    train(config, log=lambda _: None)
    shown = [float(x) for x in re.findall(r"loss=(\d+\.\d+)", capfd.readouterr().err)]
    # three classes from a barely trained model: a cross-entropy near ln 3, not 2 % of it
    assert shown and shown[0] > 0.5


def test_report_counts_a_hand_made_case() -> None:
    gold = ["entailment", "neutral", "contradiction", "contradiction"]
    probs = np.array([[0.8, 0.1, 0.1], [0.1, 0.1, 0.8], [0.1, 0.1, 0.8], [0.6, 0.3, 0.1]])
    result = report("x", gold, probs)
    assert result.accuracy == 0.5
    assert result.confusion == [[1, 0, 0], [0, 0, 1], [1, 0, 1]]
    assert result.per_class["contradiction"].precision == 0.5 and result.per_class["contradiction"].recall == 0.5
    assert result.contradiction_f1 == 0.5


def test_two_class_files_are_judged_contradiction_vs_not() -> None:
    gold = ["contradiction", "non_contradiction", "non_contradiction"]
    probs = np.array([[0.1, 0.1, 0.8], [0.1, 0.8, 0.1], [0.8, 0.1, 0.1]])
    result = report("decode", gold, probs)
    assert result.two_class and result.accuracy == 1.0 and result.contradiction_f1 == 1.0
    assert result.confusion == [[1, 0], [0, 2]]


def test_calibration_orders_the_three_sensitivities() -> None:
    rng = np.random.default_rng(0)
    flags = rng.random(2000) < 0.3
    p = np.clip(np.where(flags, rng.normal(0.75, 0.2, 2000), rng.normal(0.2, 0.2, 2000)), 0, 1)
    cal = calibrate(p, flags)
    assert cal.strict <= cal.balanced <= cal.lenient
    assert cal.strict_precision < 1.0 and cal.lenient_recall < 1.0
    assert ((p >= cal.strict) & flags).sum() / flags.sum() >= 0.9
    said = p >= cal.lenient
    assert (said & flags).sum() / said.sum() >= 0.95


def test_a_backbone_without_token_types_trains_and_scores(train_file: Path, tmp_path: Path) -> None:
    """MPNet (all-mpnet-base-v2, the issue's optional teacher) takes no token_type_ids:
    training and the transformers scorer feed it only what its forward accepts."""
    from transformers import AutoTokenizer, MPNetConfig, MPNetForSequenceClassification

    from contraflow.streams.core.nli.scorer import OnnxScorer, TransformersScorer
    from contraflow.streams.training.commands import backbone_path
    from contraflow.streams.training.export import export_onnx
    from tests.fixtures import TINY_ENCODER

    backbone = tmp_path / "tiny-mpnet"
    tokenizer = AutoTokenizer.from_pretrained(backbone_path(), model_input_names=["input_ids", "attention_mask"])
    config = MPNetConfig(vocab_size=tokenizer.vocab_size, **TINY_ENCODER, num_labels=3)
    MPNetForSequenceClassification(config).save_pretrained(backbone)
    tokenizer.save_pretrained(backbone)
    assert "token_type_ids" not in tokenizer("a", "b")
    trained = _trained(backbone, train_file, tmp_path / "out", epochs=1, batch_size=8)
    pairs = [("A dog runs in the park.", "A cat sleeps indoors."), ("A woman reads a book.", "She is a teacher.")]
    rows = TransformersScorer(trained).score(pairs)
    assert rows.shape == (2, 3) and rows.sum(axis=1) == pytest.approx([1.0, 1.0], abs=1e-5)
    exported = export_onnx(trained, tmp_path / "onnx", quantize=False).parent  # and it exports
    np.testing.assert_allclose(OnnxScorer(exported).score(pairs), rows, atol=1e-4)


def test_a_student_trained_on_teacher_labels_moves_toward_the_teacher(
    tiny_model: Path, train_file: Path, tmp_path: Path
) -> None:
    """`nli label` writes a teacher's probabilities onto every pair (read back by training),
    and a student trained with --distil-weight 1 ends closer to that teacher than one
    trained on the labels alone."""
    from contraflow.streams.core.nli.scorer import TransformersScorer
    from contraflow.streams.tools.cli import main

    teacher = _trained(tiny_model, train_file, tmp_path / "teacher", epochs=3, batch_size=4, learning_rate=5e-4, seed=3)
    labelled = tmp_path / "labelled.jsonl"
    assert main(["nli", "label", str(train_file), "--model", str(teacher), "--out", str(labelled)]) == 0
    examples = load_examples([labelled])
    pairs = [(e.premise, e.hypothesis) for e in examples]
    targets = np.array([e.teacher for e in examples])
    assert len(examples) == len(NLI_ROWS) * 6 and [e.label for e in examples] == [y for _, _, y in NLI_ROWS * 6]
    np.testing.assert_allclose(targets, TransformersScorer(teacher).score(pairs), atol=1e-4)
    relabelled = tmp_path / "relabelled.jsonl"
    assert (
        main(["nli", "label", str(train_file), "--model", str(teacher), "--out", str(relabelled), "--argmax-label"])
        == 0
    )
    assert [e.label for e in load_examples([relabelled])] == [NLI_LABELS[i] for i in targets.argmax(axis=1)]

    def student(weight: float) -> np.ndarray:
        out = _trained(
            tiny_model,
            labelled,
            tmp_path / f"s{weight}",
            epochs=2,
            batch_size=4,
            learning_rate=5e-4,
            distil_weight=weight,
        )
        return TransformersScorer(out).score(pairs)

    def distance(probabilities: np.ndarray) -> float:
        return float(np.abs(probabilities - targets).sum(axis=1).mean())

    assert distance(student(1.0)) < distance(student(0.0))


def test_bf16_labelling_stays_near_float32_and_is_for_hugging_face_folders(
    tiny_model: Path, tiny_onnx: Path, train_file: Path, tmp_path: Path
) -> None:
    """`nli label --bf16` runs the teacher under bf16 autocast: probabilities within bf16's
    precision of float32's (the same as float32 labels there); an ONNX model has no bf16 path
    and says so in one error."""
    from contraflow.streams.core.nli.scorer import NLIModelError, load_scorer
    from contraflow.streams.tools.cli import main

    out = {}
    for name, flags in {"fp32": [], "bf16": ["--bf16"]}.items():
        out[name] = tmp_path / f"{name}.jsonl"
        assert main(["nli", "label", str(train_file), "--model", str(tiny_model), "--out", str(out[name]), *flags]) == 0
    fp32, bf16 = (np.array([e.teacher for e in load_examples([out[name]])]) for name in ("fp32", "bf16"))
    assert 0 < np.abs(fp32 - bf16).max() < 0.02  # computed in bf16, yet close
    with pytest.raises(NLIModelError, match="bf16"):
        load_scorer(str(tiny_onnx), bf16=True)


def test_evaluation_shows_its_progress_and_scores_every_pair(tiny_onnx: Path, train_file: Path, capsys) -> None:
    from contraflow.streams.core.nli.scorer import load_scorer
    from contraflow.streams.training.evaluate import PROGRESS_CHUNK, evaluate_file

    result, gold, probabilities = evaluate_file(load_scorer(str(tiny_onnx)), train_file, progress=True)
    assert result.pairs == len(gold) == len(probabilities) == len(NLI_ROWS) * 6 < PROGRESS_CHUNK
    assert f"{len(gold)}/{len(gold)}" in capsys.readouterr().err


def test_frozen_lower_layers_stay_the_backbones_and_the_rest_learn(
    tiny_model: Path, train_file: Path, tmp_path: Path
) -> None:
    from safetensors.torch import load_file

    before = load_file(tiny_model / "model.safetensors")
    after = load_file(_trained(tiny_model, train_file, tmp_path / "frozen", freeze_layers=1) / "model.safetensors")
    lower = [k for k in before if ".embeddings." in k or ".layer.0." in k]
    upper = [k for k in before if ".layer.1." in k]
    assert lower and upper
    for key in lower:
        torch.testing.assert_close(after[key], before[key], rtol=0, atol=0)
    assert any(not torch.equal(after[key], before[key]) for key in upper)


def test_freezing_more_layers_than_the_backbone_has_is_an_error(
    tiny_model: Path, train_file: Path, tmp_path: Path
) -> None:
    with pytest.raises(BadInput, match="--freeze-layers 9: the backbone has only"):
        _trained(tiny_model, train_file, tmp_path / "too-many", freeze_layers=9)
