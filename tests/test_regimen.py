"""Instruction slots (streams/extract/regimen.py) and the regimen verdict rule: same-target
instructions that disagree on a slot contradict; paraphrases, different targets, context
clauses, conditionals and planned changes do not."""

from __future__ import annotations

import numpy as np
import pytest

from models.state import AdviceClaim, AdviceItem
from streams.extract.regimen import comparable, disagreement, main_clause, regimen_of
from streams.verdict import VerdictRule, judge, plan_pairs


def slot(earlier: str, new: str, targets: tuple[str, ...] = ()) -> str | None:
    a, b = regimen_of(earlier, frozenset(targets)), regimen_of(new, frozenset(targets))
    assert comparable(a, b)
    return disagreement(a, b)


@pytest.mark.parametrize(
    ("earlier", "new", "targets", "expected"),
    [
        ("Stay off beer and spirits for now.", "A beer at the weekend is fine.", (), "polarity"),
        ("Avoid alcohol until the course is finished.", "A small glass of wine is okay.", (), "polarity"),
        ("Keep taking the lisinopril.", "Stop the lisinopril for now.", ("lisinopril",), "polarity"),
        ("Keep using your inhaler.", "Don't stop using your inhaler.", ("inhaler",), None),
        ("There's no need to stop the amlodipine.", "Carry on with the amlodipine.", ("amlodipine",), None),
        ("It isn't safe to combine naproxen with it.", "Naproxen is safe for you.", (), "polarity"),
        ("Take 10 mg at night.", "Take 20 mg at night.", ("simvastatin",), "amount"),
        ("Take two tablets.", "Take a tablet.", ("codeine",), "amount"),
        ("Take it three times a day.", "Take it twice daily.", ("amoxicillin",), "frequency"),
        ("Take it every 8 hours.", "Take it three times a day.", ("amoxicillin",), None),
        ("Take it after breakfast.", "Take it before breakfast on an empty stomach.", ("levothyroxine",), "food"),
        ("Take it at bedtime.", "Take it in the morning.", ("simvastatin",), "time of day"),
        ("Take it at bedtime.", "Take it at night, with a glass of water.", ("simvastatin",), None),
        ("Take one puff in the morning and one in the evening.", "Use it morning and evening.", ("inhaler",), None),
    ],
)
def test_slots_decide_same_target_instructions(earlier: str, new: str, targets: tuple[str, ...], expected) -> None:
    assert slot(earlier, new, targets) == expected


def test_context_clauses_do_not_make_the_target() -> None:
    assert main_clause("avoid ibuprofen while you are on warfarin") == "avoid ibuprofen"
    assert main_clause("while you are on warfarin, avoid ibuprofen") == "avoid ibuprofen"
    avoid = regimen_of("Avoid ibuprofen while you are on warfarin.")
    keep = regimen_of("Keep taking your warfarin.")
    assert disagreement(avoid, keep) is None


def test_specific_drugs_of_one_class_are_different_targets() -> None:
    assert disagreement(regimen_of("Take ibuprofen with food."), regimen_of("Avoid aspirin.")) is None
    assert disagreement(regimen_of("Avoid NSAIDs."), regimen_of("Ibuprofen is fine.")) == "polarity"


def test_conditionals_and_planned_changes_are_not_reversals() -> None:
    assert slot("If the pain returns, take paracetamol.", "Don't take paracetamol.", ()) is None
    titration = "Start at 25 mg once a day and increase to 50 mg after two weeks."
    assert slot(titration, "Take 50 mg once a day.", ("sertraline",)) is None


def test_a_claim_naming_only_it_inherits_its_targets() -> None:
    assert regimen_of("Take it with food.", frozenset({"metformin"})).targets == {"metformin"}
    assert not comparable(regimen_of("Drink plenty of water."), regimen_of("Rest as much as you can."))


def item(index: int, *claims: AdviceClaim) -> AdviceItem:
    return AdviceItem(
        turn_index=index, event_id=f"t{index}", text=" ".join(c.text for c in claims), claims=list(claims)
    )


def test_the_regimen_rule_overrides_the_model_and_the_claims_rule_does_not() -> None:
    earlier = item(1, AdviceClaim(text="Take it with your evening meal.", targets=["metformin"]))
    new = item(3, AdviceClaim(text="Take it on an empty stomach in the morning.", targets=["metformin"]))
    rows: list[tuple[str, str]] = []

    def add(premise: str, hypothesis: str) -> int:
        rows.append((premise, hypothesis))
        return len(rows) - 1

    quiet = np.array([[0.1, 0.8, 0.1]] * 2, dtype=np.float32)  # the model sees no contradiction
    regimen = VerdictRule("regimen", 0.5, 1.0)
    verdict = judge(plan_pairs([earlier], new, regimen, add), quiet, regimen)["t1"]
    assert verdict.contradicts and verdict.slot == "food"
    rows.clear()
    claims = VerdictRule("claims", 0.5, 1.0)
    assert not judge(plan_pairs([earlier], new, claims, add), quiet, claims)["t1"].contradicts
