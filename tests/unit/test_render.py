"""The one-line console form of output events (`contraflow tail`, `contraflow demo`)."""

from contraflow.streams.tools.render import render
from contraflow.topics.catalog import ALERTS, CONFLICTS


def test_a_session_alert_says_what_changed_once() -> None:
    event = {
        "session_id": "demo-warfarin-flip",
        "metric": "k_conflict",
        "value": 1.0,
        "threshold": 0.1,
        "previous_status": "pass",
        "status": "failure",
        "message": "k_conflict 1.000 (1/1 pairs) vs threshold 0.10",
    }
    line = render(ALERTS.name, event)
    assert line == f"ALERT      session=demo-warfarin-flip {event['message']} (pass -> failure)"
    assert line.count("->") == 1 and line.count("threshold") == 1


def test_a_rate_alert_names_no_session() -> None:
    event = {
        "session_id": None,
        "model": "carebot-2",
        "metric": "contradiction_rate_3600s",
        "value": 0.3,
        "threshold": 0.1,
        "previous_status": "pass",
        "status": "failure",
        "message": "model carebot-2, 3600 s window from 2026-11-24T09:00:00+00:00: rate 0.300 (3 of 10 pairs)",
    }
    assert render(ALERTS.name, event) == f"ALERT      {event['message']} (pass -> failure)"


def test_a_memory_conflict_shows_its_type_and_a_turn_conflict_its_score() -> None:
    memory = {
        "kind": "memory",
        "claim_a": {"text": "SO-1001 status: in_fulfillment", "entry_id": "mem-1"},
        "claim_b": {"text": "SO-1001 status: shipped", "entry_id": "db-1"},
        "nli_ab": None,
        "conflict_type": "memory_vs_db",
        "severity": "high",
    }
    assert "type=memory_vs_db severity=high" in render(CONFLICTS.name, memory)
    turn = {**memory, "kind": "turn_self_contradiction", "nli_ab": {"contradiction": 0.91}}
    turn["claim_a"], turn["claim_b"] = (
        {"text": "Take it twice a day.", "turn_index": 1},
        {"text": "Once.", "turn_index": 3},
    )
    assert "turns 1 -> 3 p(contradiction)=0.91 severity=high" in render(CONFLICTS.name, turn)
