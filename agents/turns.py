"""The turn agent: decode a turn, run the turn pipeline, store the session, emit.

Bad records go to the dead-letter topic and the agent carries on. Outputs are sent
before the session state is written, so a crash in between replays the turn and
re-sends the same events under the same deterministic ids.
"""

from __future__ import annotations

import faust

from agents.records import Emit, Record, attach_record_agent, json_table
from models.events import TurnEvent
from models.state import SessionState
from streams.deadletters import check_text_size, decode_event
from streams.observability.metrics import WorkerMetrics
from streams.settings import Settings
from streams.turns import TurnPipeline
from topics.catalog import ALERTS, CONFLICTS, SCORES, TURNS

SESSIONS_TABLE = "sessions"


def attach_turn_agent(
    app: faust.App, pipeline: TurnPipeline, settings: Settings, emit: Emit, metrics: WorkerMetrics | None = None
) -> faust.types.AgentT:
    """Declare the sessions table and the turn agent on `app`; returns the agent."""
    sessions = json_table(app, SESSIONS_TABLE, settings)
    if metrics is not None:
        metrics.count_sessions(lambda: len(sessions))

    async def handle(record: Record) -> None:
        turn = decode_event(record.value, TurnEvent)
        check_text_size(turn.text, settings.max_text_chars)
        stored = sessions.get(turn.session_id)
        outcome = await pipeline.process(SessionState.model_validate(stored) if stored else None, turn)
        if outcome.duplicate:
            return
        session_key = turn.session_id.encode()
        for event in outcome.conflicts:
            await emit(CONFLICTS, session_key, event)
        for event in outcome.alerts:
            await emit(ALERTS, session_key, event)
        for event in outcome.scores:
            await emit(SCORES, session_key, event)
        sessions[turn.session_id] = outcome.state.model_dump(mode="json")

    return attach_record_agent(app, TURNS, "contraflow.turns", handle, settings, emit, metrics)
