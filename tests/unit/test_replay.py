"""`contraflow replay` input handling: malformed cases are reported by id and skipped."""

import json
from pathlib import Path

import pytest

from contraflow.streams.core.turns import TurnPipeline, TurnSettings
from contraflow.streams.tools.replay import read_turns, run_replay
from tests.fixtures import CONTRA, ScriptedNLI

GOOD = {
    "id": "case-good",
    "patient_summary": "Asthma, on salbutamol.",
    "critical_entities": ["asthma", "salbutamol"],
    "turns": [
        {"turn": 1, "message": "Use salbutamol for your asthma when you wheeze."},
        {"turn": 2, "message": "Never use salbutamol for your asthma."},
    ],
}


def write_cases(tmp_path: Path, cases: list) -> Path:
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases))
    return path


def test_malformed_cases_are_skipped_with_their_id_and_the_rest_is_read(tmp_path: Path) -> None:
    cases = [
        {"id": "case-no-turns", "critical_entities": ["asthma"]},
        GOOD,
        {"id": "case-bad-turn", "turns": [{"turn": "first", "message": "Take it."}]},
        {"id": "case-bad-entities", "critical_entities": "asthma", "turns": []},
        ["not", "a", "case"],
    ]
    read = read_turns(write_cases(tmp_path, cases))
    assert [t.event_id for t in read.turns] == ["case-good-1", "case-good-2"]
    assert [s.split(":")[0] for s in read.skipped] == [
        "case 'case-no-turns'",
        "case 'case-bad-turn'",
        "case 'case-bad-entities'",
        "case #5 (no id)",
    ]
    assert "turns" in read.skipped[0] and "turns.0.turn" in read.skipped[1]


def test_bad_jsonl_lines_are_skipped_with_their_line_number(tmp_path: Path) -> None:
    path = tmp_path / "turns.jsonl"
    good = {"event_id": "e1", "session_id": "s", "turn_index": 1, "role": "assistant", "text": "Hi."}
    good["ts"] = "2026-01-01T00:00:00Z"
    path.write_text(json.dumps(good) + "\n{not json\n" + json.dumps({**good, "role": "robot"}) + "\n")
    read = read_turns(path)
    assert len(read.turns) == 1
    assert [s.split(":")[0] for s in read.skipped] == ["line 2", "line 3"]


def test_a_file_in_neither_format_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("these are my notes\nnothing to replay\n")
    with pytest.raises(ValueError, match="neither Study C JSON nor turn JSONL"):
        read_turns(path)
    broken = tmp_path / "broken.json"
    broken.write_text('[{"id": "x",')
    with pytest.raises(ValueError, match="not valid JSON"):
        read_turns(broken)


def test_the_run_goes_on_and_the_report_lists_what_was_skipped(tmp_path: Path) -> None:
    path = write_cases(tmp_path, [{"id": "case-broken"}, GOOD])
    pipeline = TurnPipeline(ScriptedNLI({"Never": CONTRA}), TurnSettings(verdict="regimen", stride=1))
    results_path, report_path, skipped = run_replay(pipeline, path, tmp_path / "out", progress=False)
    results = json.loads(results_path.read_text())
    assert results["sessions_scored"] == 1 and results["knowledge_conflict_rate"] == 1.0
    assert results["skipped"] == skipped and skipped[0].startswith("case 'case-broken': turns")
    assert "case-broken" in report_path.read_text()


STEADY = {
    "id": "case-steady",
    "critical_entities": ["asthma", "salbutamol"],
    "turns": [
        {"turn": 1, "message": "Use salbutamol for your asthma when you wheeze."},
        {"turn": 2, "message": "Keep using salbutamol for your asthma when you wheeze."},
    ],
}


def test_the_report_ranks_sessions_and_shows_each_conflict_with_both_texts(tmp_path: Path) -> None:
    pipeline = TurnPipeline(ScriptedNLI({"Never": CONTRA}), TurnSettings(verdict="regimen", stride=1))
    _, report_path, _ = run_replay(pipeline, write_cases(tmp_path, [STEADY, GOOD]), tmp_path / "out", progress=False)
    html = report_path.read_text()
    ranking = html[html.index("<h2>Sessions") : html.index("<h2>Conflicts")]
    assert ranking.index("case-good") < ranking.index("case-steady")  # the contradicting session first
    conflicts = html[html.index("<h2>Conflicts") :]
    assert "Use salbutamol for your asthma when you wheeze." in conflicts
    assert "Never use salbutamol for your asthma." in conflicts and "1 → 2" in conflicts
    assert "Plotly.newPlot" in html  # the charts, their library inline
    assert "<script src=" not in html  # works offline: no script loaded from elsewhere


def test_the_report_of_turn_jsonl_has_no_recall_section(tmp_path: Path) -> None:
    turns = tmp_path / "turns.jsonl"
    rows = [
        {"event_id": "s-1", "session_id": "s", "turn_index": 1, "role": "assistant", "text": t, "ts": ts}
        for t, ts in [("Take aspirin daily.", "2026-11-24T09:00:00Z")]
    ]
    turns.write_text("".join(json.dumps(r) + "\n" for r in rows))
    pipeline = TurnPipeline(ScriptedNLI({}), TurnSettings(stride=1))
    _, report_path, _ = run_replay(pipeline, turns, tmp_path / "out", progress=False)
    html = report_path.read_text()
    assert "No case data in this input" in html and "Entity Recall@T" not in html
