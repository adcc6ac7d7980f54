"""Loading what the turn pipeline calls out to, once per process, and wrapping the
CPU-heavy parts so they run in threads (never on the event loop)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from streams.embeddings import SentenceEmbedder, shared_embedder
from streams.extract.entities import EntityExtractor, load_entity_extractor
from streams.knowledge.memory import MemoryPolicy
from streams.knowledge.pipeline import KnowledgePipeline, KnowledgeSettings
from streams.knowledge.store import KnowledgeStore
from streams.nli.batcher import MicroBatcher
from streams.nli.scorer import NLIScorer, load_scorer
from streams.settings import Settings
from streams.turns import ScoreFn, TurnPipeline, TurnServices, TurnSettings


@dataclass
class Components:
    """The loaded models of one process."""

    scorer: NLIScorer
    extractor: EntityExtractor
    embedder: SentenceEmbedder


def load_components(settings: Settings) -> Components:
    """Load the NLI model first, so a missing model fails before anything else."""
    scorer = load_scorer(
        settings.nli_model_path,
        settings.nli_backend,
        max_length=settings.nli_max_length,
        batch_size=settings.nli_max_batch,
        threads=settings.nli_threads,
    )
    return Components(scorer, load_entity_extractor(settings.ner_model), shared_embedder())


@dataclass
class ModelServices:
    """A worker's loaded models around one shared NLI micro-batcher, and its turn pipeline."""

    batcher: MicroBatcher
    calls: TurnServices
    turns: TurnPipeline


@dataclass
class KnowledgeServices:
    """The knowledge store and the pipeline that prechecks writes against it."""

    store: KnowledgeStore
    pipeline: KnowledgePipeline


def load_models(settings: Settings, observe_batch: Callable[[int, float], None] | None = None) -> ModelServices:
    """Load the models and put the turn pipeline together around one NLI micro-batcher."""
    components = load_components(settings)
    batcher = nli_batcher(components, settings, observe_batch)
    calls = turn_services(components, score=batcher.score)
    return ModelServices(batcher, calls, TurnPipeline(calls, turn_settings(settings)))


def open_knowledge(settings: Settings, models: ModelServices) -> KnowledgeServices:
    """Open the knowledge store (importing LanceDB takes seconds) and its pipeline, sharing
    the models' micro-batcher and embedder."""
    assert models.calls.embed is not None
    store = open_store(settings)
    pipeline = KnowledgePipeline(store, models.batcher.score, models.calls.embed, knowledge_settings(settings))
    return KnowledgeServices(store, pipeline)


def nli_batcher(
    components: Components, settings: Settings, observe: Callable[[int, float], None] | None = None
) -> MicroBatcher:
    """The micro-batcher every NLI caller of a worker shares, as the settings shape it."""
    return MicroBatcher(
        components.scorer,
        max_batch=settings.nli_max_batch,
        max_wait_ms=settings.nli_max_wait_ms,
        sort_window=max(settings.nli_sort_window, settings.nli_max_batch),
        observe=observe,
    )


def open_store(settings: Settings) -> KnowledgeStore:
    """The configured knowledge store: LanceDB under the data dir, or Weaviate."""
    if settings.knowledge_store == "weaviate":
        from streams.knowledge.weaviate import WeaviateStore

        if not settings.weaviate_url:
            raise ValueError("knowledge_store=weaviate needs CONTRAFLOW_WEAVIATE_URL")
        return WeaviateStore(settings.weaviate_url, api_key=settings.weaviate_api_key)
    from streams.knowledge.lance import LanceStore

    return LanceStore(settings.data_dir / "knowledge")


def knowledge_settings(settings: Settings) -> KnowledgeSettings:
    return KnowledgeSettings(
        collections=tuple(settings.knowledge_collections),
        top_k=settings.knowledge_top_k,
        sensitivity=settings.knowledge_sensitivity,
        thresholds={
            "strict": settings.sensitivity_strict,
            "balanced": settings.sensitivity_balanced,
            "lenient": settings.sensitivity_lenient,
        },
        policy=MemoryPolicy(
            temporal_days=settings.memory_temporal_days,
            confidence_gap=settings.memory_confidence_gap,
            reinforcement_gap=settings.memory_reinforcement_gap,
            min_confidence_for_conflict=settings.memory_min_confidence,
            conflict_decay=settings.memory_conflict_decay,
            lower_confidence_decay=settings.memory_lower_decay,
        ),
    )


def turn_settings(settings: Settings) -> TurnSettings:
    return TurnSettings(
        stride=settings.stride,
        caution=settings.k_conflict_caution,
        failure=settings.k_conflict_failure,
        advice_history=settings.advice_history,
        dedup_window=settings.dedup_window,
        compare=settings.compare,
        global_window=settings.global_window,
        verdict=settings.verdict,
        contradiction_threshold=settings.contradiction_threshold,
        topic_similarity=settings.topic_similarity,
        recall_gate=settings.recall_gate,
        recall_turn=settings.recall_turn,
        slope_threshold=settings.slope_threshold,
        slope_min_turns=settings.slope_min_turns,
        repetition_limit=settings.repetition_limit,
    )


def turn_services(components: Components, score: ScoreFn | None = None) -> TurnServices:
    """Services for the pipeline; `score` defaults to the scorer in a thread (the worker
    passes its micro-batcher instead)."""

    async def score_in_thread(pairs) -> np.ndarray:
        return await asyncio.to_thread(components.scorer.score, list(pairs))

    # one thread for both: the entity extractor is not thread-safe
    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="entities")

    async def extract(text: str) -> list[str]:
        return await asyncio.get_running_loop().run_in_executor(executor, components.extractor.extract, text)

    async def embed(texts: list[str]) -> np.ndarray:
        return await asyncio.get_running_loop().run_in_executor(executor, components.embedder.embed, texts)

    return TurnServices(score=score or score_in_thread, extract_entities=extract, embed=embed)
