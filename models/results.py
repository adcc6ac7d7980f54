"""Per-session results of an offline replay (seed 003's fields, per session)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from contraflow.models.events import ConflictEvent


class SessionResult(BaseModel):
    session_id: str
    model: str | None = None
    tenant: str | None = None
    status: str = Field("pass", description="K_Conflict status at the session's last turn")
    assistant_turns: int
    entity_recall_at_t10: float | None = None
    entity_recall_at_t10_extended: float | None = None
    drift_slope: float | None = None
    knowledge_conflict_rate: float | None = None
    evaluated_pairs: int
    contradictions: int
    global_contradiction_rate: float | None = None
    continuity_score: float | None = Field(None, description="session goal alignment; omitted without a plan")
    mean_ncp: float | None = None
    curves: dict[str, list[float]] = Field(default_factory=dict)
    turns: list[int] = Field(default_factory=list, description="turn indices of the assistant turns")
    advice_turns: list[int] = Field(default_factory=list, description="those that carried advice")
    conflicts: list[ConflictEvent] = Field(default_factory=list, description="every conflict event of the session")
