"""Instruction slots (streams/core/extract/regimen*.py) and the regimen verdict rule: same-target
instructions that disagree on a slot contradict; paraphrases, different targets, context
clauses, conditionals and planned changes do not."""

from __future__ import annotations

import numpy as np
import pytest

from contraflow.models.state import AdviceClaim, AdviceItem
from contraflow.streams.core.extract.regimen import detail_kinds, loosening, regimen_of
from contraflow.streams.core.extract.regimen_clauses import main_clause
from contraflow.streams.core.extract.regimen_disagreement import comparable, disagreement, same_target
from contraflow.streams.core.extract.targets import targets_of
from contraflow.streams.core.turn_claims import claim_topic
from contraflow.streams.core.verdict import VerdictRule, gated, judge, plan_pairs, slot_decision


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
        ("Take it for 3 days.", "Keep taking it until you've completed 7 days.", ("nitrofurantoin",), "duration"),
        ("Take the twice-daily doses.", "Take it once a day.", ("nitrofurantoin",), "frequency"),
        ("Use it every morning and every evening.", "Keep using it twice a day.", ("preventer",), None),
        # a dose within a limit keeps to it; one above it, or another dose on the limit's own schedule, does not
        ("Don't take more than 300 mg in 24 hours.", "You can take a second 50 mg tablet now.", ("sumatriptan",), None),
        ("Don't take more than 300 mg in 24 hours.", "You can take 400 mg now.", ("sumatriptan",), "amount"),
        (
            "Take ibuprofen 400 mg three times a day, no more than 1,200 mg in a day.",
            "You can take 800 mg at a time, three times a day.",
            ("ibuprofen",),
            "amount",
        ),
        (
            "Try not to take painkillers on more than about 10 days a month.",
            "Keep it to no more than a few days a week.",
            ("painkillers",),
            None,
        ),
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


def test_conditional_prohibitions_and_planned_changes_are_not_reversals() -> None:
    assert slot("Take paracetamol for the pain.", "Don't take paracetamol if you've been drinking.", ()) is None
    assert slot("You can drive.", "Don't drive if your blood sugar is below 5.", ()) is None
    titration = "Start at 25 mg once a day and increase to 50 mg after two weeks."
    assert slot(titration, "Take 50 mg once a day.", ("sertraline",)) is None
    schedule = "Take 0.5 mg once a day for days 1 to 3."
    assert slot(schedule, "From day 8, take 1 mg twice a day.", ("varenicline",)) is None


def test_a_conditional_permission_lifts_a_flat_prohibition() -> None:
    assert (
        slot(
            "You shouldn't drive the morning after taking zopiclone.",
            "It's fine to drive to work the morning after your zopiclone if you feel alert.",
        )
        == "polarity"
    )
    assert slot("She should stay off nursery.", "She can go back to nursery if she seems well in herself.") == (
        "polarity"
    )
    # "not needed" is not a prohibition, so a condition that calls for the thing only refines it
    assert slot("You don't need condoms.", "If you miss two pills, use condoms for 7 days.") is None
    # "even if you feel fine" is no condition
    assert slot("Take it for 5 days.", "Keep taking it for 10 days, even if you feel fine.", ("amoxicillin",)) == (
        "duration"
    )


