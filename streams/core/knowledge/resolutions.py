"""A person's verdict on a conflict (`contraflow.knowledge.resolutions`), applied to the
stored entries: the loser of a_correct / b_correct is superseded and decayed (× the
conflict decay), both_valid and context_dependent make both active again. The verdict is
kept on the conflict's stored record; every changed entry yields a memory update."""

from __future__ import annotations

from contraflow.models.events import ConflictEvent, MemoryUpdate, ResolutionVerdict
from contraflow.models.ids import stable_id
from contraflow.streams.core.deadletters import InputError
from contraflow.streams.core.knowledge.store import ConflictReportRecord, KnowledgeEntry, KnowledgeStore

CONFLICT_RECORD_PREFIX = "conflict:"


def conflict_record(event: ConflictEvent) -> ConflictReportRecord:
    """How a conflict is kept in the store, so that a verdict can find its entries later."""
    return ConflictReportRecord(
        report_id=CONFLICT_RECORD_PREFIX + event.conflict_id,
        topic=event.claim_b.text,
        entry_id=event.claim_b.entry_id,
        tenant=event.tenant,
        created_at=event.detected_at,
        payload={"conflict": event.model_dump(mode="json")},
    )


def _target_states(verdict: str, decay: float, a: KnowledgeEntry, b: KnowledgeEntry) -> dict[str, tuple[str, float]]:
    if verdict == "a_correct":
        return {a.entry_id: ("active", a.confidence), b.entry_id: ("superseded", b.confidence * decay)}
    if verdict == "b_correct":
        return {a.entry_id: ("superseded", a.confidence * decay), b.entry_id: ("active", b.confidence)}
    return {a.entry_id: ("active", a.confidence), b.entry_id: ("active", b.confidence)}


def apply_verdict(store: KnowledgeStore, verdict: ResolutionVerdict, decay: float = 0.5) -> list[MemoryUpdate]:
    """Apply a verdict to the store; the memory updates it caused. A verdict repeated
    changes nothing more (the entries already have their target states)."""
    record = store.get_report(CONFLICT_RECORD_PREFIX + verdict.conflict_id)
    if record is None:
        raise InputError("invalid", f"unknown conflict_id {verdict.conflict_id!r}")
    conflict = ConflictEvent.model_validate(record.payload["conflict"])
    entries = [store.get(claim.entry_id) for claim in (conflict.claim_a, conflict.claim_b) if claim.entry_id]
    if len(entries) != 2 or None in entries:
        raise InputError("invalid", f"conflict {verdict.conflict_id!r} refers to entries that are not stored")
    a, b = entries  # type: ignore[misc]
    assert a is not None and b is not None
    if record.payload.get("verdict"):
        return []
    updates = []
    for entry in (a, b):
        status, confidence = _target_states(verdict.verdict, decay, a, b)[entry.entry_id]
        if (status, confidence) == (entry.status, entry.confidence):
            continue
        store.update_status(entry.entry_id, status, confidence)
        updates.append(
            MemoryUpdate(
                update_id=stable_id("update", entry.entry_id, verdict.conflict_id, verdict.verdict),
                entry_id=entry.entry_id,
                tenant=entry.tenant,
                collection=entry.collection,
                subject=entry.subject,
                predicate=entry.predicate,
                object_value=entry.object_value,
                previous_status=entry.status,
                status=status,
                previous_confidence=entry.confidence,
                confidence=confidence,
                reinforcement_count=entry.reinforcement_count,
                conflict_id=verdict.conflict_id,
                reason=f"verdict {verdict.verdict}: {verdict.explanation}".rstrip(": "),
                ts=verdict.ts,
            )
        )
    store.save_report(
        record.model_copy(
            update={
                "payload": {"conflict": conflict.model_dump(mode="json"), "verdict": verdict.model_dump(mode="json")}
            }
        )
    )
    return updates
