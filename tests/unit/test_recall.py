"""Entity matching and scores of seed 003 (Study C), on hand-made cases."""

import pytest

from contraflow.streams.core.metrics.recall import (
    _NEGATION_TERMS,
    NEGATION_WINDOW_TOKENS,
    EntityScores,
    entity_scores,
    is_negated,
    jaccard,
    match_entity,
)


def test_exact_match_is_case_insensitive() -> None:
    assert match_entity("Sertraline", {"sertraline"}, "Continue SERTRALINE 50 mg.") == "sertraline"


def test_substring_matches_either_way() -> None:
    text = "Severe depression persists."
    assert match_entity("depression", {"severe depression"}, text) == "severe depression"
    assert match_entity("severe depression", {"depression"}, text) == "depression"


def test_substring_is_literal_not_a_stem_match() -> None:
    # 'depression' is not a substring of 'major depressive disorder' and they share no word.
    text = "Diagnosed with major depressive disorder."
    assert match_entity("depression", {"major depressive disorder"}, text) is None


def test_jaccard_at_threshold_matches() -> None:
    # {severe, major, depressive} shared out of 5 distinct words: 3/5 = 0.6
    gold, predicted = "severe major depressive episode", "severe major depressive disorder"
    assert jaccard(gold, predicted) == 0.6
    assert match_entity(gold, {predicted}, "Severe major depressive disorder noted.") == predicted
    # 3/4 = 0.75, not a substring either way
    assert match_entity("chronic lower back pain", {"chronic back pain"}, "chronic back pain") == "chronic back pain"


def test_jaccard_just_below_threshold_does_not_match() -> None:
    # {major, depressive, disorder, recurrent} shared out of 7 distinct words: 4/7 ≈ 0.571
    gold, predicted = "major depressive disorder recurrent severe", "major depressive disorder recurrent with psychosis"
    assert jaccard(gold, predicted) == pytest.approx(4 / 7)
    assert match_entity(gold, {predicted}, predicted) is None
    # 2/4 = 0.5
    assert match_entity("panic attacks nightly", {"panic attacks weekly"}, "panic attacks weekly") is None


def test_match_must_occur_in_response_text() -> None:
    assert match_entity("sertraline", {"sertraline"}, "Continue the SSRI as before.") is None
    # it is enough that the gold string appears, or that the predicted string appears
    assert match_entity("depression", {"severe depression"}, "History of depression.") == "severe depression"
    assert match_entity("severe depression", {"depression"}, "History of depression.") == "depression"


def test_strongest_match_wins_then_alphabetical() -> None:
    text = "depression, severe depression, chronic depression"
    assert match_entity("depression", {"severe depression", "depression"}, text) == "depression"
    assert match_entity("depression", {"severe depression", "chronic depression"}, text) == "chronic depression"


def test_blank_entities_never_match() -> None:
    assert match_entity("insomnia", {"", "  "}, "insomnia") is None
    assert match_entity("", {"insomnia"}, "insomnia") is None


def test_negation_window_is_five_tokens() -> None:
    assert NEGATION_WINDOW_TOKENS == 5
    assert is_negated("insomnia", "no one two three four insomnia")  # 'no' is the 5th token before
    assert not is_negated("insomnia", "no one two three four five insomnia")  # 6th token before
    assert is_negated("insomnia", "no one two three four five insomnia", window=6)


def test_negation_terms() -> None:
    assert {"no", "not", "denies", "denied", "without", "negative for", "never", "free of", "ruled out"} <= set(
        _NEGATION_TERMS
    )
    assert is_negated("suicidal ideation", "Patient denies suicidal ideation.")
    assert is_negated("bipolar disorder", "Screen negative for bipolar disorder.")
    assert is_negated("psychosis", "He has been free of psychosis for years.")
    assert is_negated("mania", "Absence of mania on review.")
    assert not is_negated("insomnia", "Notable insomnia.")  # 'notable' is not the cue 'not'


def test_negation_does_not_cross_a_sentence_end() -> None:
    assert not is_negated("insomnia", "No fever. Reports insomnia.")


def test_negated_only_when_every_mention_is_negated() -> None:
    assert is_negated("insomnia", "Denies insomnia. She has never had insomnia.")
    assert not is_negated("insomnia", "Denied insomnia at intake. Insomnia reported today.")
    assert not is_negated("insomnia", "No mention of sleep.")  # not mentioned at all


def test_negated_mention_is_not_recalled() -> None:
    assert match_entity("suicidal ideation", {"suicidal ideation"}, "Patient denies suicidal ideation.") is None
    assert match_entity("insomnia", {"insomnia"}, "Denied insomnia at intake. Insomnia today.") == "insomnia"


def test_entity_scores_worked_example() -> None:
    gold = {"Depression", "insomnia", "sertraline", "suicidal ideation"}
    predicted = {"severe depression", "insomnia", "suicidal ideation", "headache", "fluoxetine"}
    text = "Severe depression persists with insomnia. Patient denies suicidal ideation. Mild headache noted."
    scores = entity_scores(gold, predicted, text)
    # recalled: depression (substring), insomnia (exact); sertraline absent; suicidal ideation negated
    assert scores.recall == 2 / 4
    # supported predictions: severe depression, insomnia
    assert scores.precision == 2 / 5
    assert scores.f1 == pytest.approx(2 * 0.4 * 0.5 / 0.9)
    assert scores.hallucinated_rate == pytest.approx(3 / 5)
    assert scores.matched == ["depression", "insomnia"]


def test_entity_scores_normalises_and_deduplicates() -> None:
    scores = entity_scores({"Insomnia", " insomnia "}, {"INSOMNIA"}, "insomnia")
    assert scores == EntityScores(recall=1.0, precision=1.0, f1=1.0, hallucinated_rate=0.0, matched=["insomnia"])


def test_entity_scores_empty_sets() -> None:
    assert entity_scores(set(), set(), "anything") == EntityScores(
        recall=0.0, precision=0.0, f1=0.0, hallucinated_rate=0.0, matched=[]
    )
    no_gold = entity_scores(set(), {"insomnia"}, "insomnia")
    assert (no_gold.recall, no_gold.precision, no_gold.hallucinated_rate) == (0.0, 0.0, 1.0)
    no_prediction = entity_scores({"insomnia"}, set(), "insomnia")
    assert (no_prediction.recall, no_prediction.precision, no_prediction.f1) == (0.0, 0.0, 0.0)
    assert no_prediction.hallucinated_rate == 0.0