@pytest.mark.parametrize(
    ("earlier", "new", "targets", "expected"),
    [
        # limits, services and idioms that hold a flip word
        ("No more than four doses of paracetamol in 24 hours.", "Take paracetamol when you need it.", (), None),
        (
            "See the stop smoking service about varenicline.",
            "Start the varenicline a week before.",
            ("varenicline",),
            None,
        ),
        ("Give up to 10 puffs of the blue inhaler.", "Give up to 4 puffs of the blue inhaler.", (), "amount"),
        ("Avoid alcohol while you're on mirtazapine.", "Give alcohol a miss while you're on it.", (), None),
        ("Avoid alcohol while you're on mirtazapine.", "A glass of wine is fine on mirtazapine.", (), "polarity"),
        # ruling out a change keeps the regimen
        (
            "Please hold off on the planned increase to 80 mg.",
            "Keep taking the fluoxetine 20 mg.",
            ("fluoxetine",),
            None,
        ),
        ("Never take a double dose to catch up.", "Keep taking your lamotrigine.", ("lamotrigine",), None),
        ("Don't take extra paracetamol on top of the co-codamol.", "You can take extra paracetamol.", (), "polarity"),
        # other actions: calling, taking someone somewhere, contacting
        ("Don't poke anything into the ear.", "Call 111 if she gets swelling behind the ear.", ("ear",), None),
        (
            "He should skip tonight's lithium dose.",
            "If he is unsteady, take him to A&E, it can mean lithium toxicity.",
            ("lithium",),
            None,
        ),
        # another person
        ("You can keep running while you're pregnant.", "He shouldn't be running after a knee replacement.", (), None),
        # the reader gives, the child takes: both are for him
        ("Don't give him ibuprofen.", "You can give him ibuprofen for the fever.", (), "polarity"),
        # the topic named first, the instruction after it
        (
            "As for alcohol, it's best to avoid it completely.",
            "A couple of pints at the weekend is fine.",
            (),
            "polarity",
        ),
        # reasons after the instruction add no targets and no conditions
        (
            "Avoid alcohol completely, because it can cause flushing, vomiting and a pounding headache.",
            "A glass of wine is fine.",
            (),
            "polarity",
        ),
        (
            "You should not drive while you feel like this — it's an offence to drive if you're impaired.",
            "It's fine to drive to work tomorrow.",
            (),
            "polarity",
        ),
        # the part that instructs, where several name the target; a condition in a later remark is none
        (
            "So you can carry on breastfeeding while you take it.",
            "Sertraline passes into breast milk, so while you're taking it you should stop breastfeeding.",
            ("sertraline",),
            "polarity",
        ),
        (
            "You should not drive while you feel like this — it's an offence to drive if impaired.",
            "It's fine to drive to work tomorrow.",
            (),
            "polarity",
        ),
        # "every day" says each day, not how many times
        ("Use your steroid inhaler every morning and evening.", "Keep using it every day.", ("inhaler",), None),
        ("Take it every day.", "Take it once a week.", ("alendronic acid",), "frequency"),
        # more ways to say how often and how long
        ("Have it once a week.", "Take it every morning.", ("alendronic acid",), "frequency"),
        ("Use it for up to 7 days.", "Keep using it for a month.", ("hydrocortisone",), "duration"),
        ("Use it for up to 7 days.", "Use it for 5 days.", ("hydrocortisone",), None),
        ("Don't use it for more than 7 days.", "Keep using it for the next couple of weeks.", ("spray",), "duration"),
        ("Five days of penicillin V is plenty.", "He needs penicillin V for a full 10 days.", (), "duration"),
        # an imperative to take something is for the reader, not for the person named before
        ("Your husband shouldn't take mefloquine.", "Take it every day while you're there.", ("mefloquine",), None),
        # a limit said as a prohibition, and getting help, are not reversals of giving the dose
        ("Give 7.5 ml up to three times a day.", "Don't give more than 3 doses in 24 hours.", ("ibuprofen",), None),
        ("Don't take tonight's dose.", "Get urgent help if you develop a tremor.", ("lithium",), None),
        # amounts with a thousands separator
        ("Take 400 IU of vitamin D a day.", "Taking 10,000 IU of vitamin D a day is fine.", (), "amount"),
        ("Take 10,000 IU of vitamin D a day.", "Take 20,000 IU of vitamin D a day.", (), "amount"),
        # two instructions under different conditions do not meet
        (
            "Once your skin has adjusted, use it every night.",
            "If you become pregnant, stop it and speak to your GP.",
            ("adapalene",),
            None,
        ),
        ("If the pain is bad, take two tablets.", "If the pain is bad, don't take any.", ("co-codamol",), "polarity"),
        # a product's strength is not a dose
        (
            "Give 2.5 ml of the 100 mg/5 ml infant ibuprofen.",
            "Give her 5 ml of the 100 mg/5 ml ibuprofen now.",
            (),
            "amount",
        ),
        ("Give 7.5 ml of the 120 mg/5 ml suspension.", "Give 7.5 ml of the 250 mg/5 ml suspension.", ("calpol",), None),
        # every name of an everyday substance is the substance: pints are alcohol, like beer; but a
        # nap is not going to bed
        ("Go back to bed only when you feel sleepy.", "It's best to avoid daytime naps.", (), None),
        (
            "Keep it to 2 units a night, one pint of beer.",
            "You can have up to 6 units a night, three pints.",
            (),
            "amount",
        ),
        # stages of a plan, a return to the dose, sharing in a list, extra doses
        (
            "For the first two weeks he should not lift anything heavy.",
            "From two weeks he can begin to lift light loads.",
            (),
            None,
        ),
        (
            "Don't take simvastatin for the 7 days of the course.",
            "Back to 40 mg of simvastatin each evening.",
            (),
            None,
        ),
        (
            "Give 1 puff of the blue inhaler every minute.",
            "- Please don't share her inhalers with him.",
            ("inhaler",),
            None,
        ),
        ("Give his dexamethasone with breakfast.", "Don't give any extra doses later on.", ("dexamethasone",), None),
        # "carry on" is no other action; a list after the instruction is its object; a restated dose
        (
            "It's best to finish the 5-day course of amoxicillin.",
            "Carry on taking the amoxicillin for 7 days.",
            (),
            "duration",
        ),
        (
            "Avoid tea, coffee, milk and antacids for an hour either side.",
            "Have it with your cup of tea.",
            ("caffeine",),
            "polarity",
        ),
        (
            "Take your usual 800 mg tonight.",
            "Take 1600 mg — your usual 800 mg plus the 800 mg you missed.",
            ("lithium",),
            "amount",
        ),
        (
            "You can carry on with ibuprofen if it's helping.",
            "After that, you can stop the ibuprofen.",
            ("ibuprofen",),
            None,
        ),
        ("Please stop the ibuprofen now you're on naproxen.", "Leave the ibuprofen out completely.", (), None),
        # food and one dose of several
        (
            "Take one capsule on an empty stomach.",
            "Take each capsule with a meal or a snack.",
            ("flucloxacillin",),
            "food",
        ),
        (
            "Give a big breakfast with his morning dose.",
            "Make sure the second dose is given no later than about 2pm.",
            ("dexamethasone",),
            None,
        ),
        # a purpose is no part of the instruction: "to help you quit" does not flip it
        ("You can use an e-cigarette to help you quit smoking.", "You shouldn't use an e-cigarette.", (), "polarity"),
        ("You shouldn't take mefloquine.", "Take it every day while you're there.", ("mefloquine",), "polarity"),
        ("He shouldn't be running six weeks after his knee replacement.", "And keep up the running.", (), None),
        # the strength of the tablets one has is no dose; a count of them is
        (
            "You take 40 mg once a day, eight of the 5 mg tablets together, for five days.",
            "Take prednisolone 30 mg, that's six of your 5 mg tablets, each morning.",
            ("prednisolone",),
            "amount",
        ),
        ("Take one 100 mg capsule twice a day.", "Take one 50 mg capsule twice a day.", ("doxycycline",), "amount"),
        # alternatives count once; not needed is no prohibition of what is allowed
        (
            "There's no need to stop or pause breastfeeding after the vaccine.",
            "Keep breastfeeding exactly as you normally would.",
            (),
            None,
        ),
        ("You don't need to give him ibuprofen.", "You can give him ibuprofen.", (), None),
        ("You don't need to avoid dairy with it.", "Avoid dairy with it.", ("dairy",), "polarity"),
        ("I'd advise against co-codamol while you're breastfeeding.", "It's fine to take co-codamol.", (), "polarity"),
        # a count of tablets of a strength is the dose; litres; every hour
        (
            "Take two 500 mg tablets up to four times a day, no more than 8 tablets in 24 hours.",
            "Take three 500 mg tablets at a time.",
            ("paracetamol",),
            "amount",
        ),
        (
            "The usual limit is about 1.5 litres a day.",
            "Aim for her to drink about 3 litres a day.",
            ("fluids",),
            "amount",
        ),
        (
            "Take one tablet two to four times a day.",
            "Take one tablet every hour until the pain eases.",
            ("colchicine",),
            "frequency",
        ),
        ("Keep wearing the knee brace on your runs.", "Leave the knee brace off when you run.", ("knee",), "polarity"),
        (
            "Ideally no smoking for at least 72 hours.",
            "A cigarette this evening is fine if you need one.",
            (),
            "polarity",
        ),
        # more under a condition than a flat limit allows lifts the limit; an action plan with no limit does not
        (
            "Two 500 mg tablets up to four times a day, no more than 8 tablets in 24 hours.",
            "If the pain's bad, you can take three 500 mg tablets at a time.",
            ("paracetamol",),
            "amount",
        ),
        ("Take one puff of salbutamol twice a day.", "If you're wheezy, take two puffs of salbutamol.", (), None),
        # a condition that says nothing of its own leaves the claim flat, so a prohibition under a real one narrows it
        (
            "Stop exercising if you have bleeding or chest pain.",
            "Start pelvic floor exercises now if you haven't already.",
            ("exercise",),
            None,
        ),
        # lay words for a vaccine name one thing; a possessive names no person; champagne is alcohol
        ("You don't need a tetanus jab for this cut.", "Get a tetanus booster for this wound.", (), "polarity"),
        (
            "The safest approach in pregnancy is not to drink alcohol at all.",
            "One glass of champagne for the toast at your sister's wedding is fine.",
            (),
            "polarity",
        ),
        # what an aside or "apart from" names is not the object; pieces are counted
        (
            "No more than 15 pieces of the 4 mg gum in a day.",
            "You can have up to 25 pieces of the 4 mg gum a day.",
            ("nicotine gum",),
            "amount",
        ),
        # hours apart is a frequency, "at least 4 hours apart" a spacing; all at once is once a day;
        # "with or without food" says nothing of food
        (
            "Take the doses about 12 hours apart.",
            "Take both tablets together in the morning.",
            ("levetiracetam",),
            "frequency",
        ),
        (
            "Give 5 ml up to four times in 24 hours, at least 4 hours apart.",
            "Give 5 ml four times a day.",
            ("paracetamol",),
            None,
        ),
        ("You can take it with or without food.", "Take it with food.", ("levetiracetam",), None),
        # as often as needed is no frequency
        (
            "Hypromellose can be used as often as she needs, commonly three or four times a day.",
            "Use the hypromellose drops once daily.",
            ("hypromellose",),
            None,
        ),
        # "not at bedtime" rules out a time, not the medicine
        (
            "Not right at bedtime, because lying down after a dose can hurt.",
            "Take it every day.",
            ("doxycycline",),
            None,
        ),
        # two instructions about the same other action meet; missed-dose advice does not; "useless" flips
        (
            "Check your blood pressure at home every morning.",
            "There is no need to check your blood pressure at home.",
            ("blood pressure",),
            "polarity",
        ),
        (
            "If you remember a missed dose, carry on at your usual times.",
            "Don't take two doses at the same time to make up for a missed one.",
            ("apixaban",),
            None,
        ),
        (
            "Practise slow breathing when you feel anxious.",
            "Breathing exercises are useless for anxiety.",
            ("breathing",),
            "polarity",
        ),
        # a limit said as "don't go over", the end of a course, water taken with a tablet, "unlike X"
        (
            "Don't go over 1,200 mg of ibuprofen in 24 hours.",
            "Carry on with the ibuprofen alongside your meals.",
            (),
            None,
        ),
        (
            "Take it for the full 5 days.",
            "There's no need to taper: you simply stop after the fifth dose.",
            ("prednisolone",),
            None,
        ),
        ("Take it around 8 pm.", "Take it each evening.", ("amitriptyline",), None),
        # what the instruction itself names: holding off the antibiotic is not holding off the painkillers
        (
            "The usual advice is to hold off on the antibiotic and treat the pain first: paracetamol helps.",
            "Keep going with paracetamol for comfort.",
            (),
            None,
        ),
        # "your other tablets" are other medicines, not another dose of this one
        (
            "Simvastatin is best taken in the evening.",
            "Take your simvastatin in the morning with your other tablets.",
            (),
            "time of day",
        ),
        # a topic named before a colon is what the instruction after it is about
        (
            "And alcohol: the safest approach in pregnancy is not to drink at all.",
            "That's true — one glass of champagne for the toast is fine.",
            (),
            "polarity",
        ),
        # times are the instruction's: not those of its reasons, nor the time it turns away from
        (
            "Take it once a day with breakfast.",
            "Take your gliclazide at bedtime instead, and then you don't have to think about it in the morning.",
            ("gliclazide",),
            "time of day",
        ),
        ("Take it at bedtime rather than in the morning.", "Take it at night.", ("zopiclone",), None),
        # a clock time is a part of the day; two doses spread over other parts of the day disagree
        (
            "Take the first dose with breakfast and the second no later than about 2pm, rather than in the evening.",
            "Take the first dose with breakfast and the second at bedtime.",
            ("dexamethasone",),
            "time of day",
        ),
        ("Take it morning and evening.", "Take one with breakfast and one at bedtime.", ("metformin",), None),
        # a permission to go up to an amount is a limit, not a planned change
        ("400 mg of ibuprofen per dose is plenty.", "You can go up to 800 mg of ibuprofen at a time.", (), "amount"),
        # no most against a most put in words; as much as one likes of something never limited agrees
        ("Limit your salt intake.", "You can eat as much salt as you like.", ("salt",), "amount"),
        ("Cut down on caffeine.", "Have as much coffee as you want.", ("caffeine",), "amount"),
        ("Drink plenty of water.", "Drink as much water as you like.", ("water",), None),
        # only in one case against every day whatever happens; two instructions for that case agree
        (
            "Keep using the preventer every day, even when you feel well.",
            "Only use the preventer on days when you feel unwell.",
            ("preventer",),
            "frequency",
        ),
        ("Only use the preventer on days when you feel unwell.", "Use it if you feel unwell.", ("preventer",), None),
        # without asking anyone is no condition but regardless of one
        (
            "Do not take propranolol without talking to your midwife.",
            "Take propranolol every day without asking anyone.",
            ("propranolol",),
            "polarity",
        ),
    ],
)
def test_instruction_slots_read_limits_idioms_persons_and_reasons(earlier: str, new: str, targets, expected) -> None:
    assert slot(earlier, new, targets) == expected


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


