"""Per-session state kept in the faust table `contraflow-sessions` (key: session_id)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from models.events import Case, ConflictStatus


class AdviceItem(BaseModel):
    """Advice one assistant turn gave."""

    turn_index: int
    event_id: str
    text: str


class SessionState(BaseModel):
    """Everything the turn pipeline remembers about one session."""

    session_id: str
    tenant: str | None = None
    model: str | None = None
    case: Case | None = None
    turn_count: int = 0
    assistant_turns: int = Field(default=0, description="assistant turns seen; drives the stride")
    last_turn_index: int = Field(default=-1, description="highest processed turn_index (idempotency)")
    recent_event_ids: list[str] = Field(default_factory=list, description="bounded; repeated ids are ignored")
    previous_advice: AdviceItem | None = Field(default=None, description="advice of the previous assistant turn")
    advice_history: list[AdviceItem] = Field(default_factory=list, description="bounded recent advice")
    evaluated_pairs: int = 0
    contradictions: int = 0
    status: ConflictStatus = ConflictStatus.passing

    @property
    def k_conflict(self) -> float | None:
        if self.evaluated_pairs == 0:
            return None
        return self.contradictions / self.evaluated_pairs
