"""The resolutions agent: apply a person's verdict on a conflict to the stored entries and
emit the memory updates. Unknown conflicts and bad verdicts become dead letters."""

from __future__ import annotations

import asyncio

import faust

from agents.turns import Emit, dead_letter_for
from models.events import ResolutionVerdict
from streams.deadletters import decode_event
from streams.knowledge.resolutions import apply_verdict
from streams.knowledge.store import KnowledgeStore
from streams.settings import Settings
from topics.catalog import DEADLETTER, KNOWLEDGE_RESOLUTIONS, MEMORY_UPDATES


def attach_resolutions_agent(
    app: faust.App, store: KnowledgeStore, settings: Settings, emit: Emit
) -> faust.types.AgentT:
    source = app.topic(
        KNOWLEDGE_RESOLUTIONS.name, key_type=bytes, value_type=bytes, key_serializer="raw", value_serializer="raw"
    )

    @app.agent(source, name="contraflow.resolutions", concurrency=1)
    async def process_verdicts(stream: faust.StreamT) -> None:
        async for event in stream.events():
            message = event.message
            try:
                verdict = decode_event(event.value, ResolutionVerdict)
                updates = await asyncio.to_thread(apply_verdict, store, verdict, settings.memory_conflict_decay)
            except Exception as exc:  # every failure becomes a dead letter; the agent goes on
                letter = dead_letter_for(
                    exc, event.key, event.value, message.topic, message.partition, message.offset, settings
                )
                await emit(DEADLETTER, event.key, letter)
                continue
            for update in updates:
                await emit(MEMORY_UPDATES, update.entry_id.encode(), update)

    return process_verdicts