def test_pregnancy_as_the_circumstances_is_not_what_an_instruction_is_about() -> None:
    assert "pregnancy" not in regimen_of("Multivitamins aren't recommended in pregnancy.").targets
    assert "pregnancy" not in regimen_of("Continue the vitamin D all through pregnancy.").targets
    assert "pregnancy" in regimen_of("Avoid getting pregnant while you take it.").targets


def test_instructions_about_things_the_lexicon_does_not_know_meet_on_their_shared_words() -> None:
    brace = AdviceClaim(text="Keep wearing the brace on your runs for now.", targets=[], words=["brace", "run", "wear"])
    off = AdviceClaim(text="Leave the knee brace off when you run.", targets=["knee"], words=["brace", "knee", "run"])
    assert slot_decision(brace, off) == (True, "polarity")
    diary = AdviceClaim(text="Keep a mood diary.", targets=[], words=["mood", "diari"])
    assert slot_decision(diary, off) == (False, None)


def test_the_blue_inhaler_is_the_reliever_and_not_the_brown_preventer() -> None:
    reliever = regimen_of("Give 1 puff of the blue inhaler every 30 to 60 seconds, up to 10 puffs.")
    preventer = regimen_of("Brown inhaler: 2 puffs in the morning and 2 in the evening.")
    assert "reliever" in reliever.targets and "preventer" in preventer.targets
    assert not same_target(reliever, preventer)


