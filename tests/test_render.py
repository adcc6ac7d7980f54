"""The one-line console form of output events (`contraflow tail`, `contraflow demo`)."""

from streams.render import render
from topics.catalog import ALERTS


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
