"""The knowledge store behind one protocol (DESIGN.md, "Knowledge writes"; seed 001).

Entries are claims or memories with their provenance, status and confidence; conflict
reports are the JSON records of a conflict analysis. Backends: `LanceStore` (embedded,
the default) and `WeaviateStore` (weaviate-client v4); both store vectors the caller
computes (384-d MiniLM from `streams.embeddings.shared_embedder()`), neither embeds.

Shared semantics every backend follows:

- `tenant` is an exact-match key: `None` is its own tenant (entries stored without one),
  never a wildcard, so one tenant's search cannot see another's entries.
- `collections` / `statuses`: `None` means no filter, an empty list matches nothing.
- `hybrid_search` fuses a vector result set and a keyword (BM25) result set the way
  Weaviate's relativeScoreFusion does: each set's scores are min-max normalised to 0..1,
  then `score = alpha * vector + (1 - alpha) * keyword` (alpha 1: vector only, 0: keyword
  only). `SearchHit.vector_similarity` is the raw cosine similarity to the query vector.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Literal, Protocol, get_args, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, field_validator

EntrySource = Literal["memory", "db", "tool"]
EntryStatus = Literal["active", "conflicted", "superseded"]

ENTRY_SOURCES: tuple[str, ...] = get_args(EntrySource)
ENTRY_STATUSES: tuple[str, ...] = get_args(EntryStatus)
DEFAULT_STATUSES: tuple[EntryStatus, ...] = ("active",)
DEFAULT_DIM = 384


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(value: datetime) -> datetime:
    """Timezone-aware UTC; a naive datetime is taken to be UTC already."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class KnowledgeEntry(BaseModel):
    """One stored claim or memory. `vector` is never part of a dump (events stay small)."""

    model_config = ConfigDict(extra="forbid")

    entry_id: str = Field(min_length=1, description="stable id; upserts replace the entry with this id")
    collection: str = Field(min_length=1, description="e.g. ResearchFindings, VideoAnalyses, memory")
    tenant: str | None = Field(None, description="exact-match isolation key; None is its own tenant")
    text: str = Field(description="the claim; embedded by the caller and indexed for keyword search")
    subject: str | None = Field(None, description="structured memory: subject")
    predicate: str | None = Field(None, description="structured memory: predicate")
    object_value: str | None = Field(None, description="structured memory: value")
    source: EntrySource = Field("tool", description="memory, db or tool")
    source_tool: str | None = Field(None, description="tool that produced the entry, when source is tool")
    confidence: float = Field(1.0, ge=0.0, le=1.0)
    created_at: datetime = Field(default_factory=utcnow, description="UTC; naive values are taken as UTC")
    status: EntryStatus = "active"
    reinforcement_count: int = Field(1, ge=0, description="times the same claim was written again")
    vector: list[float] | None = Field(None, exclude=True, repr=False, description="embedding; not dumped")

    @field_validator("created_at")
    @classmethod
    def _utc(cls, value: datetime) -> datetime:
        return as_utc(value)

    @field_validator("vector")
    @classmethod
    def _finite(cls, value: list[float] | None) -> list[float] | None:
        if value is not None and not all(math.isfinite(x) for x in value):
            raise ValueError("vector must contain finite numbers only")
        return value


class SearchHit(BaseModel):
    """A hybrid-search result: fused score in 0..1 (higher is better), entry without its vector."""

    entry: KnowledgeEntry
    score: float
    vector_similarity: float | None = Field(None, description="cosine similarity of entry and query vectors")


class ConflictReportRecord(BaseModel):
    """A stored conflict report; `payload` is the JSON object (e.g. a ConflictReport dump).

    A JSON string is accepted for `payload` and parsed; it must decode to an object.
    """

    model_config = ConfigDict(extra="forbid")

    report_id: str = Field(min_length=1)
    topic: str | None = None
    entry_id: str | None = Field(None, description="the write that triggered the analysis, if any")
    tenant: str | None = None
    created_at: datetime = Field(default_factory=utcnow)
    payload: dict[str, Any] = Field(default_factory=dict)

    @field_validator("created_at")
    @classmethod
    def _utc(cls, value: datetime) -> datetime:
        return as_utc(value)

    @field_validator("payload", mode="before")
    @classmethod
    def _parse_json(cls, value: Any) -> Any:
        if isinstance(value, str | bytes):
            value = json.loads(value)
        if isinstance(value, Mapping):
            json.dumps(value)  # raises TypeError early for values a backend could not store
        return value

    def payload_json(self) -> str:
        return json.dumps(self.payload, ensure_ascii=False, separators=(",", ":"))