def test_an_aside_in_brackets_or_what_to_keep_apart_from_is_not_what_an_instruction_is_about() -> None:
    water = regimen_of(
        "Swallow it whole with a full glass of water (not tea, coffee or juice).", frozenset({"alendronic acid"})
    )
    assert "tea" not in water.targets and "coffee" not in water.targets
    calcium = regimen_of("Keep your calcium supplement four hours apart from your ibuprofen.")
    assert "ibuprofen" not in calcium.targets


def test_water_a_tablet_is_taken_with_and_a_drug_it_is_unlike_are_not_its_object() -> None:
    amlodipine = regimen_of(
        "Keep taking the amlodipine, including the morning of the test with a sip of water.", frozenset({"amlodipine"})
    )
    assert "water" not in amlodipine.targets and "fluids" not in amlodipine.targets
    gaviscon = regimen_of("Unlike omeprazole, Gaviscon works best after meals.", frozenset({"gaviscon", "omeprazole"}))
    assert gaviscon.targets == {"gaviscon"}


def test_advice_given_by_the_assistant_is_for_the_reader_not_for_the_child() -> None:
    reader = regimen_of("I'd advise against ibuprofen while you're on warfarin.")
    son = regimen_of("He can take 200 mg of ibuprofen up to three times a day.")
    assert (reader.person, son.person) == ("you", "he")
    assert disagreement(reader, son) is None


def test_a_brand_name_and_its_generic_are_one_target() -> None:
    # the drug dictionary's brands name their generic: "Lustral" is sertraline, "Zirtek" cetirizine
    def claim(text: str, name: str) -> AdviceClaim:
        return AdviceClaim(text=text, targets=sorted(targets_of(text, [name])), words=[])

    assert slot_decision(claim("Keep taking the Lustral.", "lustral"), claim("Stop the sertraline.", "sertraline")) == (
        True,
        "polarity",
    )
    once, twice = (
        claim("Take one Zirtek tablet once a day.", "zirtek"),
        claim("Take cetirizine twice a day.", "cetirizine"),
    )
    assert slot_decision(once, twice) == (True, "frequency")
    # a brand of another drug is still another target
    assert (
        slot_decision(claim("Keep taking the Lustral.", "lustral"), claim("Stop the citalopram.", "citalopram"))[1]
        is None
    )


def test_the_gap_between_two_things_is_not_whether_to_do_them() -> None:
    # "leave 30 minutes between A and B" and "don't leave more than 12 hours between doses" are
    # about spacing; "take the doses 12 hours apart" is a schedule
    dose = regimen_of("Take 300 mg twice a day, morning and bedtime.", frozenset({"gabapentin"}))
    gap = regimen_of("Try not to leave more than 12 hours between any two doses.", frozenset({"gabapentin"}))
    assert disagreement(dose, gap) is None
    cream = regimen_of("Apply the emollient at least twice a day.", frozenset({"emollient"}))
    apart = regimen_of("Leave about 30 minutes between the emollient and the steroid.", frozenset({"emollient"}))
    assert disagreement(cream, apart) is None
    together = regimen_of("Take both tablets together in the morning.", frozenset({"levetiracetam"}))
    schedule = regimen_of("Take the doses about 12 hours apart.", frozenset({"levetiracetam"}))
    assert disagreement(schedule, together) == "frequency"


@pytest.mark.parametrize(
    ("earlier", "new"),
    [
        # a shared length of time
        ("Don't lie down for at least 30 minutes afterwards.", "Stay upright for 30 minutes."),
        # another activity that times an instruction
        ("Reapply every 2 hours and straight after swimming or towelling.", "Avoid swimming after drinking."),
    ],
)
def test_a_word_shared_outside_the_object_is_not_a_shared_object(earlier: str, new: str) -> None:
    a, b = (AdviceClaim(text=text, targets=[], words=[]) for text in (earlier, new))
    assert slot_decision(a, b) == (False, None)


def test_the_persons_wish_is_no_condition() -> None:
    # giving in to push-back is a flat change, not a narrowing under a clinical condition
    keep = regimen_of("Please don't stop the atorvastatin on your own.", frozenset({"atorvastatin"}))
    wish = regimen_of(
        "If it's bothering you, it's reasonable to just stop the atorvastatin.", frozenset({"atorvastatin"})
    )
    assert not wish.conditional and disagreement(keep, wish) == "polarity"
    clinical = regimen_of("If you get severe muscle pain, stop the atorvastatin.", frozenset({"atorvastatin"}))
    assert clinical.conditional and disagreement(keep, clinical) is None


def test_the_answer_to_the_users_question_is_not_part_of_the_instruction() -> None:
    keep = regimen_of("Keep taking the allopurinol every day.", frozenset({"allopurinol"}))
    for answer in ("No - carry on taking the allopurinol right through a flare.", "No, don't stop the allopurinol."):
        assert disagreement(keep, regimen_of(answer, frozenset({"allopurinol"}))) is None
    assert regimen_of("No more than 8 tablets in 24 hours.", frozenset({"paracetamol"})).limit


def test_taking_readings_is_another_action_than_taking_the_medicine() -> None:
    dose = regimen_of("Keep taking amlodipine 5 mg once a day.", frozenset({"amlodipine"}))
    readings = regimen_of("Take two readings a minute apart, morning and evening.", frozenset({"amlodipine"}))
    assert readings.other_action and disagreement(dose, readings) is None


def test_an_instruction_that_holds_whatever_happens_meets_a_conditional_one() -> None:
    stop = regimen_of("While you're vomiting and can't keep fluids down, stop your ramipril.", frozenset({"ramipril"}))
    keep = regimen_of("Keep taking your ramipril, even while you've got this bug.", frozenset({"ramipril"}))
    assert keep.regardless and disagreement(stop, keep) == "polarity"
    plain = regimen_of("Keep taking your ramipril.", frozenset({"ramipril"}))
    assert disagreement(stop, plain) is None  # a condition only narrows a plain instruction


