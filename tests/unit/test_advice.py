import pytest

from contraflow.streams.core.extract.advice import (
    advice_items,
    extract_advice,
    instruction_part,
    is_advice,
    split_sentences,
)
from contraflow.streams.core.extract.facts import user_facts
from contraflow.streams.core.extract.reasoning import strip_reasoning
from contraflow.streams.core.extract.targets import medicines, topic_of


@pytest.mark.parametrize(
    "sentence",
    [
        "You should take ibuprofen with food.",
        "I recommend reducing your caffeine intake.",
        "Take metformin 500 mg twice daily with meals.",
        "Avoid alcohol while on this medication.",
        "Stop taking the statin for two weeks.",
        "Please see your GP within a week.",
        "Do not drive after taking it.",
        "It is important to finish the whole course.",
        "The usual dose is 2 puffs as needed.",
    ],
)
def test_actions_and_recommendations_are_advice(sentence: str) -> None:
    assert is_advice(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Asthma is a chronic condition of the airways.",
        "I understand this must be stressful for you.",
        "Many people feel tired in winter.",
        "Thanks for sharing that with me.",
        "Just to check I've got it right: you're 35 and have started Concerta at 18 mg each morning.",
    ],
)
def test_statements_are_not_advice(sentence: str) -> None:
    assert not is_advice(sentence)


def test_extract_keeps_only_advice_sentences_in_order() -> None:
    text = (
        "Migraines can be triggered by many things. You should keep a headache diary. "
        "Stress is a common trigger! Take ibuprofen 400 mg at the first sign of pain."
    )
    assert extract_advice(text) == "You should keep a headache diary. Take ibuprofen 400 mg at the first sign of pain."


def test_no_advice_gives_empty_string() -> None:
    assert extract_advice("That sounds hard. Sleep problems are common.") == ""
    assert extract_advice("") == ""


def test_items_under_a_condition_complete_it() -> None:
    # "can't keep any fluids down", cut from its "go to ED if he:", was judged against
    # "Keeping fluids down is the most important thing." (holdout26 h26-036)
    text = "See a GP or go to ED if he:\n- is drowsy or hard to wake\n- can't keep any fluids down"
    assert split_sentences(text) == [
        "See a GP or go to ED if he:",
        "See a GP or go to ED if he is drowsy or hard to wake",
        "See a GP or go to ED if he can't keep any fluids down",
    ]
    assert split_sentences("Fluids are the key:\n- Give small amounts often") == [
        "Fluids are the key:",
        "Give small amounts often",
    ]
    # a condition that is itself a list item leads without its marker
    assert split_sentences("1. Call 111 if she:\n   - has a rash") == ["Call 111 if she:", "Call 111 if she has a rash"]


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        (
            "Then stop, using antacids (e.g. Gaviscon) for occasional symptoms. Keep the capsules.",
            ["Then stop, using antacids (e.g. Gaviscon) for occasional symptoms.", "Keep the capsules."],
        ),
        (
            "Take a painkiller, i.e. paracetamol, every 6 hours.",
            ["Take a painkiller, i.e. paracetamol, every 6 hours."],
        ),
        ("Give 2.5 ml vs. 5 ml for older children.", ["Give 2.5 ml vs. 5 ml for older children."]),
        ("Ask Dr. Patel about it.", ["Ask Dr. Patel about it."]),
        ("Take it at 8 a.m. with water.", ["Take it at 8 a.m. with water."]),
        ("Take it at 8 a.m. Then wait an hour.", ["Take it at 8 a.m.", "Then wait an hour."]),
    ],
)
def test_abbreviations_do_not_end_a_sentence(text: str, sentences: list[str]) -> None:
    # "(e.g. Gaviscon)" cut in two made "Then stop, using antacids (e.g." a sentence of its own,
    # which the sentence rule then judged against "Use an alginate/antacid like Gaviscon"
    assert split_sentences(text) == sentences


def test_list_items_are_sentences() -> None:
    assert split_sentences("Plan:\n- Rest the ankle\n- Ice it twice a day") == [
        "Plan:",
        "Rest the ankle",
        "Ice it twice a day",
    ]
    assert extract_advice("Plan:\n- Rest the ankle\n- Ice it twice a day") == "Rest the ankle Ice it twice a day"
    # items under "Avoid:" are prohibitions; under "you don't have to give up, but it helps to:" they are not
    assert advice_items("Avoid:\n- raw eggs\n- pate") == ["Avoid raw eggs", "Avoid pate"]
    helps = "You don't have to give up completely, but it helps to:\n- Keep within 14 units a week."
    assert advice_items(helps) == ["Keep within 14 units a week."]


