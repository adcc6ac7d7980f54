"""Entity extraction on small hand-written clinical texts, with the real rules pipeline (spaCy
EntityRuler, drug-named-entity-recognition dictionary, scispaCy AbbreviationDetector), and the
model path with a small spaCy pipeline saved to disk and loaded by path."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import spacy

from contraflow.streams.core.extract.entities import EntityExtractor, load_entity_extractor
from contraflow.streams.core.extract.entity_filter import filter_entities


@pytest.fixture(scope="module")
def extractor() -> EntityExtractor:
    return load_entity_extractor("rules")


def test_rules_mode_finds_each_kind_in_order(extractor: EntityExtractor) -> None:
    text = (
        "The patient is a 54-year-old man with type 2 diabetes, hypertension and chronic kidney disease. "
        "He takes metformin 500mg twice daily and warfarin 5 mg. He is allergic to penicillin. "
        "Today he reports chest pain and shortness of breath. His diabetes is poorly controlled."
    )
    assert extractor.mode == "rules"
    assert extractor.extract(text) == [
        "type 2 diabetes",
        "hypertension",
        "chronic kidney disease",
        "metformin",
        "500 mg",
        "warfarin",
        "5 mg",
        "penicillin allergy",
        "chest pain",
        "shortness of breath",
        "diabetes",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("She was diagnosed with major depressive disorder in 2019.", ["major depressive disorder"]),
        ("Asthma since childhood; PTSD after the accident.", ["asthma", "ptsd"]),
        (
            "Generalised anxiety disorder with panic attacks and insomnia.",
            ["generalised anxiety disorder", "panic attacks", "insomnia"],
        ),
        ("He disclosed suicidal ideation and self-harm.", ["suicidal ideation", "self-harm"]),
        ("Known penicillin allergy.", ["penicillin allergy"]),
        ("She has an allergy to amoxicillin.", ["amoxicillin allergy"]),
        ("Started sertraline 50mg, then ibuprofen for knee pain.", ["sertraline", "50 mg", "ibuprofen", "knee pain"]),
        ("Zoloft and 0.5mcg of levothyroxine", ["zoloft", "0.5 mcg", "levothyroxine"]),
        (
            "Long-standing rheumatoid arthritis and peripheral neuropathy.",
            ["rheumatoid arthritis", "peripheral neuropathy"],
        ),
    ],
)
def test_rules_mode_examples(extractor: EntityExtractor, text: str, expected: list[str]) -> None:
    assert extractor.extract(text) == expected


def test_generic_talk_gives_no_entities(extractor: EntityExtractor) -> None:
    text = (
        "Thanks for telling me. The doctor will review your history and your medication today; "
        "try to rest, drink water, and keep a regular bedtime. No pain this week."
    )
    assert extractor.extract(text) == []


def test_abbreviation_detector_links_short_forms(extractor: EntityExtractor) -> None:
    text = (
        "Treatment-resistant depression (TRD) was noted. TRD responds poorly to SSRIs. "
        "Generalized anxiety disorder (GAD) also; her GAD is worse at night."
    )
    assert extractor.extract(text) == [
        "treatment-resistant depression",
        "trd",
        "ssris",
        "generalized anxiety disorder",
        "gad",
    ]


def test_abbreviation_of_a_list_keeps_the_separate_entities(extractor: EntityExtractor) -> None:
    assert extractor.extract("She has depression and anxiety (DA).") == ["depression", "anxiety"]


def test_abbreviations_match_case_sensitively(extractor: EntityExtractor) -> None:
    assert extractor.extract("Ms Jones was told she has MS.") == ["ms"]


def test_negation_is_not_handled(extractor: EntityExtractor) -> None:
    assert extractor.extract("He denies chest pain.") == ["chest pain"]


def test_missing_model_falls_back_to_rules_with_a_notice(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="contraflow.streams.core.extract.entities"):
        fallback = load_entity_extractor("en_core_sci_not_installed")
    assert fallback.mode == "rules"
    assert "'en_core_sci_not_installed' is not installed" in caplog.text
    assert fallback.extract("Type 2 diabetes on metformin.") == ["type 2 diabetes", "metformin"]


def test_extractor_is_built_once_per_name() -> None:
    assert load_entity_extractor("rules") is load_entity_extractor("rules")


def test_installed_model_is_loaded_by_name(tmp_path: Path) -> None:
    nlp = spacy.blank("en")
    nlp.add_pipe("entity_ruler").add_patterns(  # type: ignore[attr-defined]
        [{"label": "ENTITY", "pattern": "obsessive compulsive disorder"}, {"label": "ENTITY", "pattern": "patient"}]
    )
    nlp.to_disk(tmp_path / "tiny_sci")
    model = load_entity_extractor(str(tmp_path / "tiny_sci"))
    assert model.mode == f"scispacy:{tmp_path / 'tiny_sci'}"
    assert "abbreviation_detector" in model.nlp.pipe_names
    text = "The patient has obsessive compulsive disorder (OCD); OCD began at 12."
    assert model.extract(text) == ["patient", "obsessive compulsive disorder", "ocd"]
    assert filter_entities(model.extract(text)) == {"obsessive compulsive disorder", "ocd"}


@pytest.mark.parametrize(
    ("entities", "kept"),
    [
        (["  Major Depressive Disorder ", "major depressive disorder"], {"major depressive disorder"}),
        (["patient", "the doctor", "her medication", "History", "today", "this week"], set()),
        (["symptoms", "pain", "treatment", "condition", "she", "it", "of the"], set()),
        (["chest pain", "back pain"], {"chest pain", "back pain"}),
        (["12", "3.5", "2019", "a", "xy"], set()),
        (["MS", "ra", "ptsd", "50 mg"], {"ms", "ra", "ptsd", "50 mg"}),
        (["asthma.", "(ssri)"], {"asthma", "ssri"}),
        ([], set()),
    ],
)
def test_filter_entities(entities: list[str], kept: set[str]) -> None:
    assert filter_entities(entities) == kept