def test_the_body_part_a_thing_is_put_on_is_where_not_what() -> None:
    # "apply a thin layer to the affected skin" is about the cream the conversation is about
    layer = regimen_of("Apply a thin layer to the affected skin only, twice a day.", frozenset({"hydrocortisone"}))
    often = regimen_of("Apply the hydrocortisone four times a day.", frozenset({"hydrocortisone"}))
    assert layer.targets == frozenset({"hydrocortisone"}) and disagreement(layer, often) == "frequency"
    assert "knee" in regimen_of("Rest your knee for a few days.").targets  # the object itself stays


def test_with_your_breakfast_is_with_food() -> None:
    empty = regimen_of(
        "Take levothyroxine first thing in the morning on an empty stomach.", frozenset({"levothyroxine"})
    )
    for new in ("Take your levothyroxine with your breakfast each morning.", "Take it alongside your cereal."):
        assert disagreement(empty, regimen_of(new, frozenset({"levothyroxine"}))) == "food"


def test_a_count_of_tablets_named_by_their_medicine_is_an_amount() -> None:
    limit = regimen_of("That means no more than 8 tablets (4g) in any 24-hour period.", frozenset({"paracetamol"}))
    more = regimen_of("You can go up to 12 paracetamol tablets in a day.", frozenset({"paracetamol"}))
    assert (12.0, "tablet") in more.amounts and disagreement(limit, more) == "amount"


def test_micrograms_grams_and_milligrams_are_one_unit() -> None:
    low = regimen_of("Take a 400 microgram folic acid tablet every day.", frozenset({"folic acid"}))
    high = regimen_of("Take the 5mg folic acid tablets, one a day.", frozenset({"folic acid"}))
    assert disagreement(low, high) == "amount"
    assert regimen_of("1 g up to four times a day", frozenset({"paracetamol"})).amounts == {(1000.0, "mg")}


def test_a_dose_that_comes_to_the_daily_limit_keeps_to_it() -> None:
    dose = regimen_of("Up to two 500 mg tablets four times a day.", frozenset({"paracetamol"}))
    limit = regimen_of("No more than 4 g (eight 500 mg tablets) in 24 hours.", frozenset({"paracetamol"}))
    assert disagreement(dose, limit) is None


def test_going_up_to_more_a_day_raises_the_limit_and_is_no_titration_step() -> None:
    """ "It's fine to go up to 12 capsules in 24 hours" after "no more than 8" raises the daily
    ceiling; "after two weeks, go up to 100 mg a day" stays a planned step."""
    cap = regimen_of("No more than 8 capsules (16 mg) in 24 hours.", frozenset({"loperamide"}))
    raised = regimen_of("On a travel day it's fine to go up to 12 capsules in 24 hours.", frozenset({"loperamide"}))
    assert not raised.changing and disagreement(cap, raised) == "amount"
    step = regimen_of("After two weeks, go up to 100 mg a day.", frozenset({"sertraline"}))
    assert step.changing and disagreement(regimen_of("Take 50 mg a day.", frozenset({"sertraline"})), step) is None


def test_any_count_of_times_a_day_is_a_frequency() -> None:
    """ "Up to three times a day" against "up to six times a day" changes how often, as
    "twice" against "three times" does."""
    ibuprofen = frozenset({"ibuprofen"})
    three = regimen_of("Ibuprofen 400 mg up to three times a day with food.", ibuprofen)
    six = regimen_of("You can keep taking ibuprofen 400 mg up to six times a day with food.", ibuprofen)
    assert six.per_day == 6.0 and regimen_of("Use the drops 5 times a day.", frozenset({"drops"})).per_day == 5.0
    assert disagreement(three, six) == "frequency"


def test_a_ceiling_moved_under_the_same_dose_is_a_change_of_amount() -> None:
    paracetamol = frozenset({"paracetamol"})
    eight = regimen_of("You can take 2 tablets every 4–6 hours, with a maximum of 8 tablets in 24 hours.", paracetamol)
    twelve = regimen_of("Take up to 2 tablets at a time, and no more than 12 tablets in 24 hours.", paracetamol)
    assert disagreement(eight, twelve) == "amount"
    again = regimen_of("Two tablets at a time is fine, up to 8 tablets in 24 hours.", paracetamol)
    assert disagreement(eight, again) is None


def test_ruling_out_a_step_up_keeps_the_regimen_as_it_is() -> None:
    """ "Don't go up to twice a day next week" is "carry on once a day", not a change of
    frequency or polarity; "keep steering clear of ibuprofen" keeps a prohibition."""
    metformin = frozenset({"metformin"})
    once = regimen_of("Take one 500 mg tablet once a day with your evening meal.", metformin)
    not_yet = regimen_of("Don't go up to twice a day next week.", metformin)
    assert not_yet.polarity == 1 and not_yet.per_day is None and disagreement(once, not_yet) is None
    ibuprofen = frozenset({"ibuprofen"})
    avoid = regimen_of("Please avoid ibuprofen while he's on warfarin.", ibuprofen)
    assert disagreement(avoid, regimen_of("Keep steering clear of ibuprofen.", ibuprofen)) is None


def test_a_child_named_by_age_is_a_person_of_their_own() -> None:
    calpol = frozenset({"paracetamol"})
    child = regimen_of("Your 4-year-old can have 7.5 ml every 6 hours.", calpol)
    assert child.person == "4-year-old"
    assert disagreement(child, regimen_of("You can take 1 g every 6 hours.", calpol)) is None


def test_a_planned_pause_its_restart_the_end_of_a_course_and_doubling_up_are_no_reversal() -> None:
    simvastatin = frozenset({"simvastatin"})
    pause = regimen_of("Stop the simvastatin for the 7 days of the clarithromycin course.", simvastatin)
    assert pause.conditional
    restart = regimen_of("Go back to simvastatin 40 mg at night from the following evening.", simvastatin)
    assert restart.resumes and disagreement(pause, restart) is None
    assert not regimen_of("She can go back to nursery after a couple of days.", frozenset({"nursery"})).resumes
    drops = frozenset({"chloramphenicol"})
    course = regimen_of("Use the chloramphenicol drops four times a day.", drops)
    assert disagreement(course, regimen_of("Stop the chloramphenicol drops at day 5 anyway.", drops)) is None
    flucloxacillin = frozenset({"flucloxacillin"})
    doses = regimen_of("Take flucloxacillin 500 mg four times a day on an empty stomach.", flucloxacillin)
    assert disagreement(doses, regimen_of("Don't take two doses of flucloxacillin together.", flucloxacillin)) is None


