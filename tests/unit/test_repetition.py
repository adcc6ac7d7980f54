from contraflow.streams.core.extract.repetition import clean_repetition, repetition_ratio


def test_plain_text_has_no_repetition_and_is_kept() -> None:
    text = "Take metformin with meals. Check your blood sugar before breakfast each day."
    assert repetition_ratio(text) == 0.0
    assert clean_repetition(text) == (text, 0.0, False)


def test_ratio_counts_repeated_ngrams() -> None:
    # 8 words -> 5 four-grams; the second "a b c d" repeats 1 of them... worked out by hand:
    # a b c d a b c d : grams abcd bcda cdab dabc abcd -> 1 repeat of 5
    assert repetition_ratio("a b c d a b c d") == 0.2


def test_repeated_sentences_are_dropped_when_over_the_limit() -> None:
    text = "Take your inhaler twice daily. " * 4 + "See your GP next week."
    cleaned, ratio, was_cleaned = clean_repetition(text)
    assert ratio > 0.3 and was_cleaned
    assert cleaned == "Take your inhaler twice daily. See your GP next week."


def test_a_loop_without_punctuation_is_cut() -> None:
    text = "you should rest and drink water " * 6
    cleaned, ratio, was_cleaned = clean_repetition(text)
    assert was_cleaned and ratio > 0.3
    assert cleaned == "you should rest and drink water"


def test_moderate_repetition_under_the_limit_is_kept() -> None:
    text = "Take the tablet with food. Take the tablet with water at night and see your GP next week if it still hurts."
    cleaned, ratio, was_cleaned = clean_repetition(text)
    assert 0 < ratio <= 0.3 and not was_cleaned and cleaned == text