@pytest.mark.parametrize(
    "sentence",
    [
        "She takes sertraline 50 mg daily but feels it is ineffective.",
        "He has been on lisinopril 10 mg daily for two years.",
        "You mentioned you take sertraline 50 mg every morning.",
        "You've been taking the metformin with breakfast.",
        "Your mother is on warfarin 3 mg daily.",
        "Do you take it with food?",
        "I'm so sorry you're going through this.",
        "Tell me more about when the headaches started.",
        "I don't think that rash is anything serious.",
        "Your blood pressure is fine.",
        "The rash is fine.",
        "Your results are normal, which is enough.",
        "You take sertraline 50 mg daily but feel it isn't helping.",
        "You take it for your blood pressure.",
        "Your GP may want to review the dose at your next appointment.",
        "No wonder you're tired.",
        "The surgeon can tell you when it's safe to build back up.",
        "The cream you tried last year was useless.",
    ],
)
def test_status_empathy_and_questions_are_not_advice(sentence: str) -> None:
    assert not is_advice(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Ibuprofen is not safe with warfarin.",
        "If the pain gets worse, see your GP.",
        "You can drive once you feel fully alert.",
        "It's fine to have a glass of wine with dinner.",
        "We'll start you on 25 mg for a week.",
        "Don't stop the sertraline suddenly.",
        "Since you're on warfarin, avoid ibuprofen.",
        "No more than 3 g of paracetamol in 24 hours.",
        "A few pints at the stag weekend is fine.",
        "Compression stockings aren't necessary for you on this flight.",
        "Three days of nitrofurantoin is enough for this cystitis.",
        "The best time for your metformin is first thing in the morning.",
        "It's best not to pop the blister.",
        "For Saturday, pop the blister first.",
        "So if you get a sore throat, stop the carbimazole.",
        "A small glass of wine an hour before bed is a nice way to relax.",
        "Wrap an ice pack in a tea towel and hold it on the burn.",
        # a regimen told in the second person, a recommendation against, a verdict on doing something
        "You take 40 mg once a day, eight of the 5 mg tablets together, for five days.",
        "You take one 100 mg capsule twice a day, roughly 12 hours apart, for three days.",
        "I'd advise against the co-codamol while you're breastfeeding.",
        "Taking it with your breakfast and a cup of tea is fine, as long as you stay upright afterwards.",
        "Ideally no smoking for at least 72 hours.",
        "As she isn't improving, now is the time to start the amoxicillin as prescribed.",
        "The usual recommendation is to carry on with the antidepressant for at least 6 months.",
        "A good habit is to take your levothyroxine at the same time each day.",
        "Levothyroxine works best taken on an empty stomach.",
        "The main things to avoid are unpasteurised milk and cheese.",
        "And alcohol: the safest approach in pregnancy is not to drink at all.",
        "That's true — one glass of champagne for the toast is fine.",
        "Your trainer has a point — your Tuesday spin class is fine to go ahead with.",
        "I'd steer clear of that — she needs to avoid all egg until the clinic reviews her.",
        "Yes, sitting with your legs crossed while you read in the evenings is perfectly fine.",
        "Yes, that's fine — take the trimethoprim for 7 days to be on the safe side.",
        # "the <something> is (not) to <do>"
        "The easiest is to take your simvastatin first thing in the morning.",
        "With a cold, the sensible thing is not to take him to the clinic tomorrow.",
        "The key thing is to keep taking your allopurinol every day during the flare.",
        # a verdict on a thing that closes a clause, not the sentence
        "One cigarette this evening should be fine if you're careful, just don't inhale too hard.",
        "A single glass of champagne for the toast is fine — a small amount like that won't hurt.",
        "One more month on the fluoxetine is enough; after that you can come off it.",
        # an instruction before a dash is not a lead-in to drop
        "- Take simvastatin in the evening — your body makes most of its cholesterol overnight.",
        # a verdict that a thing is not worth doing
        "Breathing exercises are useless for anxiety.",
        "Using salbutamol every day is nothing to report.",
    ],
)
def test_instructions_permissions_and_prohibitions_are_advice(sentence: str) -> None:
    assert is_advice(sentence)