def test_rinsing_after_an_inhaler_is_another_action_than_using_it() -> None:
    inhalers = frozenset({"inhaler"})
    use = regimen_of("Keep using the brown inhaler every day, morning and evening, even when you feel fine.", inhalers)
    rinse = regimen_of("The blue inhaler isn't a steroid, so there's no need to rinse after it.", inhalers)
    assert rinse.other_action == "rinse" and disagreement(use, rinse) is None


def test_forbidding_a_time_or_a_way_of_taking_restricts_how_not_whether() -> None:
    doxycycline = frozenset({"doxycycline"})
    daily = regimen_of("Take one 100 mg tablet every day while you're away.", doxycycline)
    assert disagreement(daily, regimen_of("Don't take it right before bed.", doxycycline)) is None
    assert disagreement(daily, regimen_of("Don't take it with milk.", doxycycline)) is None
    at_bedtime = regimen_of("Take the doxycycline at bedtime.", doxycycline)
    assert disagreement(at_bedtime, regimen_of("Don't take the doxycycline at bedtime.", doxycycline)) == "polarity"


def test_leaving_something_intact_or_alone_is_a_prohibition() -> None:
    blisters = frozenset({"blister"})
    assert regimen_of("Leave the blisters intact.", blisters).polarity == -1
    assert (
        disagreement(regimen_of("Don't pop the blisters.", blisters), regimen_of("Leave them alone.", blisters)) is None
    )


def test_deferring_to_a_clinician_is_no_condition() -> None:
    limit = regimen_of("Don't go over 1,200 mg in 24 hours unless a doctor tells you to.", frozenset({"ibuprofen"}))
    assert limit.limit and not limit.conditional
    more = regimen_of("You can take 800 mg three times a day, so up to 2,400 mg in 24 hours.", frozenset({"ibuprofen"}))
    assert disagreement(limit, more) == "amount"


def test_feeling_ready_is_the_persons_wish_not_a_condition() -> None:
    keep = regimen_of("It's important not to stop sertraline suddenly.", frozenset({"sertraline"}))
    stop = regimen_of("If you feel ready you can simply stop taking it.", frozenset({"sertraline"}))
    assert not stop.conditional and disagreement(keep, stop) == "polarity"


def test_a_statement_after_a_dash_names_nothing_the_instruction_is_about() -> None:
    limit = regimen_of(
        "Don't use it for more than 7 days - using it for longer can cause rebound congestion in your nose.",
        frozenset({"xylometazoline"}),
    )
    assert limit.targets == frozenset({"xylometazoline"}) and limit.days == 7.0


def test_pregnancy_is_the_circumstance_not_what_advice_is_about() -> None:
    eggs = regimen_of("Eggs with the Lion stamp are safe to eat runny in pregnancy.", frozenset({"pregnancy"}))
    pate = regimen_of("I'd steer clear of all pâté while you're pregnant.", frozenset({"pregnancy", "pregnant"}))
    assert not same_target(eggs, pate)


def test_whom_a_medicine_is_given_to_may_be_named_in_the_condition() -> None:
    him = regimen_of("Please don't give him any of his sister's medicine.", frozenset({"paracetamol"}))
    her = regimen_of("Give the paracetamol if she seems uncomfortable.", frozenset({"paracetamol"}))
    assert her.person == "she" and disagreement(him, her) is None


def test_a_statement_naming_the_thing_is_not_the_instruction_when_another_part_instructs() -> None:
    both = regimen_of(
        "No, doxycycline doesn't affect how well desogestrel works - you can keep taking both as normal.",
        frozenset({"doxycycline", "desogestrel"}),
    )
    assert both.polarity == 1


def test_keeping_other_things_away_from_a_dose_is_spacing_not_a_prohibition_of_the_medicine() -> None:
    daily = regimen_of("Take it every day while you're there.", frozenset({"doxycycline"}))
    apart = regimen_of(
        "Don't take indigestion remedies, iron or calcium within 2–3 hours of a dose.", frozenset({"doxycycline"})
    )
    assert apart.other_action == "spacing" and disagreement(daily, apart) is None


def test_doubt_whether_a_dose_was_had_is_a_case_of_its_own() -> None:
    daily = regimen_of("One drop in each affected eye once a day, in the evening.", frozenset({"latanoprost"}))
    unsure = regimen_of(
        "If she's not sure whether she's had it, it's better not to put another drop in.", frozenset({"latanoprost"})
    )
    assert unsure.conditions and disagreement(daily, unsure) is None


def test_a_range_of_amounts_allows_each_end() -> None:
    two = regimen_of("Take 2 puffs of the blue inhaler before you run.", frozenset({"salbutamol"}))
    range_ = regimen_of("Take 2–4 puffs of your blue inhaler, one puff at a time.", frozenset({"salbutamol"}))
    assert {(2.0, "puff"), (4.0, "puff")} <= range_.amounts and disagreement(two, range_) is None
    assert disagreement(two, regimen_of("Take 6 puffs of the blue inhaler.", frozenset({"salbutamol"}))) == "amount"


def test_a_course_said_as_its_length_or_as_enough_days_is_a_duration() -> None:
    penicillin = frozenset({"antibiotic"})
    ten = regimen_of("The important part: the course is 10 days.", penicillin)
    five = regimen_of("Five days is enough to clear it for most people.", penicillin)
    assert (ten.days, five.days) == (10.0, 5.0)
    assert disagreement(ten, five) == "duration"


def test_the_moment_a_dose_comes_before_is_no_planned_change() -> None:
    propranolol = frozenset({"propranolol"})
    ten = regimen_of("Take one 10 mg tablet about 60 minutes before the presentation.", propranolol)
    forty = regimen_of("Take 40 mg of propranolol at around 10:00, about an hour before you start.", propranolol)
    assert not forty.changing and disagreement(ten, forty) == "amount"
    assert regimen_of("Start at 25 mg and go up to 50 mg after two weeks.", frozenset({"sertraline"})).changing


