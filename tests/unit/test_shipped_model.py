"""The NLI model shipped in the package: present, loads offline through the default
settings, small, and gets clear clinical contradictions right."""

import pytest

from contraflow.streams.core.nli.scorer import OnnxScorer, load_scorer
from contraflow.streams.runtime.services import uses_dialogue_head
from contraflow.streams.settings import BUILTIN_MODEL_DIR, Settings

pytestmark = pytest.mark.model


def test_the_model_ships_with_the_package_and_is_small() -> None:
    files = {p.name: p.stat().st_size for p in BUILTIN_MODEL_DIR.iterdir()}
    assert {"model.onnx", "dialogue.onnx", "config.json", "tokenizer.json", "MODEL_CARD.md"} <= files.keys()
    assert sum(files.values()) < 40 * 1024 * 1024


@pytest.mark.parametrize(
    ("earlier", "later", "reverses"),
    [
        ("Take the tablets with food.", "Take the tablets on an empty stomach.", True),
        ("You can take ibuprofen for the pain.", "Do not take ibuprofen.", True),
        ("Take it in the morning.", "Take it at bedtime.", True),
        ("Keep taking your warfarin.", "Do not stop the warfarin.", False),
        ("Use your inhaler twice a day.", "Drink plenty of water.", False),
        ("Start with 5 mg a day for a week, then go up to 10 mg.", "After the first week, take 10 mg a day.", False),
    ],
)
def test_the_shipped_dialogue_head_judges_the_sentence_rules_pairs(earlier: str, later: str, reverses: bool) -> None:
    """The sentence rule (verdict=sentences) judges with the shipped dialogue head: its
    borrowed weights match model.onnx, and a clinician's reading holds at its 0.9 threshold."""
    settings = Settings(verdict="sentences")
    assert uses_dialogue_head(settings)
    scorer = load_scorer(settings.nli_model_path, dialogue=True)
    both_ways = (scorer.score([(earlier, later)])[0, 2] + scorer.score([(later, earlier)])[0, 2]) / 2
    assert (both_ways >= 0.9) == reverses


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


async def test_seed_001_scenario_with_the_shipped_model(tmp_path) -> None:
    """Seed 001's three claims about one technology, judged by the real model at the
    default (balanced) sensitivity: every pair conflicts, typed as the seed expects."""
    import asyncio
    from datetime import UTC, datetime

    from contraflow.models.events import KnowledgeWrite
    from contraflow.streams.core.embeddings import shared_embedder
    from contraflow.streams.core.knowledge.lance import LanceStore
    from contraflow.streams.core.knowledge.pipeline import KnowledgePipeline
    from contraflow.streams.runtime.services import knowledge_settings

    settings = Settings(data_dir=tmp_path)
    scorer = load_scorer(settings.nli_model_path)

    async def score(pairs):
        return await asyncio.to_thread(scorer.score, list(pairs))

    async def embed(texts):
        return await asyncio.to_thread(shared_embedder().embed, texts)

    pipeline = KnowledgePipeline(LanceStore(tmp_path / "store"), score, embed, knowledge_settings(settings))
    claims = [
        ("video-a", "X improves performance by 40%."),
        ("video-b", "X has no measurable impact on performance."),
        ("research-c", "X degrades performance under load."),
    ]
    found = []
    for entry_id, text in claims:
        write = KnowledgeWrite(
            entry_id=entry_id, collection="default", text=text, created_at=datetime(2026, 1, 1, tzinfo=UTC)
        )
        outcome = await pipeline.process(write, None)
        found += [(e.claim_a.entry_id, e.claim_b.entry_id, e.conflict_type) for e in outcome.conflicts]
    assert sorted(found) == [
        ("video-a", "research-c", "scope"),
        ("video-a", "video-b", "factual"),
        ("video-b", "research-c", "scope"),
    ]
