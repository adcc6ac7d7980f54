"""The resolutions agent: apply a person's verdict on a conflict to the stored entries and
emit the memory updates. Unknown conflicts and bad verdicts become dead letters."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import faust

from contraflow.agents.records import Emit, Record, attach_record_agent
from contraflow.models.events import ResolutionVerdict
from contraflow.streams.core.deadletters import decode_event
from contraflow.streams.core.knowledge.resolutions import apply_verdict
from contraflow.streams.runtime.observability.metrics import WorkerMetrics
from contraflow.streams.settings import Settings
from contraflow.topics.catalog import KNOWLEDGE_RESOLUTIONS, MEMORY_UPDATES

if TYPE_CHECKING:
    from contraflow.streams.core.knowledge.store import KnowledgeStore


def attach_resolutions_agent(
    app: faust.App,
    store: Callable[[], Awaitable[KnowledgeStore]],
    settings: Settings,
    emit: Emit,
    metrics: WorkerMetrics | None = None,
) -> faust.types.AgentT:
    async def handle(record: Record) -> None:
        verdict = decode_event(record.value, ResolutionVerdict)
        updates = await asyncio.to_thread(apply_verdict, await store(), verdict, settings.memory_conflict_decay)
        for update in updates:
            await emit(MEMORY_UPDATES, update.entry_id.encode(), update)

    return attach_record_agent(app, KNOWLEDGE_RESOLUTIONS, "contraflow.resolutions", handle, settings, emit, metrics)
