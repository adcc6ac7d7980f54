"""Assemble one worker: the faust app, the shared NLI micro-batcher, and every agent."""

from __future__ import annotations

import faust

from agents.turns import attach_turn_agent, topic_emitter
from streams.app import create_app
from streams.nli.batcher import MicroBatcher
from streams.services import load_components, turn_services, turn_settings
from streams.settings import Settings
from streams.turns import TurnPipeline


def build_worker(settings: Settings) -> faust.App:
    """Load the models (failing early with a clear error), then declare the agents."""
    components = load_components(settings)
    batcher = MicroBatcher(components.scorer, max_batch=settings.nli_max_batch, max_wait_ms=settings.nli_max_wait_ms)
    app = create_app(settings)
    pipeline = TurnPipeline(turn_services(components, score=batcher.score), turn_settings(settings))
    attach_turn_agent(app, pipeline, settings, topic_emitter(app))
    return app
