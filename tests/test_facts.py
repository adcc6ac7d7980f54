"""New facts in user turns (streams/extract/facts.py): what justifies a revision."""

from streams.extract.facts import user_facts


def test_a_question_is_not_a_fact_even_when_it_opens_with_a_connective() -> None:
    assert user_facts("And just to confirm, when in the day should I take the omeprazole?") == []
    assert user_facts("So can I take it with my other medicines?") == []


def test_a_fact_followed_by_a_question_is_still_a_fact() -> None:
    facts = user_facts("I found out I'm pregnant, is that still OK?")
    assert [f.reason for f in facts] == ["pregnancy"]