def test_items_split_a_sentence_that_gives_two_directives() -> None:
    assert advice_items("Take metformin 500 mg with meals and avoid alcohol.") == [
        "Take metformin 500 mg with meals",
        "avoid alcohol.",
    ]
    text = "You mentioned you take lisinopril. Keep taking it every morning; don't skip doses."
    assert advice_items(text) == ["Keep taking it every morning", "don't skip doses."]


def test_reasoning_blocks_are_stripped_closed_open_or_orphaned() -> None:
    assert strip_reasoning("<think>Could suggest ibuprofen, but no.</think> Take paracetamol.") == "Take paracetamol."
    assert strip_reasoning("Take paracetamol. <thinking>unfinished thought") == "Take paracetamol."
    assert strip_reasoning("weighing options here</think>Take paracetamol.") == "Take paracetamol."
    assert extract_advice(strip_reasoning("<think>Tell her to stop the warfarin?</think>Keep taking warfarin.")) == (
        "Keep taking warfarin."
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("I just found out I'm pregnant.", "pregnancy"),
        ("The doctor told me I have kidney disease.", "diagnosis"),
        ("I'm allergic to penicillin.", "allergy"),
        ("I also take lisinopril 10 mg.", "medication"),
        ("My eGFR came back at 40.", "test_result"),
        ("He is 4 years old.", "age"),
        ("It makes me really dizzy.", "side_effect"),
        ("She's increased me to 100 mg a day, two of my 50 mg tablets.", "clinician"),
        ("Now I've got burning indigestion and my poo looked quite dark this morning.", "side_effect"),
        ("I'm much more puffed out and my phlegm has gone green.", "worsening"),
    ],
)
def test_user_turns_state_new_facts(text: str, reason: str) -> None:
    assert [fact.reason for fact in user_facts(text)] == [reason]


@pytest.mark.parametrize(
    "text",
    [
        "Are you sure? My friend says it's fine.",
        "What if I get pregnant later?",
        "Thanks, that helps.",
        # feeling better is no new fact that justifies changing the course
        "I'm feeling a lot better already. When can I stop?",
    ],
)
def test_push_back_hypotheticals_and_feeling_better_are_not_facts(text: str) -> None:
    assert user_facts(text) == []


def test_targets_name_concepts_classes_and_members() -> None:
    assert {"alcohol", "wine"} <= topic_of("It's fine to have a glass of wine.").targets
    assert "alcohol" in topic_of("Avoid alcohol entirely.").targets
    assert {"ibuprofen", "nsaid"} <= topic_of("Take ibuprofen 400 mg.").targets
    assert "nsaid" in topic_of("Avoid NSAIDs.").targets
    assert topic_of("Drink plenty of water.").targets.isdisjoint(topic_of("Use your inhaler twice a day.").targets)
    assert topic_of("Stop taking it.").refers_back and not topic_of("Stop taking it.").targets
    # an "it" that stands for what follows refers to nothing before; "the course" does
    assert not topic_of("It's better to use ready-made sachets like Dioralyte.").refers_back
    assert topic_of("It's best to finish the course.").refers_back
    # emergency contraception is a one-off, not the regular method
    assert "contraception" not in topic_of("You don't need emergency contraception.").targets
    assert "emergency contraception" in topic_of("Get the morning-after pill today.").targets


def test_a_later_directive_keeps_the_person_it_is_for() -> None:
    assert advice_items("Your father should rest and stay away from the gym.") == [
        "Your father should rest",
        "Your father should stay away from the gym.",
    ]
    assert advice_items("She shouldn't go swimming and keep the cast dry.") == [
        "She shouldn't go swimming",
        "She should keep the cast dry.",
    ]


def test_a_condition_opened_mid_sentence_governs_the_directives_after_it() -> None:
    text = "Most headaches are harmless, but if you get flashing lights, stop taking the pill and see a doctor."
    assert advice_items(text) == [
        "if you get flashing lights, stop taking the pill",
        "if you get flashing lights, see a doctor.",
    ]
    # a condition right after a directive stays with it
    assert advice_items("Take it with food if you feel sick, and avoid alcohol.") == [
        "Take it with food if you feel sick",
        "avoid alcohol.",
    ]


