"""Structured-memory conflict resolution (seed 004), as plain functions over pydantic models.

`resolve(existing, new, policy)` decides what happens when a write `new` arrives for the slot
(tenant, subject, predicate) whose current stored value is `existing`:

1. no existing value: the new one is stored and current (strategy/action ``replace``, no conflict);
2. equal value (case-insensitive, stripped): ``reinforce`` — the existing entry's reinforcement count
   goes up by one and its confidence becomes the max of both (a corroboration never lowers it);
   the incoming write is folded into the existing entry and not stored separately;
3. existing confidence below ``min_confidence_for_conflict``: ``replace`` — the old value is superseded,
   no conflict is raised;
4. otherwise a conflict, resolved by the seed's decision tree, first match wins:
   (1) ``memory_vs_db``: trust the database, the memory/tool side is conflicted and decayed (× 0.5);
   (2) created more than ``temporal_days`` apart: ``keep_newest``, the older one superseded (``temporal``);
   (3) confidence gap > ``confidence_gap``: ``keep_highest_confidence``, loser conflicted and × 0.8;
   (4) reinforcement gap ≥ ``reinforcement_gap``: ``keep_most_reinforced``, loser conflicted and × 0.5;
   (5) ``ask_user``.

Choices beyond the seed's literal text:

* Reconciling Example 2. The seed's Example 2 (Thursday 0.75/1×/Oct 1 vs Friday 0.85/2×/Oct 10) expects
  Friday kept and Thursday superseded, yet passes none of the tree's thresholds (9 days, gap 0.10,
  reinforcement gap 1). So before falling through to ask_user, when the newer value is also strictly
  more confident AND strictly more reinforced (every signal agrees), it is kept: ``keep_newest`` /
  ``supersede_old`` with conflict type ``value_mismatch``. Example 3 (a tie in reinforcement) still asks.
* Strategy 4's loser is decayed by ``conflict_decay`` (× 0.5): the seed's snippet only sets its status,
  but its action is ``decay_lower`` and the configuration defines the decay as applying on conflict.
* ask_user leaves the existing value current and unchanged (it was stable until now and nothing has been
  decided against it); the incoming value is kept, stored with status ``conflicted`` and its confidence
  untouched, until the user picks one. Neither side is decayed before the answer.
* The database is never displaced by memory: the low-confidence replace shortcut does not apply to an
  existing ``db`` value. Two ``db`` values are not a conflict but the record changing: the later
  created one is current, the other superseded (``replace``).
* ``keep_newest`` works on ``created_at``, not on arrival order: an out-of-order older write loses.
  Naive datetimes are taken as UTC.
* Thresholds compare and decay in decimal on the floats' shortest repr, so a gap of exactly 0.2 is
  not > 0.2 (0.8 - 0.6 in binary floats is 0.20000000000000007) and 0.75 × 0.8 is 0.6, not
  0.6000000000000001.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field

from contraflow.models.events import KnowledgeWrite, Resolution
from contraflow.streams.settings import default

Source = Literal["memory", "db", "tool"]
Status = Literal["active", "conflicted", "superseded"]
ConflictType = Literal["memory_vs_db", "value_mismatch", "temporal"]
Strategy = Literal[
    "trust_db", "keep_newest", "keep_highest_confidence", "keep_most_reinforced", "ask_user", "replace", "reinforce"
]
Action = Literal["decay_memory", "supersede_old", "decay_lower", "ask_user", "replace", "reinforce"]

TRUST_DB_RATIONALE = "Database is the authoritative source of truth. Memory has been marked for decay."


class MemoryPolicy(BaseModel):
    """Tunable thresholds (seed 004's `src/config/heuristics.py`)."""

    model_config = ConfigDict(frozen=True)

    temporal_days: int = Field(
        default("memory_temporal_days"), ge=0, description="created more than this many days apart: keep the newest"
    )
    confidence_gap: float = Field(
        default("memory_confidence_gap"), ge=0, le=1, description="confidence gap above this: keep the higher"
    )
    reinforcement_gap: int = Field(
        default("memory_reinforcement_gap"),
        ge=1,
        description="reinforcement gap at or above this: keep the most reinforced",
    )
    min_confidence_for_conflict: float = Field(
        default("memory_min_confidence"), ge=0, le=1, description="existing below this: just replace"
    )
    conflict_decay: float = Field(
        default("memory_conflict_decay"), ge=0, le=1, description="confidence factor of a conflicted memory"
    )
    lower_confidence_decay: float = Field(
        default("memory_lower_decay"), ge=0, le=1, description="confidence factor of the less confident"
    )


DEFAULT_POLICY = MemoryPolicy()


class MemoryValue(BaseModel):
    """One stored value of a (tenant, subject, predicate) slot."""

    model_config = ConfigDict(frozen=True)

    tenant: str | None = None
    subject: str = Field(min_length=1)
    predicate: str = Field(min_length=1)
    object_value: str
    confidence: float = Field(ge=0, le=1)
    reinforcement_count: int = Field(1, ge=1)
    created_at: datetime
    source: Source
    entry_id: str = Field(min_length=1)
    status: Status = "active"


class MemoryDecision(BaseModel):
    """What `resolve` decided: the seed's ConflictResolution plus the resulting store state."""

    conflict_type: ConflictType | None = Field(None, description="None when the write raised no conflict")
    strategy: Strategy
    chosen_value: str | None = Field(description="the value now current; None when the user must choose")
    action: Action
    rationale: str
    options: list[str] = Field(default_factory=list, description="the competing values (ask_user only)")
    prompt: str | None = Field(None, description="the question for the user (ask_user only)")
    current: MemoryValue | None = Field(description="the value reads of the slot return now")
    updated: list[MemoryValue] = Field(
        default_factory=list, description="every value whose stored state differs from the input, as it is now"
    )

    @computed_field  # type: ignore[prop-decorator]
    @property
    def conflict(self) -> bool:
        """Whether the write contradicted the stored value (a conflict event should be emitted)."""
        return self.conflict_type is not None

    def to_resolution(self) -> Resolution:
        """The decision as the `Resolution` of a `ConflictEvent`."""
        return Resolution(
            strategy=self.strategy, chosen_value=self.chosen_value, action=self.action, rationale=self.rationale
        )


def resolve(existing: MemoryValue | None, new: MemoryValue, policy: MemoryPolicy = DEFAULT_POLICY) -> MemoryDecision:
    """Resolve the write `new` against `existing`, the current stored value of its slot (or None)."""
    if existing is None:
        return _decision("replace", "replace", new, new, [], "No stored value; the new value is stored.")
    if (existing.tenant, existing.subject, existing.predicate) != (new.tenant, new.subject, new.predicate):
        raise ValueError("existing and new belong to different (tenant, subject, predicate) slots")
    if _normalise(existing.object_value) == _normalise(new.object_value):
        return _reinforce(existing, new)
    if existing.source == "db" and new.source == "db":
        winner, loser = _newer(new, existing)
        rationale = "The database record changed; the later database value replaces the earlier."
        return _decision("replace", "replace", winner, winner, [_with(loser, "superseded")], rationale)
    if existing.source != "db" and existing.confidence < policy.min_confidence_for_conflict:
        rationale = f"Stored confidence {existing.confidence:.2f} is below {policy.min_confidence_for_conflict:.2f}."
        return _decision("replace", "replace", new, new, [_with(existing, "superseded")], rationale)
    return _resolve_conflict(existing, new, policy)


def _resolve_conflict(existing: MemoryValue, new: MemoryValue, policy: MemoryPolicy) -> MemoryDecision:
    """The seed's decision tree for two different values, first match wins."""
    if "db" in (existing.source, new.source):
        db, memory = (existing, new) if existing.source == "db" else (new, existing)
        loser = _with(memory, "conflicted", policy.conflict_decay)
        return _decision("trust_db", "decay_memory", db, db, [loser], TRUST_DB_RATIONALE, "memory_vs_db")

    newer, older = _newer(new, existing)
    if abs(_utc(newer.created_at) - _utc(older.created_at)) > timedelta(days=policy.temporal_days):
        rationale = f"More recent information (created more than {policy.temporal_days} days later)."
        updated = [_with(older, "superseded")]
        return _decision("keep_newest", "supersede_old", newer, newer, updated, rationale, "temporal")

    if _confidence_gap(existing, new) > _dec(policy.confidence_gap):
        winner, loser = (existing, new) if existing.confidence > new.confidence else (new, existing)
        rationale = f"Higher confidence ({winner.confidence:.2f} vs {loser.confidence:.2f})."
        updated = [_with(loser, "conflicted", policy.lower_confidence_decay)]
        return _decision("keep_highest_confidence", "decay_lower", winner, winner, updated, rationale, "value_mismatch")

    if abs(existing.reinforcement_count - new.reinforcement_count) >= policy.reinforcement_gap:
        winner, loser = (existing, new) if existing.reinforcement_count > new.reinforcement_count else (new, existing)
        rationale = f"More reinforced ({winner.reinforcement_count} vs {loser.reinforcement_count})."
        updated = [_with(loser, "conflicted", policy.conflict_decay)]
        return _decision("keep_most_reinforced", "decay_lower", winner, winner, updated, rationale, "value_mismatch")

    if (
        _utc(newer.created_at) != _utc(older.created_at)
        and newer.confidence > older.confidence
        and newer.reinforcement_count > older.reinforcement_count
    ):
        rationale = "Newer, more confident and more reinforced: every signal agrees."
        updated = [_with(older, "superseded")]
        return _decision("keep_newest", "supersede_old", newer, newer, updated, rationale, "value_mismatch")

    return MemoryDecision(
        conflict_type="value_mismatch",
        strategy="ask_user",
        chosen_value=None,
        action="ask_user",
        rationale="Ambiguous conflict - need user input. The stored value stays current until the user chooses.",
        options=[existing.object_value, new.object_value],
        prompt=f"We have conflicting information: '{existing.object_value}' vs '{new.object_value}'. Which is correct?",
        current=existing,
        updated=[_with(new, "conflicted")],
    )


def transparent_report(decision: MemoryDecision, existing: MemoryValue, new: MemoryValue) -> dict[str, object]:
    """One entry of the seed's `conflicts_detected` list; confidences are those before the decision."""
    if decision.conflict_type is None:
        raise ValueError(f"no conflict to report (strategy {decision.strategy})")
    return {
        "conflict_type": decision.conflict_type,
        "subject": new.subject,
        "predicate": new.predicate,
        "existing_value": existing.object_value,
        "new_value": new.object_value,
        "existing_confidence": existing.confidence,
        "new_confidence": new.confidence,
        "resolution_strategy": decision.strategy,
        "explanation": decision.rationale,
    }


def _reinforce(existing: MemoryValue, new: MemoryValue) -> MemoryDecision:
    reinforced = existing.model_copy(
        update={
            "reinforcement_count": existing.reinforcement_count + 1,
            "confidence": max(existing.confidence, new.confidence),
        }
    )
    rationale = f"Same value confirmed (reinforced {reinforced.reinforcement_count} times)."
    return _decision("reinforce", "reinforce", reinforced, reinforced, [reinforced], rationale)


def _decision(
    strategy: Strategy,
    action: Action,
    chosen: MemoryValue,
    current: MemoryValue,
    updated: list[MemoryValue],
    rationale: str,
    conflict_type: ConflictType | None = None,
) -> MemoryDecision:
    return MemoryDecision(
        conflict_type=conflict_type,
        strategy=strategy,
        chosen_value=chosen.object_value,
        action=action,
        rationale=rationale,
        current=current,
        updated=updated,
    )


def _with(value: MemoryValue, status: Status, decay: float | None = None) -> MemoryValue:
    """`value` with a new status and, when `decay` is given, its confidence scaled by it."""
    update: dict[str, object] = {"status": status}
    if decay is not None:
        update["confidence"] = float(_dec(value.confidence) * _dec(decay))
    return value.model_copy(update=update)


def _newer(a: MemoryValue, b: MemoryValue) -> tuple[MemoryValue, MemoryValue]:
    """(newer, older) by created_at; on a tie `a` counts as the newer."""
    return (a, b) if _utc(a.created_at) >= _utc(b.created_at) else (b, a)


def _confidence_gap(a: MemoryValue, b: MemoryValue) -> Decimal:
    return abs(_dec(a.confidence) - _dec(b.confidence))


def _dec(x: float) -> Decimal:
    """The decimal a float was written as (its shortest repr)."""
    return Decimal(repr(x))


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def _normalise(text: str) -> str:
    return text.strip().casefold()


def slot_key(tenant: str | None, subject: str, predicate: str) -> str:
    """The key of a structured-memory slot."""
    return f"{tenant or ''}\x1f{subject.strip().lower()}\x1f{predicate.strip().lower()}"


def slot_of(write: KnowledgeWrite) -> str | None:
    """The slot a structured write fills; None for free text."""
    if not (write.structured and write.subject and write.predicate):
        return None
    return slot_key(write.tenant, write.subject, write.predicate)
