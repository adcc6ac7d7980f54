"""The hand-made benchmark data stays consistent: every marked passage of a changed session
(`benchmarks/data/spans/`, and `sealed/` for blind sets not run yet) is copied exactly from
the turn it names, and every reversal or revision of a marked session file has exactly one
mark."""

import json
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data"
# the marks of sets already run, and those sealed until a blind set's first run
MARKED = sorted((DATA / "spans").glob("*.jsonl")) + sorted((DATA / "sealed").glob("*.jsonl"))


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_marked_sets_are_there() -> None:
    assert len(MARKED) >= 11


def test_no_set_is_both_sealed_and_marked() -> None:
    """A sealed set's marks move to spans/ after its first run: never in both places."""
    names = [p.name for p in MARKED]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("marks", MARKED, ids=lambda p: p.stem)
def test_every_change_has_one_mark_copied_from_its_turns(marks: Path) -> None:
    sessions = DATA / "sessions" / marks.name
    turns = {(t["session_id"], t["turn_index"]): t for t in _rows(sessions)}
    labels = {row["session_id"]: row for row in _rows(sessions.with_suffix(".labels.jsonl"))}
    changed = {sid: row for sid, row in labels.items() if row["reversal"] or row["revision"]}
    rows = _rows(marks)
    assert sorted(r["session_id"] for r in rows) == sorted(changed)
    for row in rows:
        label = changed[row["session_id"]]
        kind = "reversal" if label["reversal"] else "revision"
        change = label[kind]
        assert row["kind"] == kind
        assert (row["earlier_turn"], row["later_turn"]) == (change["earlier_turn"], change["later_turn"])
        assert row["earlier_span"] in turns[(row["session_id"], row["earlier_turn"])]["text"]
        assert row["later_span"] in turns[(row["session_id"], row["later_turn"])]["text"]
