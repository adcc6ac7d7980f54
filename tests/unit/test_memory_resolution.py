"""Structured-memory conflict resolution (seed 004): the worked examples and every branch of the tree."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from pydantic import ValidationError

from contraflow.models.events import Resolution
from contraflow.streams.core.knowledge.memory import (
    TRUST_DB_RATIONALE,
    MemoryDecision,
    MemoryPolicy,
    MemoryValue,
    resolve,
    transparent_report,
)

POLICY = MemoryPolicy()
T0 = datetime(2024, 10, 1)


def value(
    object_value: str,
    confidence: float = 0.8,
    reinforcement_count: int = 1,
    created_at: datetime = T0,
    source: str = "memory",
    entry_id: str | None = None,
    subject: str = "customer_gai_123",
    predicate: str = "delivery_pref",
) -> MemoryValue:
    return MemoryValue(
        tenant="acme",
        subject=subject,
        predicate=predicate,
        object_value=object_value,
        confidence=confidence,
        reinforcement_count=reinforcement_count,
        created_at=created_at,
        source=source,
        entry_id=entry_id or f"{object_value}-{created_at.isoformat()}",
    )


def only_updated(decision: MemoryDecision) -> MemoryValue:
    assert len(decision.updated) == 1
    return decision.updated[0]


# --- the seed's worked examples -------------------------------------------------------------------


def test_example_1_memory_vs_db_trusts_the_database() -> None:
    memory = value("in_fulfillment", 0.85, subject="sales_order_so_1001", predicate="status")
    db = value(
        "shipped", 1.0, created_at=datetime(2024, 10, 3), source="db", subject="sales_order_so_1001", predicate="status"
    )

    decision = resolve(memory, db, POLICY)

    assert decision.conflict is True
    assert decision.conflict_type == "memory_vs_db"
    assert decision.strategy == "trust_db"
    assert decision.chosen_value == "shipped"
    assert decision.action == "decay_memory"
    assert decision.current == db
    decayed = only_updated(decision)
    assert decayed.entry_id == memory.entry_id
    assert decayed.status == "conflicted"
    assert decayed.confidence == 0.425
    assert memory.confidence == 0.85 and memory.status == "active"  # inputs are not mutated

    report = transparent_report(decision, memory, db)
    assert report == {
        "conflict_type": "memory_vs_db",
        "subject": "sales_order_so_1001",
        "predicate": "status",
        "existing_value": "in_fulfillment",
        "new_value": "shipped",
        "existing_confidence": 0.85,
        "new_confidence": 1.0,
        "resolution_strategy": "trust_db",
        "explanation": TRUST_DB_RATIONALE,
    }


def test_example_2_newer_more_confident_more_reinforced_supersedes() -> None:
    thursday = value("Thursday", 0.75, 1, datetime(2024, 10, 1))
    friday = value("Friday", 0.85, 2, datetime(2024, 10, 10))

    decision = resolve(thursday, friday, POLICY)

    assert decision.conflict_type == "value_mismatch"
    assert decision.strategy == "keep_newest"
    assert decision.chosen_value == "Friday"
    assert decision.action == "supersede_old"
    assert decision.current == friday
    old = only_updated(decision)
    assert (old.object_value, old.status, old.confidence) == ("Thursday", "superseded", 0.75)


def test_example_2_needs_every_signal_to_agree() -> None:
    thursday = value("Thursday", 0.75, 1, datetime(2024, 10, 1))
    same_reinforcement = value("Friday", 0.85, 1, datetime(2024, 10, 10))
    same_confidence = value("Friday", 0.75, 2, datetime(2024, 10, 10))
    assert resolve(thursday, same_reinforcement, POLICY).action == "ask_user"
    assert resolve(thursday, same_confidence, POLICY).action == "ask_user"


def test_example_2_agreement_respects_created_at_not_arrival_order() -> None:
    friday = value("Friday", 0.85, 2, datetime(2024, 10, 10))
    late_thursday = value("Thursday", 0.75, 1, datetime(2024, 10, 1))  # older write delivered late

    decision = resolve(friday, late_thursday, POLICY)

    assert (decision.strategy, decision.chosen_value, decision.current) == ("keep_newest", "Friday", friday)
    assert only_updated(decision).status == "superseded"


def test_example_3_ambiguous_asks_the_user() -> None:
    thursday = value("Thursday", 0.80, 2, datetime(2024, 10, 5))
    friday = value("Friday", 0.82, 2, datetime(2024, 10, 8))

    decision = resolve(thursday, friday, POLICY)

    assert decision.conflict is True
    assert decision.conflict_type == "value_mismatch"
    assert decision.strategy == "ask_user"
    assert decision.action == "ask_user"
    assert decision.chosen_value is None
    assert decision.options == ["Thursday", "Friday"]
    assert decision.prompt == "We have conflicting information: 'Thursday' vs 'Friday'. Which is correct?"
    assert decision.current == thursday  # the stored value stays current, undecayed
    pending = only_updated(decision)
    assert (pending.entry_id, pending.status, pending.confidence) == (friday.entry_id, "conflicted", 0.82)


# --- no conflict: first write, reinforce, replace ---------------------------------------------------


def test_first_value_is_stored_as_current() -> None:
    new = value("Friday")
    decision = resolve(None, new, POLICY)
    assert (decision.conflict, decision.strategy, decision.action) == (False, "replace", "replace")
    assert decision.current == new and decision.chosen_value == "Friday" and decision.updated == []


@pytest.mark.parametrize(("new_conf", "expected"), [(0.6, 0.7), (0.9, 0.9)])
def test_equal_value_reinforces_with_max_confidence(new_conf: float, expected: float) -> None:
    existing = value("Friday", 0.7, reinforcement_count=2)
    decision = resolve(existing, value("  fRIDAY ", new_conf, created_at=T0 + timedelta(days=90)), POLICY)

    assert (decision.conflict, decision.conflict_type) == (False, None)
    assert (decision.strategy, decision.action, decision.chosen_value) == ("reinforce", "reinforce", "Friday")
    reinforced = only_updated(decision)
    assert decision.current == reinforced
    assert reinforced.entry_id == existing.entry_id
    assert reinforced.reinforcement_count == 3
    assert reinforced.confidence == expected
    with pytest.raises(ValueError):
        transparent_report(decision, existing, value("Friday"))


@pytest.mark.parametrize(("existing_conf", "replaced"), [(0.39, True), (0.4, False)])
def test_low_confidence_existing_is_replaced_without_conflict(existing_conf: float, replaced: bool) -> None:
    existing = value("Thursday", existing_conf)
    new = value("Friday", existing_conf, created_at=T0 + timedelta(days=1))
    decision = resolve(existing, new, POLICY)
    if replaced:
        assert (decision.conflict, decision.strategy, decision.action) == (False, "replace", "replace")
        assert decision.current == new
        assert only_updated(decision).status == "superseded"
        assert only_updated(decision).confidence == existing_conf
    else:
        assert (decision.conflict, decision.action) == (True, "ask_user")


def test_low_confidence_memory_is_replaced_by_db_without_conflict() -> None:
    decision = resolve(value("Thursday", 0.3), value("Friday", 1.0, source="db"), POLICY)
    assert (decision.conflict, decision.strategy, decision.chosen_value) == (False, "replace", "Friday")


# --- (1) memory vs database -------------------------------------------------------------------------


@pytest.mark.parametrize("memory_source", ["memory", "tool"])
def test_stored_db_value_is_never_displaced_by_memory(memory_source: str) -> None:
    db = value("shipped", 0.3, source="db", created_at=T0)  # even a low-confidence db value
    newer_memory = value("in_fulfillment", 0.95, 9, T0 + timedelta(days=60), source=memory_source)

    decision = resolve(db, newer_memory, POLICY)

    assert (decision.conflict_type, decision.strategy, decision.action) == ("memory_vs_db", "trust_db", "decay_memory")
    assert decision.current == db and decision.chosen_value == "shipped"
    loser = only_updated(decision)
    assert (loser.entry_id, loser.status, loser.confidence) == (newer_memory.entry_id, "conflicted", 0.475)


def test_two_db_values_are_an_update_not_a_conflict() -> None:
    old = value("in_fulfillment", 1.0, source="db", created_at=T0)
    new = value("shipped", 1.0, source="db", created_at=T0 + timedelta(days=2))
    decision = resolve(old, new, POLICY)
    assert (decision.conflict, decision.strategy, decision.current) == (False, "replace", new)
    assert only_updated(decision).status == "superseded"
    late = resolve(new, old, POLICY)  # the older db write arriving late does not win
    assert late.current == new and only_updated(late).entry_id == old.entry_id


# --- (2) temporal ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("gap", "strategy"),
    [(timedelta(days=30), "ask_user"), (timedelta(days=30, seconds=1), "keep_newest")],
)
def test_temporal_boundary(gap: timedelta, strategy: str) -> None:
    old = value("Thursday", 0.8, 2, T0)
    new = value("Friday", 0.8, 2, T0 + gap)
    decision = resolve(old, new, POLICY)
    assert decision.strategy == strategy
    if strategy == "keep_newest":
        assert (decision.conflict_type, decision.action, decision.current) == ("temporal", "supersede_old", new)
        superseded = only_updated(decision)
        assert (superseded.entry_id, superseded.status, superseded.confidence) == (old.entry_id, "superseded", 0.8)


def test_temporal_wins_over_confidence_and_reinforcement() -> None:
    old = value("Thursday", 0.95, 9, T0)
    new = value("Friday", 0.45, 1, T0 + timedelta(days=31))
    decision = resolve(old, new, POLICY)
    assert (decision.conflict_type, decision.chosen_value) == ("temporal", "Friday")


def test_temporal_compares_aware_and_naive_as_utc() -> None:
    old = value("Thursday", 0.8, 2, datetime(2024, 10, 1, tzinfo=UTC))
    new = value("Friday", 0.8, 2, datetime(2024, 11, 1))
    assert resolve(old, new, POLICY).conflict_type == "temporal"


# --- (3) confidence gap -----------------------------------------------------------------------------


@pytest.mark.parametrize(("low", "strategy"), [(0.6, "ask_user"), (0.59, "keep_highest_confidence")])
def test_confidence_gap_boundary(low: float, strategy: str) -> None:
    existing = value("Thursday", 0.8, 1, T0)
    new = value("Friday", low, 1, T0 + timedelta(days=1))
    decision = resolve(existing, new, POLICY)
    assert decision.strategy == strategy
    if strategy == "keep_highest_confidence":
        assert (decision.action, decision.chosen_value, decision.current) == ("decay_lower", "Thursday", existing)
        loser = only_updated(decision)
        assert (loser.entry_id, loser.status, loser.confidence) == (new.entry_id, "conflicted", 0.472)


def test_confidence_gap_above_threshold_keeps_the_higher_even_if_older() -> None:
    existing = value("Thursday", 0.5, 1, T0)
    new = value("Friday", 0.71, 1, T0 + timedelta(days=1))  # gap 0.21
    decision = resolve(existing, new, POLICY)
    assert (decision.strategy, decision.chosen_value) == ("keep_highest_confidence", "Friday")
    loser = only_updated(decision)
    assert (loser.entry_id, loser.status, loser.confidence) == (existing.entry_id, "conflicted", 0.4)


# --- (4) reinforcement gap --------------------------------------------------------------------------


@pytest.mark.parametrize(("reinforced", "strategy"), [(3, "ask_user"), (4, "keep_most_reinforced")])
def test_reinforcement_gap_boundary(reinforced: int, strategy: str) -> None:
    existing = value("Thursday", 0.8, reinforced, T0 + timedelta(days=1))
    new = value("Friday", 0.8, 1, T0)
    decision = resolve(existing, new, POLICY)
    assert decision.strategy == strategy
    if strategy == "keep_most_reinforced":
        assert (decision.action, decision.chosen_value, decision.current) == ("decay_lower", "Thursday", existing)
        loser = only_updated(decision)
        assert (loser.entry_id, loser.status, loser.confidence) == (new.entry_id, "conflicted", 0.4)
        assert decision.rationale == "More reinforced (4 vs 1)."


# --- policy, validation, integration ----------------------------------------------------------------


def test_policy_defaults_match_the_seed() -> None:
    assert POLICY.model_dump() == {
        "temporal_days": 30,
        "confidence_gap": 0.2,
        "reinforcement_gap": 3,
        "min_confidence_for_conflict": 0.4,
        "conflict_decay": 0.5,
        "lower_confidence_decay": 0.8,
    }


def test_policy_thresholds_are_configurable() -> None:
    existing = value("Thursday", 0.45, 2, T0)
    new = value("Friday", 0.55, 3, T0 + timedelta(days=8))
    assert resolve(existing, new, POLICY).strategy == "keep_newest"  # the agreement rule

    tied = value("Friday", 0.55, 2, T0 + timedelta(days=8))
    assert resolve(existing, tied, POLICY).strategy == "ask_user"
    assert resolve(existing, tied, MemoryPolicy(temporal_days=7)).strategy == "keep_newest"
    by_confidence = resolve(existing, tied, MemoryPolicy(confidence_gap=0.05, lower_confidence_decay=0.5))
    assert by_confidence.strategy == "keep_highest_confidence"
    assert only_updated(by_confidence).confidence == 0.225
    assert resolve(existing, tied, MemoryPolicy(min_confidence_for_conflict=0.5)).strategy == "replace"

    reinforced = value("Friday", 0.45, 3, T0 + timedelta(days=8))
    decision = resolve(existing, reinforced, MemoryPolicy(reinforcement_gap=1, conflict_decay=0.25))
    assert decision.strategy == "keep_most_reinforced"
    assert only_updated(decision).confidence == 0.1125


def test_db_decay_is_configurable() -> None:
    decision = resolve(value("a", 0.9), value("b", 1.0, source="db"), MemoryPolicy(conflict_decay=0.1))
    assert only_updated(decision).confidence == 0.09


def test_invalid_inputs_are_rejected() -> None:
    with pytest.raises(ValidationError):
        value("x", 1.2)
    with pytest.raises(ValidationError):
        value("x", source="cache")
    with pytest.raises(ValidationError):
        MemoryPolicy(confidence_gap=-0.1)
    with pytest.raises(ValueError, match="slots"):
        resolve(value("Thursday"), value("Friday", subject="someone_else"), POLICY)


def test_decision_maps_to_the_event_resolution() -> None:
    decision = resolve(value("Thursday", 0.75, 1, T0), value("Friday", 0.85, 2, T0 + timedelta(days=9)), POLICY)
    assert decision.to_resolution() == Resolution(
        strategy="keep_newest",
        chosen_value="Friday",
        action="supersede_old",
        rationale=decision.rationale,
    )
    assert decision.model_dump(mode="json")["conflict"] is True
