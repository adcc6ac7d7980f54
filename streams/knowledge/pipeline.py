"""The knowledge-write pipeline: plain Python, no faust (seeds 001 and 004).

For each write, before it is stored (informational: it never blocks the write):
1. structured memory (subject, predicate, object_value): seed 004's resolution against the
   slot's current value; the loser decays; memory updates for every changed entry;
2. free text: the top-k similar stored entries of the tenant (hybrid search), both NLI
   directions in one call, the pairs over the sensitivity threshold classified with seed
   001's taxonomy, a conflict report stored;
3. the entry is stored with its status and confidence.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np
from pydantic import BaseModel, Field

from models.events import Claim, ConflictEvent, KnowledgeWrite, MemoryUpdate, NLIProbabilities, Resolution
from models.ids import stable_id
from models.state import AdviceClaim
from streams.calls import EmbedFn, ScoreFn
from streams.knowledge.memory import MemoryDecision, MemoryPolicy, MemoryValue, resolve
from streams.knowledge.resolutions import conflict_record
from streams.knowledge.store import ConflictReportRecord, KnowledgeEntry, KnowledgeStore, SearchHit
from streams.knowledge.taxonomy import classify
from streams.settings import Settings
from streams.verdict import claim_of, gated, probabilities, two_way

SENSITIVITIES = ("strict", "balanced", "lenient")

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


@dataclass(frozen=True)
class KnowledgeSettings:
    collections: tuple[str, ...] = ("default",)
    top_k: int = 5
    sensitivity: str = "balanced"
    thresholds: dict[str, float] = field(
        default_factory=lambda: {name: Settings.model_fields[f"sensitivity_{name}"].default for name in SENSITIVITIES}
    )
    policy: MemoryPolicy = field(default_factory=MemoryPolicy)
    topic_similarity: float = Settings.model_fields["topic_similarity"].default

    @property
    def threshold(self) -> float:
        return self.thresholds[self.sensitivity]


@dataclass
class KnowledgeOutcome:
    conflicts: list[ConflictEvent] = field(default_factory=list)
    updates: list[MemoryUpdate] = field(default_factory=list)
    report: ConflictReport | None = None
    slot_value: MemoryValue | None = None


class KnowledgePipeline:
    """Prechecks and stores knowledge writes; NLI through `score`, vectors through `embed`."""

    def __init__(self, store: KnowledgeStore, score: ScoreFn, embed: EmbedFn, settings: KnowledgeSettings) -> None:
        self.store = store
        self.score = score
        self.embed = embed
        self.settings = settings

    async def process(self, write: KnowledgeWrite, slot: MemoryValue | None) -> KnowledgeOutcome:
        """Everything one write does; `slot` is the current value of its structured slot."""
        outcome = KnowledgeOutcome()
        status, confidence, reinforcement = "active", write.confidence, 1
        if write.structured:
            decision = resolve(slot, self._memory_value(write), self.settings.policy)
            outcome.slot_value = decision.current
            self._apply_memory(decision, slot, write, outcome)
            for value in decision.updated:
                if value.entry_id == write.entry_id:
                    status, confidence, reinforcement = value.status, value.confidence, value.reinforcement_count
                else:
                    await asyncio.to_thread(self.store.update_status, value.entry_id, value.status, value.confidence)
            if decision.strategy == "reinforce":
                return outcome  # the write is folded into the existing entry (no conflict to record)
        vector, outcome.report = await self.precheck(write)
        if outcome.report is not None and outcome.report.conflicts:
            outcome.conflicts.extend(knowledge_conflict_events(outcome.report, write.tenant, write.created_at))
            await asyncio.to_thread(self.store.save_report, self._record(outcome.report, write))
        entry = self._entry(write, vector, status, confidence, reinforcement)
        await asyncio.to_thread(self.store.upsert, [entry])
        for event in outcome.conflicts:
            await asyncio.to_thread(self.store.save_report, conflict_record(event))
        return outcome

    async def precheck(self, write: KnowledgeWrite) -> tuple[np.ndarray, ConflictReport | None]:
        """The write's vector and the report over its most similar stored entries (None
        when the tenant has none): what a write is checked against before it is stored."""
        vector, found = await embed_and_search(
            self.store, self.embed, write.text, tenant=write.tenant, collections=None, limit=self.settings.top_k
        )
        claim = claim_of(write.text)
        hits = [
            h
            for h in found
            if h.entry.entry_id != write.entry_id
            and related(
                h.entry.subject,
                claim_of(h.entry.text),
                write.subject,
                claim,
                self.settings.topic_similarity,
                h.vector_similarity,
            )
        ]
        if not hits:
            return vector, None
        new = self._entry(write, vector=None, status="active", confidence=write.confidence, reinforcement=1)
        pairs = [ScoredPair(h.entry, new, np.zeros(3), np.zeros(3)) for h in hits]
        scored = await score_pairs(pairs, self.score)
        return vector, build_report(
            write.text, scored, len(hits) + 1, self.settings.sensitivity, self.settings.threshold
        )

    @staticmethod
    def _memory_value(write: KnowledgeWrite) -> MemoryValue:
        assert write.subject and write.predicate and write.object_value is not None
        return MemoryValue(
            tenant=write.tenant,
            subject=write.subject,
            predicate=write.predicate,
            object_value=write.object_value,
            confidence=write.confidence,
            reinforcement_count=write.reinforcement_count,
            created_at=write.created_at,
            source=write.source,
            entry_id=write.entry_id,
        )

    def _apply_memory(
        self, decision: MemoryDecision, slot: MemoryValue | None, write: KnowledgeWrite, outcome: KnowledgeOutcome
    ) -> None:
        new = self._memory_value(write)
        conflict_id = None
        if decision.conflict and slot is not None:
            conflict_id = stable_id("conflict", "memory", slot.entry_id, write.entry_id)
            outcome.conflicts.append(
                ConflictEvent(
                    conflict_id=conflict_id,
                    kind="memory",
                    scope="store",
                    tenant=write.tenant,
                    claim_a=Claim(
                        text=f"{slot.subject} {slot.predicate}: {slot.object_value}",
                        source=slot.source,
                        entry_id=slot.entry_id,
                    ),
                    claim_b=Claim(
                        text=f"{new.subject} {new.predicate}: {new.object_value}",
                        source=new.source,
                        entry_id=new.entry_id,
                    ),
                    nli_ab=probabilities(np.array([0.0, 0.0, 1.0])),
                    conflict_type=decision.conflict_type or "value_mismatch",
                    severity="high" if decision.conflict_type == "memory_vs_db" else "medium",
                    resolution=decision.to_resolution(),
                    detected_at=write.created_at,
                )
            )
        before = {v.entry_id: v for v in (slot, new) if v is not None}
        for value in decision.updated:
            previous = before.get(value.entry_id)
            if (
                value.entry_id == write.entry_id
                and previous is not None
                and previous == new
                and value.status == "active"
            ):
                continue  # a plain new entry is not an update
            outcome.updates.append(
                MemoryUpdate(
                    update_id=stable_id(
                        "update", value.entry_id, conflict_id, value.status, value.confidence, value.reinforcement_count
                    ),
                    entry_id=value.entry_id,
                    tenant=value.tenant,
                    collection=write.collection,
                    subject=value.subject,
                    predicate=value.predicate,
                    object_value=value.object_value,
                    previous_status=previous.status if previous else "active",
                    status=value.status,
                    previous_confidence=previous.confidence if previous else value.confidence,
                    confidence=value.confidence,
                    reinforcement_count=value.reinforcement_count,
                    conflict_id=conflict_id,
                    reason=f"{decision.strategy}: {decision.rationale}",
                    ts=write.created_at,
                )
            )

    @staticmethod
    def _entry(
        write: KnowledgeWrite, vector: np.ndarray | None, status: str, confidence: float, reinforcement: int
    ) -> KnowledgeEntry:
        return KnowledgeEntry(
            entry_id=write.entry_id,
            collection=write.collection,
            tenant=write.tenant,
            text=write.text,
            subject=write.subject,
            predicate=write.predicate,
            object_value=write.object_value,
            source=write.source,
            source_tool=write.source_tool,
            confidence=confidence,
            created_at=write.created_at,
            status=status,
            reinforcement_count=reinforcement,
            vector=None if vector is None else [float(x) for x in vector],
        )

    @staticmethod
    def _record(report: ConflictReport, write: KnowledgeWrite) -> ConflictReportRecord:
        return ConflictReportRecord(
            report_id=report.report_id,
            topic=report.topic,
            entry_id=write.entry_id,
            tenant=write.tenant,
            created_at=write.created_at,
            payload=report.model_dump_json(),
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


async def embed_and_search(
    store: KnowledgeStore,
    embed: EmbedFn,
    text: str,
    *,
    tenant: str | None,
    collections: Sequence[str] | None,
    limit: int,
) -> tuple[np.ndarray, list[SearchHit]]:
    """The text's vector and the active entries most like it (hybrid search)."""
    vector = (await embed([text]))[0]
    hits = await asyncio.to_thread(
        store.hybrid_search,
        text,
        [float(x) for x in vector],
        tenant=tenant,
        collections=collections,
        statuses=["active"],
        limit=limit,
    )
    return vector, hits


