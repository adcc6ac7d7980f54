from datetime import UTC, datetime

import pytest

from contraflow.streams.core.knowledge.taxonomy import classify

A = "X improves performance by 40%."
B = "X has no measurable impact on performance."
C = "X degrades performance under load."


def test_seed_001_scenario_types() -> None:
    """Seed 001's three claims about one technology."""
    ab, ac, bc = classify(A, B, 0.95), classify(A, C, 0.8), classify(B, C, 0.7)
    assert (ab.conflict_type, ab.severity) == ("factual", "high")
    assert any("numbers differ" in e for e in ab.evidence)
    assert (ac.conflict_type, ac.severity) == ("scope", "low")
    assert bc.conflict_type == "scope"


@pytest.mark.parametrize(
    ("a", "b", "kind"),
    [
        ("X costs $10.", "X costs $50.", "factual"),
        ("X supports Python 2 (2020).", "X dropped Python 2 in 2024.", "temporal"),
        ("The 2020 release supports Python 2.", "The 2024 release supports only Python 3.", "temporal"),
        ("X is no longer maintained.", "X is maintained by its authors.", "temporal"),
        ("X is 40% faster in a synthetic benchmark.", "X shows no improvement in production.", "methodological"),
        ("X is best for small teams.", "X does not scale past 100 users.", "opinion"),
        ("X works for small teams.", "X does not scale past 100 users.", "scope"),
        ("Framework A is better.", "Framework B is better.", "opinion"),
    ],
)
def test_taxonomy_examples(a: str, b: str, kind: str) -> None:
    assert classify(a, b, 0.9).conflict_type == kind


def test_severity_follows_strength_and_type() -> None:
    assert classify("The office opens at 9.", "The office opens at 10.", 0.5).severity == "high"  # numbers
    assert classify("The sky is green.", "The sky is blue.", 0.95).severity == "high"
    assert classify("The sky is green.", "The sky is blue.", 0.7).severity == "medium"
    assert classify("Framework A is better.", "Framework B is better.", 0.99).severity == "low"


def test_temporal_evidence_names_the_newer_claim() -> None:
    result = classify(
        "X supports Python 2.",
        "X dropped Python 2.",
        0.9,
        datetime(2020, 1, 1, tzinfo=UTC),
        datetime(2024, 1, 1, tzinfo=UTC),
    )
    assert result.conflict_type == "temporal" and "claim b is newer" in result.evidence