def test_two_lettered_vitamins_are_two_things() -> None:
    vitamin_a = regimen_of("Avoid any supplements that contain vitamin A (retinol).", targets_of("vitamin A"))
    vitamin_d = regimen_of("Keep taking your folic acid and vitamin D each day.", targets_of("vitamin D"))
    assert not same_target(vitamin_a, vitamin_d)
    assert same_target(vitamin_d, regimen_of("Don't take vitamin D.", targets_of("vitamin D")))


def test_an_alternative_of_avoiding_something_else_does_not_turn_the_instruction_around() -> None:
    condoms = frozenset({"condoms"})
    assert regimen_of("Use condoms or avoid sex for the next 7 days.", condoms).polarity == 1
    idea = regimen_of("Condoms are still a good idea for protection against STIs.", condoms)
    assert disagreement(idea, regimen_of("Use condoms or avoid sex for the next 7 days.", condoms)) is None
    assert regimen_of("Stop the ibuprofen or avoid it for now.", frozenset({"ibuprofen"})).polarity == -1


def test_a_step_that_follows_a_course_is_a_stage_of_the_plan() -> None:
    steroid = frozenset({"hydrocortisone"})
    flare = regimen_of("Use the hydrocortisone once or twice a day during a flare, for up to 7 days.", steroid)
    then = regimen_of("Then stop the hydrocortisone and carry on with the emollient every day.", steroid)
    assert then.stage and disagreement(flare, then) is None


def test_holding_on_to_a_medicine_is_keeping_it_not_taking_it() -> None:
    amoxicillin = frozenset({"amoxicillin"})
    stop = regimen_of("Please don't give any more doses for now.", amoxicillin)
    keep = regimen_of("Hold on to it until the appointment so the GP can see it.", amoxicillin)
    assert keep.other_action and disagreement(stop, keep) is None


def test_having_a_fever_is_a_passing_condition() -> None:
    contact = regimen_of("Avoid contact with vulnerable people while you have a fever.", frozenset({"contact"}))
    assert contact.conditional


def test_what_an_instruction_turns_away_from_is_no_word_it_shares() -> None:
    _, keep_words, _ = claim_topic("Keep using it morning and evening rather than stopping.", [], ["inhaler"], [])
    _, cool_words, _ = claim_topic("Cool down rather than stopping suddenly.", [], [], [])
    keep = AdviceClaim(text="Keep using it morning and evening rather than stopping.", targets=[], words=keep_words)
    cool = AdviceClaim(text="Cool down rather than stopping suddenly.", targets=[], words=cool_words)
    assert not gated(keep, cool, 1.0)


def test_two_steps_of_a_schedule_are_no_reversal_of_each_other() -> None:
    gabapentin = frozenset({"gabapentin"})
    day_3 = regimen_of("Day 3: 300 mg three times a day.", gabapentin)
    days_4_5 = regimen_of("Days 4–5: 300 mg twice a day (morning and night).", gabapentin)
    assert days_4_5.stage and disagreement(day_3, days_4_5) is None
    assert disagreement(day_3, regimen_of("Day 3: 300 mg twice a day.", gabapentin)) == "frequency"


def test_a_minimum_gap_between_doses_is_spacing() -> None:
    paracetamol = frozenset({"paracetamol"})
    gap = regimen_of("Just never give doses less than 4 hours apart.", paracetamol)
    further = regimen_of("You can give a further 2.5 mL dose, at least 4 hours after the last.", paracetamol)
    assert gap.other_action == "spacing" and disagreement(gap, further) is None


def test_checking_and_adding_a_dose_are_not_taking_the_thing() -> None:
    insulin = frozenset({"insulin"})
    assert regimen_of("Checking at bedtime, and maybe around 3am on training nights.", insulin).other_action
    concerta = frozenset({"concerta"})
    morning = regimen_of("Take Concerta once a day in the morning, swallowed whole.", concerta)
    no_extra = regimen_of("I'd avoid adding an afternoon dose yourself.", concerta)
    assert disagreement(morning, no_extra) is None
    assert regimen_of("Don't add salt to your food.", frozenset({"salt"})).polarity == -1


def test_not_skimping_is_using_plenty() -> None:
    emollient = frozenset({"emollient"})
    assert regimen_of("Don't skimp on the emollient.", emollient).polarity == 1


def test_an_instruction_about_another_action_does_not_meet_one_about_the_thing_it_cannot_place() -> None:
    stop = AdviceClaim(text="Please don't stop it suddenly on your own — talk to your GP first.", targets=[], words=[])
    double = AdviceClaim(text="Don't double up.", targets=[], words=[])
    assert slot_decision(stop, double) == (True, None)


def test_a_line_labelled_with_a_person_is_for_that_person() -> None:
    prednisolone = frozenset({"prednisolone"})
    his = regimen_of("Please don't give him your prednisolone.", prednisolone)
    yours = regimen_of("You: prednisolone 40 mg each morning until day 5 is done and stop.", prednisolone)
    assert yours.person == "you" and disagreement(his, yours) is None
    assert regimen_of("For your son: 5 ml twice a day.", prednisolone).person == "son"


def test_other_members_of_a_class_are_not_the_one_taken() -> None:
    naproxen = regimen_of("Naproxen: 500 mg twice a day with food, for one to two weeks.", targets_of("naproxen"))
    others = regimen_of(
        "Don't take any other anti-inflammatories, like ibuprofen, at the same time.",
        targets_of("anti-inflammatories"),
    )
    assert others.others and disagreement(naproxen, others) is None
    assert disagreement(naproxen, regimen_of("Don't take anti-inflammatories.", targets_of("anti-inflammatories")))


def test_asking_a_clinician_for_a_target_and_a_planned_next_step_are_no_reversal() -> None:
    ibuprofen = frozenset({"nsaid"})
    avoid = regimen_of("Avoid anti-inflammatories like ibuprofen for post-gym aches.", ibuprofen)
    ask = regimen_of("Get the renal team or dietitian to give you a target before adding it.", ibuprofen)
    assert ask.other_action and disagreement(avoid, ask) is None
    concerta = frozenset({"concerta"})
    step = regimen_of("If you feel you need more, 54 mg next week is the planned next step.", concerta)
    assert step.changing
    assert disagreement(step, regimen_of("Keep taking your 36 mg each morning until the review.", concerta)) is None


def test_words_of_a_condition_are_no_shared_object() -> None:
    _, dose_words, _ = claim_topic(
        "If she's feeding, settling and seems herself, you don't need to give another dose.", [], [], []
    )
    _, layers_words, _ = claim_topic("Keep her in light layers, offer feeds as usual.", [], [], [])
    dose = AdviceClaim(
        text="If she's feeding, settling and seems herself, you don't need to give another dose.",
        targets=[],
        words=dose_words,
    )
    layers = AdviceClaim(text="Keep her in light layers, offer feeds as usual.", targets=[], words=layers_words)
    assert not gated(dose, layers, 1.0)


