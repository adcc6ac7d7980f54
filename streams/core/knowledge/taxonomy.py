"""Seed 001's conflict taxonomy (factual, temporal, methodological, scope, opinion) and
severity (high, medium, low), decided from evidence a reader can check.

The first rule that finds its evidence wins, in this order:
1. opinion — a claim is a judgement ("better", "best", "I think", "prefer", "overrated" …);
2. temporal — the claims carry different dates/years, or a change-over-time marker
   ("no longer", "dropped", "deprecated", "as of", "now", "used to" …);
3. methodological — a claim names how it was measured ("benchmark", "synthetic", "in
   production", "study", "survey", "trial", "measured" …);
4. scope — a claim is qualified to a context or scale ("under load", "for small teams",
   "at scale", "in children", "only when", "past 100 users" …);
5. factual — otherwise; different numbers/units are noted as evidence.

Severity: high when one claim must be wrong (factual or temporal with a contradiction
probability ≥ 0.9, or factual with differing numbers); low for opinion, and for scope
below 0.9; medium otherwise.
"""

from __future__ import annotations

import re
from datetime import datetime

from pydantic import BaseModel

_OPINION = re.compile(
    r"\b(better|best|worse|worst|superior|inferior|prefer(?:red|s)?|overrated|underrated|favou?rite|"
    r"i think|i believe|in my (?:view|opinion)|arguably|should be|the way to go|love|hate)\b",
    re.IGNORECASE,
)
_TEMPORAL = re.compile(
    r"\b(no longer|anymore|dropped|deprecated|discontinued|removed|since|as of|now|currently|"
    r"used to|formerly|previously|recently|until|newer|older|latest|outdated)\b",
    re.IGNORECASE,
)
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
_METHOD = re.compile(
    r"\b(benchmark(?:s|ed)?|synthetic|in production|production|in the lab|lab|study|studies|survey|trial|"
    r"measured|measurement|experiment(?:s|al)?|simulation|tests? show|according to|sample|methodology)\b",
    re.IGNORECASE,
)
_SCOPE = re.compile(
    r"\b(under (?:heavy )?load|at scale|for (?:small|large|big) |small teams?|large teams?|enterprises?|"
    r"in (?:children|adults|some cases|most cases)|only (?:when|if|for)|for beginners|beyond|past \d+|"
    r"up to \d+|more than \d+|fewer than \d+|in (?:some|certain) (?:settings|contexts|environments))",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"(\d+(?:\.\d+)?)\s*(%|percent|ms|s|x|mg|kg|gb|mb|\$|usd|users?)?", re.IGNORECASE)


class Classification(BaseModel):
    """A conflict's type and severity, with the evidence for them."""

    conflict_type: str
    severity: str
    evidence: list[str]


def _numbers(text: str) -> set[str]:
    return {f"{value}{(unit or '').lower()}" for value, unit in _NUMBER.findall(text)}


def classify(
    claim_a: str,
    claim_b: str,
    p_contradiction: float,
    created_a: datetime | None = None,
    created_b: datetime | None = None,
) -> Classification:
    """Type and severity of a conflict between two claims."""
    text = f"{claim_a} || {claim_b}"
    evidence: list[str] = []
    numbers_a, numbers_b = _numbers(claim_a), _numbers(claim_b)
    numbers_differ = bool(numbers_a or numbers_b) and numbers_a != numbers_b
    years_a, years_b = set(_YEAR.findall(claim_a)), set(_YEAR.findall(claim_b))
    dates_differ = bool(years_a or years_b) and years_a != years_b

    if m := _OPINION.search(text):
        conflict_type = "opinion"
        evidence.append(f"opinion marker '{m.group(0)}'")
    elif dates_differ or (m := _TEMPORAL.search(text)):
        conflict_type = "temporal"
        evidence.append("different dates" if dates_differ else f"time marker '{m.group(0)}'")
        if created_a and created_b:
            newer = "b" if created_b > created_a else "a"
            evidence.append(f"claim {newer} is newer")
    elif m := _METHOD.search(text):
        conflict_type = "methodological"
        evidence.append(f"method marker '{m.group(0)}'")
    elif m := _SCOPE.search(text):
        conflict_type = "scope"
        evidence.append(f"scope qualifier '{m.group(0).strip()}'")
    else:
        conflict_type = "factual"
    if numbers_differ:
        evidence.append(f"numbers differ: {sorted(numbers_a) or '—'} vs {sorted(numbers_b) or '—'}")
    evidence.append(f"p(contradiction) {p_contradiction:.2f}")

    strong = p_contradiction >= 0.9
    if conflict_type == "opinion" or (conflict_type == "scope" and not strong):
        severity = "low"
    elif (conflict_type in ("factual", "temporal") and strong) or (conflict_type == "factual" and numbers_differ):
        severity = "high"
    else:
        severity = "medium"
    return Classification(conflict_type=conflict_type, severity=severity, evidence=evidence)
