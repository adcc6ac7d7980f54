"""Assemble one worker: the faust app, the shared NLI micro-batcher, and every agent."""

from __future__ import annotations

import faust

from agents.knowledge import attach_knowledge_agent
from agents.resolutions import attach_resolutions_agent
from agents.turns import attach_turn_agent, topic_emitter
from streams.app import create_app
from streams.knowledge.pipeline import KnowledgePipeline
from streams.nli.batcher import MicroBatcher
from streams.services import knowledge_settings, load_components, open_store, turn_services, turn_settings
from streams.settings import Settings
from streams.turns import TurnPipeline


def build_worker(settings: Settings) -> faust.App:
    """Load the models (failing early with a clear error), then declare the agents."""
    components = load_components(settings)
    batcher = MicroBatcher(
        components.scorer,
        max_batch=settings.nli_max_batch,
        max_wait_ms=settings.nli_max_wait_ms,
        sort_window=max(settings.nli_sort_window, settings.nli_max_batch),
    )
    app = create_app(settings)
    services = turn_services(components, score=batcher.score)
    emit = topic_emitter(app)
    attach_turn_agent(app, TurnPipeline(services, turn_settings(settings)), settings, emit)
    assert services.embed is not None
    store = open_store(settings)
    knowledge = KnowledgePipeline(store, batcher.score, services.embed, knowledge_settings(settings))
    attach_knowledge_agent(app, knowledge, settings, emit)
    attach_resolutions_agent(app, store, settings, emit)
    return app
