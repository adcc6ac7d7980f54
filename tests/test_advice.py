import pytest

from streams.extract.advice import extract_advice, is_advice, split_sentences


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


def test_list_items_are_sentences() -> None:
    assert split_sentences("Plan:\n- Rest the ankle\n- Ice it twice a day") == [
        "Plan:",
        "Rest the ankle",
        "Ice it twice a day",
    ]
    assert extract_advice("Plan:\n- Rest the ankle\n- Ice it twice a day") == "Rest the ankle Ice it twice a day"
