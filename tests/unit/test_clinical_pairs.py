"""The generated clinical advice pairs and `contraflow nli train --clinical-pairs`."""

import json
import re
from collections import Counter
from pathlib import Path

import pytest

import contraflow.streams.training.train
from contraflow.streams.tools.cli import main
from contraflow.streams.training.clinical_pairs import FAMILIES, clinical_pairs, common_drug_names
from contraflow.streams.training.clinical_targets import ACTIVITIES
from contraflow.streams.training.data import NLIExample
from contraflow.streams.training.train import TrainConfig, train, training_examples

COUNT = 4000
WORD = re.compile(r"[a-z]+")


@pytest.fixture(scope="module")
def pairs() -> list[NLIExample]:
    return clinical_pairs(COUNT, seed=7)


@pytest.fixture
def train_file(tmp_path: Path) -> Path:
    path = tmp_path / "train.jsonl"
    rows = [("A dog runs.", "An animal moves.", "entailment"), ("A dog runs.", "A dog sleeps.", "contradiction")]
    path.write_text("".join(json.dumps({"premise": p, "hypothesis": h, "label": y}) + "\n" for p, h, y in rows))
    return path


def targets(text: str) -> set[frozenset[str]]:
    """The drugs and activities a sentence names, each as the words that name it."""
    words = set(WORD.findall(text.lower()))
    named = {activity.words for activity in ACTIVITIES if activity.words & words}
    return named | {frozenset({name}) for name in words.intersection(common_drug_names())}


def family(example: NLIExample) -> str:
    return example.source.removeprefix("clinical/")


def test_drug_names_are_a_few_hundred_common_one_word_generics() -> None:
    names = common_drug_names()
    assert len(names) > 200
    assert all(WORD.fullmatch(name) for name in names)
    assert {"paracetamol", "ibuprofen", "allopurinol", "metformin", "amlodipine"} <= set(names)
    assert not {"gaviscon", "buscopan"} & set(names)
    assert not set(names) & {word for activity in ACTIVITIES for word in activity.words}


def test_the_same_seed_gives_the_same_pairs(pairs: list[NLIExample]) -> None:
    assert clinical_pairs(COUNT, seed=7) == pairs
    assert clinical_pairs(200, seed=8) != pairs[:200]
    assert clinical_pairs(0, seed=7) == []


def test_labels_are_balanced_and_every_family_is_drawn(pairs: list[NLIExample]) -> None:
    assert len(pairs) == COUNT and len(clinical_pairs(7, seed=1)) == 7
    labels = Counter(e.label for e in pairs)
    assert labels == {"entailment": 0.3 * COUNT, "neutral": 0.4 * COUNT, "contradiction": 0.3 * COUNT}
    assert {family(e) for e in pairs} == {
        f"{label}-{name}" for label, kinds in FAMILIES.items() for name, _, _ in kinds
    }
    assert len({(e.premise, e.hypothesis) for e in pairs}) == COUNT


def test_every_pair_comes_in_both_orders_with_its_label(pairs: list[NLIExample]) -> None:
    said = Counter((e.premise, e.hypothesis, e.label) for e in pairs)
    assert all(said[(e.hypothesis, e.premise, e.label)] == 1 for e in pairs)


def test_contradictions_reverse_advice_on_one_target(pairs: list[NLIExample]) -> None:
    contradictions = [e for e in pairs if e.is_contradiction]
    for e in contradictions:
        assert targets(e.premise) & targets(e.hypothesis), e


def test_different_target_neutrals_share_no_target(pairs: list[NLIExample]) -> None:
    different = [e for e in pairs if family(e) == "neutral-other-target"]
    assert len(different) > 0.15 * COUNT
    for e in different:
        assert targets(e.premise) and targets(e.hypothesis), e
        assert not targets(e.premise) & targets(e.hypothesis), e
    named = set().union(*(targets(e.premise) | targets(e.hypothesis) for e in different))
    activities = {activity.words for activity in ACTIVITIES}
    assert named & activities and named - activities  # both activities and drugs


def test_each_family_is_said_in_many_phrasings(pairs: list[NLIExample]) -> None:
    """At least 12 sentence shapes per family, once drug and activity names and numbers are masked."""
    names = set(common_drug_names()) | {word for activity in ACTIVITIES for word in activity.words}

    def shape(text: str) -> str:
        return re.sub(r"\d+(\.\d+)?", "N", " ".join("X" if w in names else w for w in WORD.findall(text.lower())))

    shapes: dict[str, set[str]] = {}
    for e in pairs:
        shapes.setdefault(family(e), set()).add(shape(e.premise))
    assert min(len(s) for s in shapes.values()) >= 12, {f: len(s) for f, s in shapes.items()}
    openers = Counter(e.premise.split()[0] for e in pairs)
    assert openers.most_common(1)[0][1] < 0.15 * COUNT


def test_not_stopping_is_keeping_on_and_stopping_one_drug_leaves_another(pairs: list[NLIExample]) -> None:
    restated = [e for e in pairs if e.label == "entailment"]
    assert any("stop" in e.premise.lower() and "keep taking" in e.hypothesis.lower() for e in restated)
    different = [e for e in pairs if family(e) == "neutral-other-target"]
    stop, keep = re.compile(r"(?<!n't )(?<!not )\bstop"), re.compile(r"keep taking|continue|carry on|stay on")
    assert any(stop.search(e.premise.lower()) and keep.search(e.hypothesis.lower()) for e in different)


def test_a_negative_count_is_an_error() -> None:
    with pytest.raises(ValueError, match="0 or more"):
        clinical_pairs(-1, seed=1)
    with pytest.raises(ValueError, match="clinical_pairs"):
        TrainConfig(backbone="unused", train_files=[], output_dir="out", clinical_pairs=-1)


def test_the_command_rejects_a_count_that_is_not_a_whole_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["nli", "train", "--out", str(tmp_path), "--backbone", "unused", "--clinical-pairs", "-5"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "contraflow nli: error: --clinical-pairs COUNT: COUNT must be a whole number, got '-5'"
    ]


def test_the_command_adds_the_pairs_after_the_files(
    train_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    configs: list[TrainConfig] = []
    monkeypatch.setattr(
        contraflow.streams.training.train, "train", lambda config, stop_after=None: configs.append(config)
    )
    argv = ["nli", "train", str(train_file), "--out", str(tmp_path / "out"), "--backbone", "unused", "--seed", "5"]
    assert main([*argv, "--clinical-pairs", "40"]) == 0
    examples = training_examples(configs[0])
    assert len(examples) == 2 + 40
    assert examples[2:] == clinical_pairs(40, seed=5)
    assert main(argv) == 0
    assert configs[1].clinical_pairs == 0 and len(training_examples(configs[1])) == 2


def test_training_with_clinical_pairs_runs(tiny_model: Path, train_file: Path, tmp_path: Path) -> None:
    logs: list[str] = []
    config = TrainConfig(
        backbone=str(tiny_model),
        train_files=[str(train_file)],
        clinical_pairs=30,
        output_dir=str(tmp_path / "clinical"),
        epochs=1,
        batch_size=8,
        threads=1,
    )
    assert train(config, log=logs.append) is not None
    assert logs[0].startswith("32 training pairs")
