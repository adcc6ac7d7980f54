"""One readable line per output event, for `contraflow tail` and the demo."""

from __future__ import annotations

from typing import Any

from contraflow.topics.catalog import ALERTS, CONFLICTS, DEADLETTER, SCORES


def _short(text: str, width: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _strength(conflict: dict[str, Any]) -> str:
    """The NLI score behind a conflict; a memory conflict is decided on the values instead."""
    if conflict.get("nli_ab") is None:
        return f"type={conflict.get('conflict_type')}"
    return f"p(contradiction)={conflict['nli_ab']['contradiction']:.2f}"


def render(topic: str, event: dict[str, Any]) -> str:
    """A one-line summary of an event from one of contraflow's output topics."""
    if topic == CONFLICTS.name:
        a, b = event["claim_a"], event["claim_b"]
        where = (
            f"turns {a.get('turn_index')} -> {b.get('turn_index')}"
            if a.get("turn_index") is not None
            else event["kind"]
        )
        return (
            f"CONFLICT   session={event.get('session_id')} {where} "
            f"{_strength(event)} severity={event['severity']}\n"
            f"           A: {_short(a['text'])}\n"
            f"           B: {_short(b['text'])}"
        )
    if topic == ALERTS.name:
        # the message says what changed and why; session alerts name their session, rate alerts their model or tenant
        where = f"session={event['session_id']} " if event.get("session_id") else ""
        return f"ALERT      {where}{event['message']} ({event['previous_status']} -> {event['status']})"
    if topic == SCORES.name:
        k = event.get("k_conflict")
        k_text = "n/a" if k is None else f"{k:.3f}"
        return (
            f"SCORE      session={event['session_id']} turn={event['turn_index']} "
            f"K_Conflict={k_text} ({event['contradictions']}/{event['evaluated_pairs']}) status={event['status']}"
        )
    if topic == DEADLETTER.name:
        return (
            f"DEADLETTER {event['topic']}[{event['partition']}]@{event['offset']} "
            f"{event['error_kind']}: {_short(event['error'], 160)}"
        )
    return f"{topic}: {_short(str(event), 160)}"
