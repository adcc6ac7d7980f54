"""State the agents keep in faust tables: per session (`sessions`) and per rate window (`rate-windows`)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from contraflow.models.events import Case, ConflictStatus


class AdviceClaim(BaseModel):
    """One atomic advice item (or statement) and what it is about (`streams.extract.targets`)."""

    text: str
    targets: list[str] = Field(default_factory=list, description="named things: drugs, conditions, activities")
    words: list[str] = Field(default_factory=list, description="stemmed content words (fallback topic)")
    condition: str | None = Field(
        default=None, description="the case the user asked about, which the answer is for ('if I get a stomach bug')"
    )


class AdviceItem(BaseModel):
    """Advice one assistant turn gave."""

    turn_index: int
    event_id: str
    text: str = Field(description="the turn's advice sentences, joined (the seed's unit)")
    claims: list[AdviceClaim] = Field(default_factory=list, description="its atomic items")


class UserFact(BaseModel):
    """A new fact a user turn stated (`streams.extract.facts`): what can justify a revision."""

    turn_index: int
    event_id: str
    reason: str
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
    user_facts: list[UserFact] = Field(default_factory=list, description="bounded recent facts from user turns")
    focus: list[str] = Field(default_factory=list, description="targets of the latest user turn ('it' refers there)")
    asked_case: str | None = Field(
        default=None, description="the case the latest user turn asked about ('what should I do if…'), if any"
    )
    medicines: list[str] = Field(
        default_factory=list,
        description="medicines named by the latest turn that named any ('it' when the user named nothing)",
    )
    evaluated_pairs: int = 0
    contradictions: int = 0
    revisions: int = Field(default=0, description="contradicting pairs justified by a new user fact (not counted)")
    status: ConflictStatus = ConflictStatus.passing
    global_evaluated_pairs: int = 0
    global_contradictions: int = 0
    gold_critical: list[str] = Field(default_factory=list)
    gold_extended: list[str] = Field(default_factory=list)
    curves: dict[str, list[float]] = Field(
        default_factory=dict, description="per-assistant-turn entity metrics, e.g. recall_critical"
    )
    recall_gate_failed: bool = Field(default=False, description="recall at T10 was below the gate (alerted)")
    slope_drifting: bool = Field(default=False, description="drift slope is below its threshold (alerted)")

    @property
    def k_conflict(self) -> float | None:
        """Seed 000's K_Conflict over sampled adjacent pairs; None before the first pair."""
        return self.contradictions / self.evaluated_pairs if self.evaluated_pairs else None

    @property
    def global_rate(self) -> float | None:
        """Contradictions among all checked (earlier advice, new advice) pairs."""
        return self.global_contradictions / self.global_evaluated_pairs if self.global_evaluated_pairs else None


class RateWindowState(BaseModel):
    """One model's or tenant's contradiction rate over tumbling windows of one length."""

    dimension: Literal["model", "tenant"]
    value: str
    window_seconds: int
    window_start: datetime
    pairs: int = 0
    contradictions: int = 0
    level: ConflictStatus = ConflictStatus.passing
    trend: Literal["normal", "rising"] = "normal"
    baseline_mean: float = 0.0
    baseline_var: float = 0.0
    baseline_windows: int = Field(0, description="closed windows with enough pairs folded into the baseline")
    last_sample_id: str | None = Field(
        None, description="the last sample counted: the same sample delivered again is not counted again"
    )
