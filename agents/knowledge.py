"""The knowledge agent: decode a write, run the knowledge pipeline, keep the structured
memory slots, emit conflicts and memory updates. Bad writes become dead letters.

Structured writes must be keyed by subject, so that one slot is always handled by the
worker that owns its partition (the slot table is partitioned like the input topic)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import faust

from contraflow.agents.records import Emit, Record, attach_record_agent, json_table
from contraflow.models.events import KnowledgeWrite
from contraflow.streams.core.deadletters import InputError, check_text_size, decode_event
from contraflow.streams.core.knowledge.memory import MemoryValue, slot_of
from contraflow.streams.runtime.observability.metrics import WorkerMetrics
from contraflow.streams.settings import Settings
from contraflow.topics.catalog import CONFLICTS, KNOWLEDGE_WRITES, MEMORY_UPDATES, SLOTS_TABLE

if TYPE_CHECKING:
    from contraflow.streams.core.knowledge.pipeline import KnowledgePipeline


def validate_write(write: KnowledgeWrite, settings: Settings) -> None:
    """Checks beyond the schema: known collection, text size."""
    if write.collection not in settings.knowledge_collections:
        raise InputError(
            "invalid", f"unknown collection {write.collection!r}; known: {', '.join(settings.knowledge_collections)}"
        )
    check_text_size(write.text, settings.max_text_chars)


def attach_knowledge_agent(
    app: faust.App,
    pipeline: Callable[[], Awaitable[KnowledgePipeline]],
    settings: Settings,
    emit: Emit,
    metrics: WorkerMetrics | None = None,
) -> faust.types.AgentT:
    """Declare the memory-slot table and the knowledge agent on `app`; `pipeline()` gives the
    knowledge pipeline once it is loaded."""
    slots = json_table(app, SLOTS_TABLE, settings)

    async def handle(record: Record) -> None:
        write = decode_event(record.value, KnowledgeWrite)
        validate_write(write, settings)
        slot_id = slot_of(write)
        stored = slots.get(slot_id) if slot_id else None
        outcome = await (await pipeline()).process(write, MemoryValue.model_validate(stored) if stored else None)
        out_key = (write.subject or write.entry_id).encode()
        for event in outcome.conflicts:
            await emit(CONFLICTS, out_key, event)
        if metrics is not None:
            metrics.verdicts.conflict_events(outcome.conflicts)
        for event in outcome.updates:
            await emit(MEMORY_UPDATES, event.entry_id.encode(), event)
        if slot_id and outcome.slot_value is not None:
            slots[slot_id] = outcome.slot_value.model_dump(mode="json")

    return attach_record_agent(app, KNOWLEDGE_WRITES, "contraflow.knowledge", handle, settings, emit, metrics)
