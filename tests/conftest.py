"""Fixtures every folder of tests can ask for: the tiny NLI model (tests/fixtures.py builds
it) and its ONNX export, a Tansu broker per test. Each test is marked by its folder
(unit, agents, integration, deploy): `pytest -m "not integration"` is the fast lane."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.fixtures import LABELS, build_tiny_model
from tests.store_contract import cached_embed

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


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


@pytest.fixture(scope="session")
def tiny_student(tiny_model: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny model trained on a few pairs (word embeddings frozen, as training keeps them) and
    exported: a student of `tiny_onnx`, with other answers."""
    from contraflow.streams.training.export import export_onnx
    from contraflow.streams.training.train import TrainConfig, train
    from tests.fixtures import write_pairs

    work = tmp_path_factory.mktemp("tiny-student")
    config = TrainConfig(
        backbone=str(tiny_model),
        train_files=[str(write_pairs(work / "pairs.jsonl"))],
        output_dir=str(work / "trained"),
        threads=1,
        epochs=2,
        batch_size=4,
        learning_rate=1e-3,
    )
    trained = train(config, log=lambda _: None)
    assert trained is not None
    export_onnx(trained, work / "onnx")
    return work / "onnx"


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[object]:
    """A Tansu broker of the test's own (memory only; it starts in well under a second),
    so no test reads another's events."""
    from contraflow.streams.tools.broker import TansuBroker

    with TansuBroker(log=tmp_path / "tansu.log") as running:
        yield running


FOLDER_MARKERS = ("unit", "agents", "integration", "deploy")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test with the folder it lives in."""
    for item in items:
        folder = Path(str(item.fspath)).parent.name
        if folder in FOLDER_MARKERS:
            item.add_marker(getattr(pytest.mark, folder))


@pytest.fixture(scope="session")
def embed() -> Callable[[str], list[float]]:
    """MiniLM vectors of the store tests' texts (tests/store_contract.py), each computed once."""
    return cached_embed()
