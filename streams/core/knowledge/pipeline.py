"""The knowledge-write pipeline: plain Python, no faust (seeds 001 and 004).

For each write, before it is stored (informational: it never blocks the write):
1. structured memory (subject, predicate, object_value): seed 004's resolution against the
   slot's current value; the loser decays; memory updates for every changed entry;
2. free text: the top-k similar stored entries of the tenant (hybrid search) about the same
   thing, both NLI directions in one call, the pairs over the sensitivity threshold
   classified with seed 001's taxonomy (`report.py`), a conflict report stored;
3. the entry is stored with its status and confidence.

A write becomes one `KnowledgeEntry` (and, when structured, one `MemoryValue`); the
resolution changes the entry's status and confidence, the precheck adds its vector.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import numpy as np

from contraflow.models.events import Claim, ConflictEvent, KnowledgeWrite, MemoryUpdate
from contraflow.models.ids import stable_id
from contraflow.streams.core.calls import EmbedFn, ScoreFn
from contraflow.streams.core.knowledge.memory import MemoryDecision, MemoryPolicy, MemoryValue, resolve
from contraflow.streams.core.knowledge.report import ConflictReport, build_report, knowledge_conflict_events
from contraflow.streams.core.knowledge.resolutions import conflict_record
from contraflow.streams.core.knowledge.search import embed_and_search, related, score_pairs
from contraflow.streams.core.knowledge.store import ConflictReportRecord, KnowledgeEntry, KnowledgeStore
from contraflow.streams.core.verdict import claim_of
from contraflow.streams.settings import default

SENSITIVITIES = ("strict", "balanced", "lenient")


@dataclass(frozen=True)
class KnowledgeSettings:
    """The knowledge pipeline's settings; the defaults are those of `Settings`."""

    collections: tuple[str, ...] = tuple(default("knowledge_collections"))
    top_k: int = default("knowledge_top_k")
    sensitivity: str = default("knowledge_sensitivity")
    thresholds: dict[str, float] = field(
        default_factory=lambda: {name: default(f"sensitivity_{name}") for name in SENSITIVITIES}
    )
    policy: MemoryPolicy = field(default_factory=MemoryPolicy)
    topic_similarity: float = default("topic_similarity")

    @property
    def threshold(self) -> float:
        return self.thresholds[self.sensitivity]


@dataclass
class KnowledgeOutcome:
    conflicts: list[ConflictEvent] = field(default_factory=list)
    updates: list[MemoryUpdate] = field(default_factory=list)
    report: ConflictReport | None = None
    slot_value: MemoryValue | None = None


def entry_of(write: KnowledgeWrite) -> KnowledgeEntry:
    """The entry a write becomes (active, at the write's confidence, no vector yet)."""
    return KnowledgeEntry(**write.model_dump(exclude={"reinforcement_count"}))


def memory_value_of(write: KnowledgeWrite) -> MemoryValue:
    """The slot value a structured write proposes."""
    assert write.structured
    return MemoryValue(**write.model_dump(exclude={"collection", "text", "source_tool"}))