def related(
    a_subject: str | None,
    a: AdviceClaim,
    b_subject: str | None,
    b: AdviceClaim,
    min_similarity: float = 1.0,
    cosine: float | None = None,
) -> bool:
    """Whether two entries are about the same thing: the same subject when both are
    structured, else the turn pipeline's topic gate (a shared target or content word, or a
    cosine at or above `min_similarity`)."""
    if a_subject and b_subject:
        return a_subject.strip().lower() == b_subject.strip().lower()
    return gated(a, b, min_similarity, None if cosine is None else (lambda _a, _b: cosine))


async def score_pairs(pairs: list[ScoredPair], score: ScoreFn) -> list[ScoredPair]:
    """Both NLI directions of every pair, in one scorer call."""
    if not pairs:
        return []
    rows = await score([d for p in pairs for d in ((p.a.text, p.b.text), (p.b.text, p.a.text))])
    return [ScoredPair(p.a, p.b, rows[2 * i], rows[2 * i + 1]) for i, p in enumerate(pairs)]


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


async def knowledge_conflicts(
    store: KnowledgeStore,
    topic: str,
    score: ScoreFn,
    embed: EmbedFn,
    *,
    tenant: str | None = None,
    collections: list[str] | None = None,
    sensitivity: str = "balanced",
    threshold: float = 0.5,
    limit: int = 20,
) -> ConflictReport:
    """Seed 001's `knowledge_conflicts`: the stored entries closest to a topic, every pair
    scored both ways, the conflicts over the threshold classified."""
    _, hits = await embed_and_search(store, embed, topic, tenant=tenant, collections=collections, limit=limit)
    ordered = sorted((h.entry for h in hits), key=lambda e: (e.created_at, e.entry_id))
    claims = {e.entry_id: claim_of(e.text) for e in ordered}
    pairs = [
        ScoredPair(a, b, np.zeros(3), np.zeros(3))
        for i, a in enumerate(ordered)
        for b in ordered[i + 1 :]
        if related(a.subject, claims[a.entry_id], b.subject, claims[b.entry_id])
    ]
    return build_report(topic, await score_pairs(pairs, score), len(hits), sensitivity, threshold)


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
