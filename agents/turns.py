"""The turn agent: decode a turn, run the turn pipeline, store the session, emit.

Bad records go to the dead-letter topic and the agent carries on. Outputs are sent
before the session state is written, so a crash in between replays the turn and
re-sends the same events under the same deterministic ids.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import faust
from pydantic import BaseModel

from models.events import DeadLetter, TurnEvent
from models.state import SessionState
from streams.deadletters import InputError, check_text_size, dead_letter, decode_event
from streams.settings import Settings
from streams.turns import TurnPipeline
from topics.catalog import ALERTS, CONFLICTS, DEADLETTER, SCORES, TURNS, TopicSpec

Emit = Callable[[TopicSpec, bytes | None, BaseModel], Awaitable[None]]

SESSIONS_TABLE = "sessions"


def topic_emitter(app: faust.App) -> Emit:
    """Send events to their faust topics (declared once, reused)."""
    topics: dict[str, faust.TopicT] = {}

    async def emit(spec: TopicSpec, key: bytes | None, event: BaseModel) -> None:
        topic = topics.get(spec.name)
        if topic is None:
            topic = topics[spec.name] = app.topic(spec.name, key_serializer="raw", value_serializer="orjson")
        await topic.send(key=key, value=event)

    return emit


def dead_letter_for(
    exc: Exception, key: bytes | None, raw: bytes | None, topic: str, partition: int, offset: int, settings: Settings
) -> DeadLetter:
    """The dead letter of an input record that raised `exc`."""
    kind = exc.kind if isinstance(exc, InputError) else "processing"
    return dead_letter(
        topic=topic,
        partition=partition,
        offset=offset,
        key=key,
        raw=raw,
        kind=kind,
        error=f"{type(exc).__name__}: {exc}" if kind == "processing" else str(exc),
        max_bytes=settings.deadletter_max_bytes,
    )


def attach_turn_agent(app: faust.App, pipeline: TurnPipeline, settings: Settings, emit: Emit) -> faust.types.AgentT:
    """Declare the sessions table and the turn agent on `app`; returns the agent."""
    source = app.topic(TURNS.name, key_type=bytes, value_type=bytes, key_serializer="raw", value_serializer="raw")
    sessions = app.Table(
        SESSIONS_TABLE,
        default=None,
        partitions=settings.topic_partitions,
        schema=faust.Schema(key_serializer="orjson", value_serializer="orjson"),
    )

    async def handle(key: bytes | None, raw: bytes | None, topic: str, partition: int, offset: int) -> None:
        try:
            turn = decode_event(raw, TurnEvent)
            check_text_size(turn.text, settings.max_text_chars)
            stored = sessions.get(turn.session_id)
            state = SessionState.model_validate(stored) if stored else None
            outcome = await pipeline.process(state, turn)
        except Exception as exc:  # every failure becomes a dead letter; the agent goes on
            await emit(DEADLETTER, key, dead_letter_for(exc, key, raw, topic, partition, offset, settings))
            return
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

    @app.agent(source, name="contraflow.turns", concurrency=1)
    async def process_turns(stream: faust.StreamT) -> None:
        async for event in stream.events():
            message = event.message
            await handle(event.key, event.value, message.topic, message.partition, message.offset)

    return process_turns