class KnowledgePipeline:
    """Prechecks and stores knowledge writes; NLI through `score`, vectors through `embed`."""

    def __init__(self, store: KnowledgeStore, score: ScoreFn, embed: EmbedFn, settings: KnowledgeSettings) -> None:
        self.store = store
        self.score = score
        self.embed = embed
        self.settings = settings

    async def process(self, write: KnowledgeWrite, slot: MemoryValue | None) -> KnowledgeOutcome:
        """Everything one write does; `slot` is the current value of its structured slot."""
        outcome = KnowledgeOutcome()
        entry = entry_of(write)
        if write.structured:
            proposed = memory_value_of(write)
            decision = resolve(slot, proposed, self.settings.policy)
            outcome.slot_value = decision.current
            self._apply_memory(decision, slot, proposed, write.collection, outcome)
            for value in decision.updated:
                if value.entry_id == entry.entry_id:
                    entry.status, entry.confidence = value.status, value.confidence
                    entry.reinforcement_count = value.reinforcement_count
                else:
                    await asyncio.to_thread(self.store.update_status, value.entry_id, value.status, value.confidence)
            if decision.strategy == "reinforce":
                return outcome  # the write is folded into the existing entry (no conflict to record)
        vector, outcome.report = await self.precheck(entry)
        if outcome.report is not None and outcome.report.conflicts:
            outcome.conflicts.extend(knowledge_conflict_events(outcome.report, write.tenant, write.created_at))
            await asyncio.to_thread(self.store.save_report, _record(outcome.report, entry))
        entry.vector = [float(x) for x in vector]
        await asyncio.to_thread(self.store.upsert, [entry])
        for event in outcome.conflicts:
            await asyncio.to_thread(self.store.save_report, conflict_record(event))
        return outcome

    async def precheck(self, entry: KnowledgeEntry) -> tuple[np.ndarray, ConflictReport | None]:
        """The entry's vector and the report over the most similar stored entries about the
        same thing (None when there is none): what a write is checked against before it is
        stored."""
        vector, found = await embed_and_search(
            self.store, self.embed, entry.text, tenant=entry.tenant, collections=None, limit=self.settings.top_k
        )
        claim = claim_of(entry.text)
        stored = [
            h.entry
            for h in found
            if h.entry.entry_id != entry.entry_id
            and related(
                h.entry.subject,
                claim_of(h.entry.text),
                entry.subject,
                claim,
                self.settings.topic_similarity,
                h.vector_similarity,
            )
        ]
        if not stored:
            return vector, None
        scored = await score_pairs([(old, entry) for old in stored], self.score)
        return vector, build_report(
            entry.text, scored, len(stored) + 1, self.settings.sensitivity, self.settings.threshold
        )

    @staticmethod
    def _apply_memory(
        decision: MemoryDecision,
        slot: MemoryValue | None,
        proposed: MemoryValue,
        collection: str,
        outcome: KnowledgeOutcome,
    ) -> None:
        conflict_id = None
        if decision.conflict and slot is not None:
            conflict_id = stable_id("conflict", "memory", slot.entry_id, proposed.entry_id)
            outcome.conflicts.append(
                ConflictEvent(
                    conflict_id=conflict_id,
                    kind="memory",
                    scope="store",
                    tenant=proposed.tenant,
                    claim_a=_claim(slot),
                    claim_b=_claim(proposed),
                    conflict_type=decision.conflict_type or "value_mismatch",
                    severity="high" if decision.conflict_type == "memory_vs_db" else "medium",
                    resolution=decision.to_resolution(),
                    detected_at=proposed.created_at,
                )
            )
        before = {v.entry_id: v for v in (slot, proposed) if v is not None}
        for value in decision.updated:
            previous = before.get(value.entry_id)
            if value.entry_id == proposed.entry_id and previous == proposed and value.status == "active":
                continue  # a plain new entry is not an update
            outcome.updates.append(
                MemoryUpdate(
                    update_id=stable_id(
                        "update", value.entry_id, conflict_id, value.status, value.confidence, value.reinforcement_count
                    ),
                    entry_id=value.entry_id,
                    tenant=value.tenant,
                    collection=collection,
                    subject=value.subject,
                    predicate=value.predicate,
                    object_value=value.object_value,
                    previous_status=previous.status if previous else "active",
                    status=value.status,
                    previous_confidence=previous.confidence if previous else value.confidence,
                    confidence=value.confidence,
                    reinforcement_count=value.reinforcement_count,
                    conflict_id=conflict_id,
                    reason=f"{decision.strategy}: {decision.rationale}",
                    ts=proposed.created_at,
                )
            )


def _claim(value: MemoryValue) -> Claim:
    return Claim(
        text=f"{value.subject} {value.predicate}: {value.object_value}", source=value.source, entry_id=value.entry_id
    )


def _record(report: ConflictReport, entry: KnowledgeEntry) -> ConflictReportRecord:
    return ConflictReportRecord(
        report_id=report.report_id,
        topic=report.topic,
        entry_id=entry.entry_id,
        tenant=entry.tenant,
        created_at=entry.created_at,
        payload=report.model_dump_json(),
    )
