"""Seed 001's conflict report over a set of stored entries: which pairs contradict (the
mean of both NLI directions against the sensitivity's threshold), of what type, what to do
about each, which claims are consensus; its conflict events and its text for a person."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import numpy as np
from pydantic import BaseModel, Field

from contraflow.models.events import Claim, ConflictEvent, NLIProbabilities, Resolution
from contraflow.models.ids import stable_id
from contraflow.streams.core.knowledge.store import KnowledgeEntry
from contraflow.streams.core.knowledge.taxonomy import classify
from contraflow.streams.core.verdict import probabilities, two_way

EXPECTED_BEHAVIOUR = {
    "factual": "Flag the conflict, cite both sources, note which has stronger evidence.",
    "temporal": "Information true at different times: show the dates, prefer the more recent.",
    "methodological": "Different measurements: present both with their methodology, declare no winner.",
    "scope": "True in different contexts: clarify the scope of each claim.",
    "opinion": "Different viewpoints: present both without bias.",
}


class ConflictPair(BaseModel):
    """Two entries that contradict each other (seed 001); a is the stored one, b the newer."""

    claim_a: str
    entry_a: str
    collection_a: str
    claim_b: str
    entry_b: str
    collection_b: str
    nli_ab: NLIProbabilities
    nli_ba: NLIProbabilities
    conflict_type: str
    severity: str
    explanation: str
    resolution_hint: str

    @property
    def p_contradiction(self) -> float:
        return two_way(self.nli_ab, self.nli_ba)


@dataclass(frozen=True)
class ScoredPair:
    """Two entries and their NLI rows in both directions."""

    a: KnowledgeEntry
    b: KnowledgeEntry
    ab: np.ndarray
    ba: np.ndarray


class ConflictReport(BaseModel):
    """Seed 001's report over a set of entries."""

    report_id: str
    topic: str
    sources_analyzed: int
    collections_searched: list[str]
    sensitivity: str
    threshold: float
    conflicts: list[ConflictPair] = Field(default_factory=list)
    consensus_claims: list[str] = Field(default_factory=list, description="claims the others entail, none contradicts")
    confidence: float = Field(ge=0.0, le=1.0, description="mean decisiveness of the NLI verdicts behind the report")
    summary: str


def build_report(
    topic: str, scored: list[ScoredPair], sources: int, sensitivity: str, threshold: float
) -> ConflictReport:
    """Seed 001's ConflictReport: pairs whose contradiction probability (the mean of both
    directions) reaches the threshold, classified; consensus = claims entailed by the other
    side and contradicted by nothing."""
    conflicts, conflicting, entailed = [], set(), []
    for pair in scored:
        nli_ab, nli_ba = probabilities(pair.ab), probabilities(pair.ba)
        p = two_way(nli_ab, nli_ba)
        if p >= threshold:
            kind = classify(pair.a.text, pair.b.text, p, pair.a.created_at, pair.b.created_at)
            conflicting |= {pair.a.entry_id, pair.b.entry_id}
            conflicts.append(
                ConflictPair(
                    claim_a=pair.a.text,
                    entry_a=pair.a.entry_id,
                    collection_a=pair.a.collection,
                    claim_b=pair.b.text,
                    entry_b=pair.b.entry_id,
                    collection_b=pair.b.collection,
                    nli_ab=nli_ab,
                    nli_ba=nli_ba,
                    conflict_type=kind.conflict_type,
                    severity=kind.severity,
                    explanation="; ".join(kind.evidence),
                    resolution_hint=EXPECTED_BEHAVIOUR[kind.conflict_type],
                )
            )
        elif max(nli_ab.entailment, nli_ba.entailment) >= 0.5:
            entailed.append(pair)
    consensus = sorted(
        {
            t
            for pair in entailed
            for e, t in ((pair.a.entry_id, pair.a.text), (pair.b.entry_id, pair.b.text))
            if e not in conflicting
        }
    )
    decisiveness = [float(max(max(p.ab), max(p.ba))) for p in scored]
    collections = sorted({e.collection for p in scored for e in (p.a, p.b)})
    types = ", ".join(sorted({c.conflict_type for c in conflicts}))
    summary = (
        f"{len(conflicts)} conflicting pair(s) ({types}) among {sources} sources at {sensitivity} sensitivity."
        if conflicts
        else f"No conflicts among {sources} sources at {sensitivity} sensitivity."
    )
    return ConflictReport(
        report_id=stable_id("report", topic, *sorted({e.entry_id for p in scored for e in (p.a, p.b)}), sensitivity),
        topic=topic,
        sources_analyzed=sources,
        collections_searched=collections,
        sensitivity=sensitivity,
        threshold=threshold,
        conflicts=conflicts,
        consensus_claims=consensus,
        confidence=float(np.mean(decisiveness)) if decisiveness else 1.0,
        summary=summary,
    )


def knowledge_conflict_events(report: ConflictReport, tenant: str | None, detected_at: datetime) -> list[ConflictEvent]:
    """A conflict event per pair of a report; the id depends only on the two entries."""
    return [
        ConflictEvent(
            conflict_id=stable_id("conflict", "knowledge", *sorted((pair.entry_a, pair.entry_b))),
            kind="knowledge",
            scope="store",
            tenant=tenant,
            claim_a=Claim(text=pair.claim_a, source=pair.collection_a, entry_id=pair.entry_a),
            claim_b=Claim(text=pair.claim_b, source=pair.collection_b, entry_id=pair.entry_b),
            nli_ab=pair.nli_ab,
            nli_ba=pair.nli_ba,
            conflict_type=pair.conflict_type,
            severity=pair.severity,
            resolution=Resolution(strategy="flag", action="report", rationale=pair.resolution_hint),
            detected_at=detected_at,
        )
        for pair in report.conflicts
    ]


def format_report(report: ConflictReport) -> str:
    """The report as text for a person."""
    lines = [f"Conflicts about: {report.topic}", report.summary, ""]
    for i, pair in enumerate(report.conflicts, start=1):
        lines += [
            f"{i}. [{pair.conflict_type}, {pair.severity}] p(contradiction) {pair.p_contradiction:.2f}",
            f"   A ({pair.collection_a}/{pair.entry_a}): {pair.claim_a}",
            f"   B ({pair.collection_b}/{pair.entry_b}): {pair.claim_b}",
            f"   why: {pair.explanation}",
            f"   what to do: {pair.resolution_hint}",
        ]
    if report.consensus_claims:
        lines += ["", "Consensus:"] + [f"  - {claim}" for claim in report.consensus_claims]
    lines += [
        "",
        f"sources analysed: {report.sources_analyzed}; collections: {', '.join(report.collections_searched) or '—'}",
    ]
    return "\n".join(lines)
