"""The knowledge agent: decode a write, run the knowledge pipeline, keep the structured
memory slots, emit conflicts and memory updates. Bad writes become dead letters.

Structured writes must be keyed by subject, so that one slot is always handled by the
worker that owns its partition (the slot table is partitioned like the input topic)."""

from __future__ import annotations

import faust

from agents.turns import Emit, dead_letter_for
from models.events import KnowledgeWrite
from streams.deadletters import InputError, check_text_size, decode_event
from streams.knowledge.memory import MemoryValue
from streams.knowledge.pipeline import KnowledgePipeline, slot_key
from streams.settings import Settings
from topics.catalog import CONFLICTS, DEADLETTER, KNOWLEDGE_WRITES, MEMORY_UPDATES

SLOTS_TABLE = "memory-slots"


def validate_write(write: KnowledgeWrite, settings: Settings) -> None:
    """Checks beyond the schema: known collection, text size."""
    if write.collection not in settings.knowledge_collections:
        raise InputError(
            "invalid", f"unknown collection {write.collection!r}; known: {', '.join(settings.knowledge_collections)}"
        )
    check_text_size(write.text, settings.max_text_chars)


def attach_knowledge_agent(
    app: faust.App, pipeline: KnowledgePipeline, settings: Settings, emit: Emit
) -> faust.types.AgentT:
    """Declare the memory-slot table and the knowledge agent on `app`."""
    source = app.topic(
        KNOWLEDGE_WRITES.name, key_type=bytes, value_type=bytes, key_serializer="raw", value_serializer="raw"
    )
    slots = app.Table(
        SLOTS_TABLE,
        default=None,
        partitions=settings.topic_partitions,
        schema=faust.Schema(key_serializer="orjson", value_serializer="orjson"),
    )

    async def handle(key: bytes | None, raw: bytes | None, topic: str, partition: int, offset: int) -> None:
        try:
            write = decode_event(raw, KnowledgeWrite)
            validate_write(write, settings)
            slot_id = slot_key(write.tenant, write.subject, write.predicate) if write.structured else None  # type: ignore[arg-type]
            stored = slots.get(slot_id) if slot_id else None
            outcome = await pipeline.process(write, MemoryValue.model_validate(stored) if stored else None)
        except Exception as exc:  # every failure becomes a dead letter; the agent goes on
            await emit(DEADLETTER, key, dead_letter_for(exc, key, raw, topic, partition, offset, settings))
            return
        out_key = (write.subject or write.entry_id).encode()
        for event in outcome.conflicts:
            await emit(CONFLICTS, out_key, event)
        for event in outcome.updates:
            await emit(MEMORY_UPDATES, event.entry_id.encode(), event)
        if slot_id and outcome.slot_value is not None:
            slots[slot_id] = outcome.slot_value.model_dump(mode="json")

    @app.agent(source, name="contraflow.knowledge", concurrency=1)
    async def process_writes(stream: faust.StreamT) -> None:
        async for event in stream.events():
            message = event.message
            await handle(event.key, event.value, message.topic, message.partition, message.offset)

    return process_writes