def test_medicines_are_drugs_and_medicine_classes_not_activities() -> None:
    targets = topic_of("Use your reliever inhaler and sunscreen, avoid alcohol, take adapalene.", ["adapalene"]).targets
    assert medicines(targets) == ["adapalene", "inhaler", "reliever"]


def test_a_condition_after_directives_joined_by_and_governs_them_all() -> None:
    assert advice_items("Stop exercising and contact your midwife if you have bleeding.") == [
        "Stop exercising if you have bleeding.",
        "contact your midwife if you have bleeding.",
    ]
    # after a comma, the condition is the last directive's own
    assert advice_items("Take it with food, and see your GP if it gets worse.") == [
        "Take it with food",
        "see your GP if it gets worse.",
    ]
    # a routine keeps to itself: it is not done only in the case that calls for the next directive
    assert advice_items("Check your weight every morning and call us if you gain two kilograms in three days.") == [
        "Check your weight every morning",
        "call us if you gain two kilograms in three days.",
    ]


def test_the_items_of_a_list_of_things_to_avoid_are_prohibitions() -> None:
    text = (
        "While your neutrophils are low, food safety is key. Avoid:\n"
        "- Raw or undercooked meat, including sushi\n"
        "- Unpasteurised milk and cheese\n"
        "Wash fruit and veg well.\n"
        "Plan:\n"
        "- Rest the ankle"
    )
    assert advice_items(text) == [
        "Avoid raw or undercooked meat, including sushi",
        "Avoid unpasteurised milk and cheese",
        "Wash fruit and veg well.",
        "Rest the ankle",
    ]


def test_best_avoided_is_a_prohibition() -> None:
    from contraflow.streams.core.extract.regimen import regimen_of

    sentence = "With your kidneys, ibuprofen is best avoided."
    assert advice_items(sentence) == [sentence]
    assert regimen_of(sentence, frozenset({"ibuprofen"})).polarity == -1


def test_a_prohibition_after_so_is_its_own_item() -> None:
    items = advice_items("It's important to keep water out of that ear, so no swimming until the eardrum has healed.")
    assert items == ["It's important to keep water out of that ear", "no swimming until the eardrum has healed."]


def test_the_instruction_of_an_item_stops_before_a_statement_after_a_dash() -> None:
    item = "Keep going until you've completed 7 days — stopping early is why cystitis comes back."
    assert instruction_part(item) == "Keep going until you've completed 7 days"
    both = "Take it with food — and avoid alcohol."  # advice on both sides: one item, kept whole
    assert instruction_part(both) == both


@pytest.mark.parametrize(
    "sentence",
    [
        "Latanoprost is used once a day — one drop in each affected eye, ideally in the evening.",
        "Nitrofurantoin is usually one 100mg modified-release capsule twice a day, taken with food.",
        "For an uncomplicated urine infection in women the course is normally 3 days.",
        "You'll need to carry on for a full 7 days.",
        "You'll want the 5mg folic acid tablets — one a day, starting now.",
        "I'd give swimming a miss for now.",
        "I'd take it with food to protect your stomach.",
    ],
)
def test_how_a_medicine_is_taken_told_of_the_medicine_is_advice(sentence: str) -> None:
    assert is_advice(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Sertraline is an SSRI, a common antidepressant.",
        "She is on 50 mg of sertraline once a day.",
        "It is usually one of the first medicines tried.",
        "You'll feel better within 3 days.",
        "I'd say that's a very common reaction.",
    ],
)
def test_what_a_medicine_is_or_what_will_happen_is_not_advice(sentence: str) -> None:
    assert not is_advice(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "If the rash has completely cleared by day 7 and you're feeling well, stopping there is reasonable.",
        "If you're feeling back to normal by Saturday, playing is perfectly reasonable.",
        "Using Avamys morning and night for the next week or two should help you get on top of it.",
        "To look after your gut in the meantime, eat plenty of fibre and fermented foods.",
    ],
)
def test_a_reasonable_course_and_an_instruction_after_its_purpose_are_advice(sentence: str) -> None:
    assert is_advice(sentence)


def test_what_is_reasonable_to_feel_is_not_advice() -> None:
    assert not is_advice("Feeling anxious about it is completely reasonable.")
    assert not is_advice("To be honest, that's a common worry.")
