"""Finding the stored entries a claim or topic should be compared with, and scoring them:
hybrid search, the topic gate between two entries, both NLI directions in one call; and
seed 001's on-demand `knowledge_conflicts` over a topic (`contraflow conflicts`)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import numpy as np

from contraflow.models.state import AdviceClaim
from contraflow.streams.core.calls import EmbedFn, ScoreFn
from contraflow.streams.core.knowledge.report import ConflictReport, ScoredPair, build_report
from contraflow.streams.core.knowledge.store import KnowledgeEntry, KnowledgeStore, SearchHit
from contraflow.streams.core.verdict import claim_of, gated


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


async def score_pairs(pairs: list[tuple[KnowledgeEntry, KnowledgeEntry]], score: ScoreFn) -> list[ScoredPair]:
    """Both NLI directions of every (stored, newer) pair, in one scorer call."""
    if not pairs:
        return []
    rows = await score([d for a, b in pairs for d in ((a.text, b.text), (b.text, a.text))])
    return [ScoredPair(a, b, rows[2 * i], rows[2 * i + 1]) for i, (a, b) in enumerate(pairs)]


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
        (a, b)
        for i, a in enumerate(ordered)
        for b in ordered[i + 1 :]
        if related(a.subject, claims[a.entry_id], b.subject, claims[b.entry_id])
    ]
    return build_report(topic, await score_pairs(pairs, score), len(hits), sensitivity, threshold)
