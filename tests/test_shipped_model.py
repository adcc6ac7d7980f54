"""The NLI model shipped in the package: present, loads offline through the default
settings, small, and gets clear clinical contradictions right."""

import pytest

from streams.nli.scorer import OnnxScorer, load_scorer
from streams.settings import BUILTIN_MODEL_DIR, Settings

pytestmark = pytest.mark.model


def test_the_model_ships_with_the_package_and_is_small() -> None:
    files = {p.name: p.stat().st_size for p in BUILTIN_MODEL_DIR.iterdir()}
    assert {"model.onnx", "config.json", "tokenizer.json", "MODEL_CARD.md"} <= files.keys()
    assert sum(files.values()) < 40 * 1024 * 1024


def test_default_settings_load_it_with_onnx_runtime() -> None:
    settings = Settings()
    scorer = load_scorer(settings.nli_model_path, settings.nli_backend)
    assert isinstance(scorer, OnnxScorer)


@pytest.mark.parametrize(
    ("premise", "hypothesis", "label"),
    [
        ("You should not take ibuprofen with warfarin.", "You can take ibuprofen with warfarin.", "contradiction"),
        ("Keep taking metformin twice daily.", "Stop taking metformin.", "contradiction"),
        ("A man is playing a guitar on stage.", "A man is playing music.", "entailment"),
        ("A man is playing a guitar on stage.", "The man is a famous musician.", "neutral"),
    ],
)
def test_clear_cases(premise: str, hypothesis: str, label: str) -> None:
    scorer = load_scorer(Settings().nli_model_path)
    probs = scorer.score([(premise, hypothesis)])[0]
    assert ("entailment", "neutral", "contradiction")[int(probs.argmax())] == label
