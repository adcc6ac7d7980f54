"""The turn agent: decode a turn, run the turn pipeline, emit, store the session.

Bad records go to the dead-letter topic and the agent carries on. Outputs are sent, and
acknowledged by the broker, before the session is written, so a crash in between replays
the turn and re-sends the same events under the same deterministic ids. When the crash
came after the write, the replayed record finds its outputs kept with the session and
sends them again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import faust

from contraflow.agents.records import Emit, Record, attach_record_agent, json_table
from contraflow.models.events import TurnEvent
from contraflow.models.replay import StoredSession, TurnOutputs
from contraflow.streams.core.deadletters import check_text_size, decode_event
from contraflow.streams.runtime.observability.metrics import WorkerMetrics
from contraflow.streams.settings import Settings
from contraflow.topics.catalog import ALERTS, CONFLICTS, SCORES, SESSIONS_TABLE, TURNS

if TYPE_CHECKING:
    from contraflow.streams.core.turns import TurnPipeline


async def send_outputs(emit: Emit, session_id: str, outputs: TurnOutputs) -> None:
    key = session_id.encode()
    for event in outputs.conflicts:
        await emit(CONFLICTS, key, event)
    for event in outputs.alerts:
        await emit(ALERTS, key, event)
    for event in outputs.scores:
        await emit(SCORES, key, event)


def attach_turn_agent(
    app: faust.App,
    pipeline: Callable[[], Awaitable[TurnPipeline]],
    settings: Settings,
    emit: Emit,
    metrics: WorkerMetrics | None = None,
) -> faust.types.AgentT:
    """Declare the sessions table and the turn agent on `app`; returns the agent. `pipeline()`
    gives the turn pipeline once it is loaded (agents/loading.py)."""
    sessions = json_table(app, SESSIONS_TABLE, settings)
    if metrics is not None:
        metrics.count_sessions(lambda: len(sessions))
        metrics.verdicts.watch_sessions(lambda: sessions)

    async def handle(record: Record) -> None:
        turn = decode_event(record.value, TurnEvent)
        check_text_size(turn.text, settings.max_text_chars)
        raw = sessions.get(turn.session_id)
        stored = StoredSession.load(raw) if raw else None
        outcome = await (await pipeline()).process(stored.state if stored else None, turn)
        if outcome.duplicate:
            replayed = stored.outputs_of(record.partition, record.offset) if stored else None
            if replayed is not None:  # this very record again (a replay after a crash): same outputs, same ids
                await send_outputs(emit, turn.session_id, replayed)
            return
        outputs = TurnOutputs(
            partition=record.partition,
            offset=record.offset,
            conflicts=outcome.conflicts,
            alerts=outcome.alerts,
            scores=outcome.scores,
        )
        await send_outputs(emit, turn.session_id, outputs)
        if metrics is not None:
            metrics.verdicts.turn_outputs(outputs.scores, outputs.conflicts)
        kept = stored.recent_outputs if stored else []
        if settings.replay_turns and (outputs.conflicts or outputs.alerts or outputs.scores):
            kept = [*kept, outputs][-settings.replay_turns :]
        value = StoredSession(state=outcome.state, recent_outputs=kept)
        sessions[turn.session_id] = value.model_dump(mode="json")

    return attach_record_agent(app, TURNS, "contraflow.turns", handle, settings, emit, metrics)
