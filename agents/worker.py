"""Assemble one worker: the faust app and every agent its roles run. The models, then the
knowledge store, load in a thread meanwhile (agents/loading.py)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import faust

from contraflow.agents.broker_watch import attach_broker_watch
from contraflow.agents.endpoints import attach_endpoints
from contraflow.agents.knowledge import attach_knowledge_agent
from contraflow.agents.loading import Loading
from contraflow.agents.rates import attach_rate_agents
from contraflow.agents.records import topic_emitter
from contraflow.agents.resolutions import attach_resolutions_agent
from contraflow.agents.turns import attach_turn_agent
from contraflow.streams.core.metrics.rates import RateMonitor, rate_settings
from contraflow.streams.runtime.app import create_app
from contraflow.streams.runtime.model_host import ModelHost, needs_models
from contraflow.streams.runtime.observability.metrics import WorkerMetrics
from contraflow.streams.settings import Settings

if TYPE_CHECKING:
    from contraflow.streams.runtime.services import KnowledgeServices, ModelServices


def start_loading(settings: Settings, metrics: WorkerMetrics, host: ModelHost) -> list[Loading]:
    """Start putting together what the roles need while `host` loads the models in its own
    process: the turn pipeline around them, then the knowledge store (whose LanceDB import is
    slow), so that turns need not wait for the store. The services are imported here, in the
    loading thread."""

    def models() -> ModelServices:
        from contraflow.streams.runtime.services import load_models

        return load_models(settings, host, metrics.observe_nli_batch)

    loading_models = Loading(models, "the models")
    if "knowledge" not in settings.roles:
        return [loading_models]

    def knowledge() -> KnowledgeServices:
        from contraflow.streams.runtime.services import open_knowledge

        return open_knowledge(settings, loading_models.result())

    return [loading_models, Loading(knowledge, "the knowledge store")]


def build_worker(settings: Settings, host: ModelHost | None = None) -> faust.App:
    """Declare the agents of the worker's roles; their models load meanwhile, in the model
    process `host` (started here unless given: `contraflow worker` starts it first of all)."""
    metrics = WorkerMetrics(settings.metrics_label_cap)
    app = create_app(settings)
    emit = topic_emitter(app, settings, metrics)
    loading: list[Loading] = []
    if needs_models(settings):
        loading = start_loading(settings, metrics, host or ModelHost(settings))
        for part in loading:
            part.watch(app)
        models = loading[0]
        if "turns" in settings.roles:
            attach_turn_agent(app, models.part(lambda built: built.turns), settings, emit, metrics)
        if "knowledge" in settings.roles:
            knowledge = loading[1]
            attach_knowledge_agent(app, knowledge.part(lambda built: built.pipeline), settings, emit, metrics)
            attach_resolutions_agent(app, knowledge.part(lambda built: built.store), settings, emit, metrics)
    if "rates" in settings.roles:
        attach_rate_agents(app, RateMonitor(rate_settings(settings)), settings, emit, metrics)
    broker = attach_broker_watch(app, settings)
    if settings.web_enabled:
        attach_endpoints(app, metrics, broker, loading)
    announce_ready(app, settings, loading)
    return app


def announce_ready(app: faust.App, settings: Settings, loading: list[Loading]) -> None:
    """One line on the console once the app runs and its models are loaded: what an
    operator starting `contraflow worker` by hand waits for (/readyz says the same to probes)."""

    @app.task
    async def say_ready() -> None:
        for part in loading:
            await part.get()
        model = settings.nli_model if needs_models(settings) else "none"
        print(
            f"contraflow worker: ready (broker {settings.broker_url}, roles {', '.join(settings.roles)}, "
            f"NLI model {model}, verdict {settings.verdict})",
            flush=True,
        )


def run_worker(settings: Settings, host: ModelHost | None, loglevel: str) -> None:
    """Build the worker and run it until it is stopped (`contraflow worker`)."""
    app = build_worker(settings, host)
    # prints stay plain lines on stdout, not WARNING records; the start-up spinner only on a terminal
    worker = faust.Worker(app, loglevel=loglevel, quiet=True, redirect_stdouts=False)
    if not sys.stdout.isatty():
        worker.spinner = None  # its cursor codes would otherwise end up in the log file
    worker.execute_from_commandline()
