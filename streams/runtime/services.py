"""Loading what the turn pipeline calls out to and wrapping the CPU-heavy parts so they never
run on the event loop: in a worker, in its model process (`load_models`, streams/runtime/model_host.py);
in `replay`, `conflicts`, benchmarks and tests, in threads of the calling process
(`load_components`, `turn_services`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from contraflow.streams.core.calls import ScoreFn
from contraflow.streams.core.knowledge.memory import MemoryPolicy
from contraflow.streams.core.knowledge.pipeline import KnowledgePipeline, KnowledgeSettings
from contraflow.streams.core.knowledge.store import KnowledgeStore
from contraflow.streams.core.nli.batcher import MicroBatcher
from contraflow.streams.core.nli.scorer import PairScorer
from contraflow.streams.core.turns import TurnPipeline, TurnServices, TurnSettings
from contraflow.streams.errors import BadInput
from contraflow.streams.runtime.model_host import ModelHost
from contraflow.streams.runtime.store_process import StoreProcess
from contraflow.streams.settings import Settings

if TYPE_CHECKING:
    from contraflow.streams.core.embeddings import SentenceEmbedder
    from contraflow.streams.core.extract.entities import EntityExtractor
    from contraflow.streams.core.nli.scorer import NLIScorer


@dataclass
class Components:
    """The loaded models of one process. `dialogue` is the NLI model's dialogue head, loaded
    when the turn pipeline judges with it (`uses_dialogue_head`)."""

    scorer: NLIScorer
    extractor: EntityExtractor
    embedder: SentenceEmbedder
    dialogue: NLIScorer | None = None

    @property
    def turn_scorer(self) -> NLIScorer:
        """What scores the turn pipeline's pairs; the knowledge precheck always uses `scorer`."""
        return self.dialogue or self.scorer


def uses_dialogue_head(settings: Settings) -> bool:
    """Whether the turn pipeline judges with the model's dialogue head (verdict=sentences only:
    it was trained for the sentence rule; see CONTRAFLOW_SENTENCE_HEAD)."""
    if settings.verdict != "sentences" or settings.sentence_head == "general":
        return False
    if settings.sentence_head == "dialogue":
        return True
    from contraflow.streams.core.nli.heads import has_dialogue_head
    from contraflow.streams.core.nli.scorer import resolve_model_dir

    return has_dialogue_head(resolve_model_dir(settings.nli_model_path))


def load_components(settings: Settings) -> Components:
    """Load the models into this process, the NLI model first, so that a missing model fails
    before anything else."""
    from contraflow.streams.core.embeddings import shared_embedder
    from contraflow.streams.core.extract.entities import load_entity_extractor
    from contraflow.streams.core.nli.scorer import load_scorer

    def nli(dialogue: bool) -> NLIScorer:
        return load_scorer(
            settings.nli_model_path,
            settings.nli_backend,
            max_length=settings.nli_max_length,
            batch_size=settings.nli_max_batch,
            threads=settings.nli_threads,
            dialogue=dialogue,
            float_recheck=settings.sentence_float_recheck,
            float_recheck_ceiling=settings.sentence_float_recheck_ceiling,
        )

    scorer = nli(dialogue=False)
    dialogue = nli(dialogue=True) if uses_dialogue_head(settings) else None
    return Components(
        scorer,
        load_entity_extractor(settings.ner_model),
        shared_embedder(settings.embedder_precision == "float32"),
        dialogue,
    )


@dataclass
class ModelServices:
    """A worker's model process, the NLI micro-batcher of its general graph (the knowledge
    precheck's, and the turn pipeline's unless that judges with the dialogue head, which then
    has a micro-batcher of its own), and the turn pipeline."""

    host: ModelHost
    batcher: MicroBatcher
    calls: TurnServices
    turns: TurnPipeline


@dataclass
class KnowledgeServices:
    """The knowledge store and the pipeline that prechecks writes against it."""

    store: KnowledgeStore
    pipeline: KnowledgePipeline


def load_models(
    settings: Settings, host: ModelHost, observe_batch: Callable[[int, float], None] | None = None
) -> ModelServices:
    """Put the turn pipeline together around the model process `host` while its models load;
    returns once they are loaded."""
    batcher = nli_batcher(host, settings, observe_batch)
    turn_batcher = nli_batcher(host.turn_scorer, settings, observe_batch) if uses_dialogue_head(settings) else batcher
    calls = TurnServices(score=turn_batcher.score, extract_entities=host.extract, embed=host.embed)
    turns = TurnPipeline(calls, turn_settings(settings))
    host.wait_loaded()
    return ModelServices(host, batcher, calls, turns)


def local_turn_pipeline(settings: Settings) -> TurnPipeline:
    """The turn pipeline with its models loaded into this process (`replay`, tests)."""
    return TurnPipeline(turn_services(load_components(settings)), turn_settings(settings))


def open_knowledge(settings: Settings, models: ModelServices) -> KnowledgeServices:
    """Open the knowledge store in its own process (importing LanceDB takes seconds) and put
    its pipeline together, sharing the models' micro-batcher and embedder."""
    assert models.calls.embed is not None
    store = StoreProcess(settings, log_level=models.host.log_level)
    store.wait_open()
    pipeline = KnowledgePipeline(store, models.batcher.score, models.calls.embed, knowledge_settings(settings))
    return KnowledgeServices(store, pipeline)


def nli_batcher(
    scorer: PairScorer, settings: Settings, observe: Callable[[int, float], None] | None = None
) -> MicroBatcher:
    """The micro-batcher every NLI caller of a worker shares, as the settings shape it."""
    return MicroBatcher(
        scorer,
        max_batch=settings.nli_max_batch,
        max_wait_ms=settings.nli_max_wait_ms,
        sort_window=max(settings.nli_sort_window, settings.nli_max_batch),
        observe=observe,
    )


def open_store(settings: Settings) -> KnowledgeStore:
    """The configured knowledge store: LanceDB under the data dir, or Weaviate."""
    if settings.knowledge_store == "weaviate":
        if not settings.weaviate_url:
            raise BadInput("knowledge_store=weaviate needs CONTRAFLOW_WEAVIATE_URL")
        try:
            import weaviate  # noqa: F401  (an extra: the client is imported here, where a store is built)
        except ImportError:
            raise BadInput(
                "CONTRAFLOW_KNOWLEDGE_STORE=weaviate needs the Weaviate client, an extra: "
                "pip install 'contraflow[weaviate]'"
            ) from None
        from contraflow.streams.core.knowledge.weaviate import WeaviateStore

        return WeaviateStore(
            settings.weaviate_url,
            api_key=settings.weaviate_api_key.get_secret_value() if settings.weaviate_api_key else None,
        )
    from contraflow.streams.core.knowledge.lance import LanceStore

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
        sentence_threshold=settings.sentence_threshold,
        sentence_neighbours=settings.sentence_neighbours,
        sentence_detail_neighbours=settings.sentence_detail_neighbours,
        sentence_min_similarity=settings.sentence_min_similarity,
        sentence_medicine_gate=settings.sentence_medicine_gate,
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
        return await asyncio.to_thread(components.turn_scorer.score, list(pairs))

    # one thread for both: the entity extractor is not thread-safe
    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="entities")

    async def extract(text: str) -> list[str]:
        return await asyncio.get_running_loop().run_in_executor(executor, components.extractor.extract, text)

    async def embed(texts: list[str]) -> np.ndarray:
        return await asyncio.get_running_loop().run_in_executor(executor, components.embedder.embed, texts)

    return TurnServices(score=score or score_in_thread, extract_entities=extract, embed=embed)
