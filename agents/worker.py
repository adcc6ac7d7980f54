"""Assemble one worker: the faust app, the shared NLI micro-batcher, and every agent."""

from __future__ import annotations

import faust

from agents.turns import attach_turn_agent, topic_emitter
from streams.app import create_app
from streams.nli.batcher import MicroBatcher
from streams.nli.scorer import load_scorer
from streams.settings import Settings
from streams.turns import TurnPipeline, TurnSettings


def turn_settings(settings: Settings) -> TurnSettings:
    return TurnSettings(
        stride=settings.stride,
        caution=settings.k_conflict_caution,
        failure=settings.k_conflict_failure,
        advice_history=settings.advice_history,
        dedup_window=settings.dedup_window,
    )


def build_worker(settings: Settings) -> faust.App:
    """Load the model (failing early with a clear error), then declare the agents."""
    scorer = load_scorer(
        settings.nli_model_path,
        settings.nli_backend,
        max_length=settings.nli_max_length,
        batch_size=settings.nli_max_batch,
        threads=settings.nli_threads,
    )
    batcher = MicroBatcher(scorer, max_batch=settings.nli_max_batch, max_wait_ms=settings.nli_max_wait_ms)
    app = create_app(settings)
    attach_turn_agent(app, TurnPipeline(batcher.score, turn_settings(settings)), settings, topic_emitter(app))
    return app