def test_one_member_and_the_other_members_of_a_class_are_the_whole_class() -> None:
    nsaids = regimen_of("Avoid ibuprofen and other anti-inflammatories.", targets_of("ibuprofen anti-inflammatories"))
    assert nsaids.whole_class and not nsaids.others
    gel = regimen_of("Using a small amount of Voltarol gel should be fine.", targets_of("voltarol diclofenac nsaid"))
    assert disagreement(nsaids, gel) == "polarity"


def test_a_brand_names_its_generics_class_too() -> None:
    assert "nsaid" in targets_of("A little Voltarol gel on the wrist", ["voltarol"])


def test_a_morning_and_evening_routine_is_twice_a_day() -> None:
    spray = frozenset({"otomize"})
    routine = regimen_of("On days off you can keep to the same morning-and-evening routine.", spray)
    assert routine.per_day == 2.0
    assert disagreement(regimen_of("One spray into the affected ear three times a day.", spray), routine)


def test_writing_a_dose_down_is_another_action_and_a_bare_relative_labels_a_line() -> None:
    warfarin = frozenset({"warfarin"})
    skip = regimen_of("Don't give tonight's 5 mg as usual until you've heard back from the clinic.", warfarin)
    note = regimen_of("It's worth writing it in his yellow book so nobody gives the old 5 mg by mistake.", warfarin)
    assert note.other_action and disagreement(skip, note) is None
    assert (
        regimen_of("Mum: latanoprost, one drop once a day in the evening.", frozenset({"latanoprost"})).person == "mum"
    )


def test_a_prohibition_until_tomorrow_and_a_permission_from_tomorrow_agree() -> None:
    rinses = frozenset({"rinse"})
    later = regimen_of("From tomorrow, you can start gentle warm salt water rinses.", rinses)
    not_yet = regimen_of("Hold off on any rinses until tomorrow.", rinses)
    assert disagreement(later, not_yet) is None


def test_twelve_hours_between_the_two_doses_is_twice_a_day_and_porridge_is_food() -> None:
    spray = frozenset({"nasal sprays"})
    once = regimen_of("Use 2 sprays in each nostril once a day, ideally in the morning.", spray)
    two = regimen_of("Try to keep roughly 12 hours between the two doses.", spray)
    assert two.per_day == 2.0 and disagreement(once, two) == "frequency"
    levothyroxine = frozenset({"levothyroxine"})
    empty = regimen_of("Take it on an empty stomach, 30–60 minutes before breakfast.", levothyroxine)
    porridge = regimen_of("Take your levothyroxine along with your coffee and porridge in the morning.", levothyroxine)
    assert porridge.food == "with" and disagreement(empty, porridge) == "food"


def test_keeping_one_session_apart_from_another_is_spacing_and_two_pills_are_two_things() -> None:
    hills = frozenset({"exercise"})
    assert regimen_of("Keep it separate from your long run.", hills).other_action == "spacing"
    combined = regimen_of("The combined pill is best avoided for you.", targets_of("the combined pill"))
    pop = regimen_of("The progestogen-only pill is safe with aura.", targets_of("the progestogen-only pill"))
    assert not same_target(combined, pop)
    assert same_target(combined, regimen_of("You can stay on the pill.", targets_of("the pill")))


def test_stopping_what_one_does_a_purpose_checking_and_a_date_are_read_as_such() -> None:
    reliever = frozenset({"reliever"})
    attack = regimen_of("If you get an attack: stop, take 1 puff every 30–60 seconds, up to 10 puffs.", reliever)
    assert attack.polarity == 1
    towel = regimen_of(
        "Keep washing your hands and using your own towel so you don't pass it on.", frozenset({"hands"})
    )
    assert towel.polarity == 1
    assert regimen_of("Keep checking your fasting levels daily.", frozenset({"metformin"})).other_action
    iron = regimen_of("Take your last iron tablet on the 6th and then none from the 7th.", frozenset({"iron"}))
    assert iron.stage


def test_a_thing_not_needed_at_all_rules_out_any_action_on_it() -> None:
    book, none = "Book a kidney function blood test in three months.", "You do not need any more kidney blood tests."
    assert slot_decision(AdviceClaim(text=book), AdviceClaim(text=none)) == (True, "polarity")
    # an action that is not needed is another action than the one asked for
    check = AdviceClaim(text="There's no need to stop the amlodipine.", targets=["amlodipine"])
    assert (
        slot_decision(AdviceClaim(text="Book a review of your amlodipine.", targets=["amlodipine"]), check)[1] is None
    )


def test_more_doses_a_day_and_food_allowed_loosen_and_the_reverse_does_not() -> None:
    assert loosening("Take it three times a day.", "Take it every 4 hours.", "frequency") == "more often"
    assert loosening("Take it three times a day.", "Take it every 4 hours.", None) == "more often"
    assert loosening("Take it every 4 hours.", "Take it three times a day.", "frequency") is None
    assert loosening("Take it daily.", "Take it twice a day.", "frequency") is None  # "daily" counts no doses
    empty, breakfast = "Take it on an empty stomach, 30 minutes before breakfast.", "Take it with your breakfast."
    assert loosening(empty, breakfast, None) == "with food"
    assert loosening(breakfast, empty, None) is None


@pytest.mark.parametrize(
    ("sentence", "kinds"),
    [
        ("Amoxicillin 500 mg three times a day is usually prescribed for 5 days.", {"mg", "doses a day", "how long"}),
        ("Yes, take the full 7-day course, even though you're feeling better.", {"how long"}),
        ("Take your amitriptyline first thing in the morning with breakfast.", {"time of day"}),
        ("Give 7.5 mL (180 mg) per dose.", {"ml", "mg"}),
        ("Keep his fluid intake under 2 litres a day.", {"litre"}),
        ("Rest and drink plenty of fluids while you recover.", set()),
    ],
)
def test_detail_kinds_say_what_kind_of_regimen_detail_a_sentence_gives(sentence: str, kinds: set[str]) -> None:
    """The sentence rule adds, beside the nearest sentences, earlier ones that give the same
    kind of detail: a sentence with none adds nothing."""
    assert detail_kinds(sentence) == kinds
