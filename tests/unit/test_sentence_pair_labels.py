"""The labels `benchmarks/sentence_pairs.py build` gives the sentence pairs of a marked
session, from which the dialogue head learns: a session changes its advice once, so the
marked pair is a contradiction, and two turns that both come after the change agree."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from sentence_pairs import pair_label

REVERSAL = {"reversal": {"earlier_turn": 1, "later_turn": 5}, "revision": None}
SPAN = {
    "earlier_turn": 1,
    "later_turn": 5,
    "earlier_span": "Take the metformin with your evening meal.",
    "later_span": "Take the metformin on an empty stomach first thing.",
}
STEADY = {"reversal": None, "revision": None}


def test_the_marked_pair_is_a_contradiction() -> None:
    assert pair_label(REVERSAL, SPAN, 1, 5, SPAN["earlier_span"], SPAN["later_span"]) is True


def test_pairs_before_the_change_and_in_a_steady_session_are_not() -> None:
    assert pair_label(REVERSAL, SPAN, 1, 3, "Take the metformin with food.", "Keep taking it with food.") is False
    assert pair_label(STEADY, None, 1, 7, "Use the inhaler twice a day.", "Keep using it morning and night.") is False


def test_a_restatement_of_the_new_advice_after_the_change_is_not() -> None:
    """Turn 7 says again what turn 5 changed the advice to: no second change."""
    restated = "As I said, take it before breakfast on an empty stomach."
    assert pair_label(REVERSAL, SPAN, 5, 7, SPAN["later_span"], restated) is False


def test_a_later_turn_against_advice_from_before_the_change_stays_unknown() -> None:
    """Turn 7 may repeat the reversal against turn 1: such pairs are left out."""
    restated = "As I said, take it before breakfast on an empty stomach."
    assert pair_label(REVERSAL, SPAN, 1, 7, SPAN["earlier_span"], restated) is None
    assert pair_label(REVERSAL, SPAN, 3, 7, "Check your sugar each morning.", restated) is None