@runtime_checkable
class KnowledgeStore(Protocol):
    """What the knowledge-write pipeline needs from a store. Methods are synchronous (call
    them from a thread in async code); `close` releases the backend and is idempotent."""

    def upsert(self, entries: list[KnowledgeEntry]) -> None:
        """Insert or replace by entry_id (idempotent). Every entry needs a vector of the store's dimension."""
        ...

    def get(self, entry_id: str) -> KnowledgeEntry | None:
        """The entry with its vector, or None."""
        ...

    def hybrid_search(
        self,
        text: str,
        vector: Sequence[float],
        *,
        tenant: str | None,
        collections: Sequence[str] | None = None,
        statuses: Sequence[str] | None = DEFAULT_STATUSES,
        limit: int = 5,
        alpha: float = 0.5,
    ) -> list[SearchHit]:
        """Best `limit` entries of `tenant` by fused vector + keyword score, best first (entries without vectors)."""
        ...

    def update_status(self, entry_id: str, status: str, confidence: float | None = None) -> KnowledgeEntry | None:
        """Set status (and confidence, unless None); the updated entry, or None if there is no such entry."""
        ...

    def save_report(self, record: ConflictReportRecord) -> None:
        """Insert or replace by report_id."""
        ...

    def get_report(self, report_id: str) -> ConflictReportRecord | None: ...

    def count(self) -> int:
        """Number of stored entries."""
        ...

    def close(self) -> None: ...


# Helpers shared by the backends -------------------------------------------------------


def check_status(status: str) -> EntryStatus:
    if status not in ENTRY_STATUSES:
        raise ValueError(f"unknown status {status!r}; expected one of {ENTRY_STATUSES}")
    return status  # type: ignore[return-value]


def with_status(entry: KnowledgeEntry, status: str, confidence: float | None) -> KnowledgeEntry:
    """The entry with a new status, and a new confidence where one is given (`update_status`)."""
    changes: dict[str, Any] = {"status": status}
    if confidence is not None:
        changes["confidence"] = confidence
    return KnowledgeEntry(**{**entry.model_dump(), **changes}, vector=entry.vector)


def check_search_args(limit: int, alpha: float, statuses: Sequence[str] | None) -> None:
    if limit < 1:
        raise ValueError(f"limit must be >= 1, got {limit}")
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must be within 0..1, got {alpha}")
    if isinstance(statuses, str):
        raise TypeError("statuses must be a sequence of statuses, not a string")
    for status in statuses or ():
        check_status(status)


def search_vector(
    vector: Sequence[float],
    dim: int,
    limit: int,
    alpha: float,
    collections: Sequence[str] | None,
    statuses: Sequence[str] | None,
) -> list[float] | None:
    """The checked query vector of a hybrid search, or None when its filters can match nothing."""
    check_search_args(limit, alpha, statuses)
    query = check_vector(vector, dim, "the query")
    if (collections is not None and not collections) or (statuses is not None and not statuses):
        return None
    return query


def check_vector(vector: Sequence[float] | None, dim: int, what: str) -> list[float]:
    """The vector as a list of floats; ValueError when it is missing or of the wrong dimension."""
    if vector is None:
        raise ValueError(f"{what} has no vector (the store does not embed; pass shared_embedder() vectors)")
    values = [float(x) for x in vector]
    if len(values) != dim:
        raise ValueError(f"{what} has a {len(values)}-d vector, the store holds {dim}-d vectors")
    return values


def dedupe_last(entries: Iterable[KnowledgeEntry]) -> list[KnowledgeEntry]:
    """One entry per entry_id, the last one written wins (order of first appearance kept)."""
    latest: dict[str, KnowledgeEntry] = {}
    for entry in entries:
        latest[entry.entry_id] = entry
    return list(latest.values())


def cosine_similarity(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


def min_max(scores: Mapping[str, float]) -> dict[str, float]:
    """Scores scaled to 0..1 within the set; a set whose scores are all equal maps to 1."""
    if not scores:
        return {}
    low, high = min(scores.values()), max(scores.values())
    if high - low <= 1e-12:
        return dict.fromkeys(scores, 1.0)
    return {key: (value - low) / (high - low) for key, value in scores.items()}


def relative_score_fusion(
    vector_scores: Mapping[str, float], keyword_scores: Mapping[str, float], alpha: float
) -> list[tuple[str, float]]:
    """(id, fused score) best first: alpha * minmax(vector) + (1 - alpha) * minmax(keyword).

    Ties go to the higher raw vector score, then to the id, so results are deterministic.
    """
    vec, kw = min_max(vector_scores), min_max(keyword_scores)
    fused = {key: alpha * vec.get(key, 0.0) + (1.0 - alpha) * kw.get(key, 0.0) for key in vec.keys() | kw.keys()}
    return sorted(fused.items(), key=lambda item: (-item[1], -vector_scores.get(item[0], -2.0), item[0]))
