"""Assemble one worker: the faust app, the shared NLI micro-batcher, and every agent."""

from __future__ import annotations

import faust

from agents.broker_watch import attach_broker_watch
from agents.endpoints import attach_endpoints
from agents.knowledge import attach_knowledge_agent
from agents.rates import attach_rate_agents
from agents.records import topic_emitter
from agents.resolutions import attach_resolutions_agent
from agents.turns import attach_turn_agent
from streams.app import create_app
from streams.knowledge.pipeline import KnowledgePipeline
from streams.metrics.rates import RateMonitor
from streams.observability.metrics import WorkerMetrics
from streams.services import (
    knowledge_settings,
    load_components,
    nli_batcher,
    open_store,
    rate_settings,
    turn_services,
    turn_settings,
)
from streams.settings import Settings
from streams.turns import TurnPipeline


def build_worker(settings: Settings) -> faust.App:
    """Load the models its roles need (failing early with a clear error), then declare the agents."""
    metrics = WorkerMetrics()
    app = create_app(settings)
    emit = topic_emitter(app, settings, metrics)
    if "turns" in settings.roles or "knowledge" in settings.roles:
        components = load_components(settings)
        batcher = nli_batcher(components, settings, metrics.observe_nli_batch)
        services = turn_services(components, score=batcher.score)
        if "turns" in settings.roles:
            attach_turn_agent(app, TurnPipeline(services, turn_settings(settings)), settings, emit, metrics)
        if "knowledge" in settings.roles:
            assert services.embed is not None
            store = open_store(settings)
            knowledge = KnowledgePipeline(store, batcher.score, services.embed, knowledge_settings(settings))
            attach_knowledge_agent(app, knowledge, settings, emit, metrics)
            attach_resolutions_agent(app, store, settings, emit, metrics)
    if "rates" in settings.roles:
        attach_rate_agents(app, RateMonitor(rate_settings(settings)), settings, emit, metrics)
    broker = attach_broker_watch(app, settings)
    if settings.web_enabled:
        attach_endpoints(app, metrics, broker)
    return app
