"""Every event contraflow reads or writes, defined once.

Inputs are validated here (a value that fails goes to the dead-letter topic with the
validation error); outputs are built here and serialised with the orjson codec.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, Strict


class Role(StrEnum):
    user = "user"
    assistant = "assistant"
    system = "system"


class ConflictStatus(StrEnum):
    """K_Conflict interpretation of seed 000: < 0.05 pass, 0.05–0.10 caution, > 0.10 failure."""

    passing = "pass"
    caution = "caution"
    failure = "failure"


class Case(BaseModel):
    """Clinical case facts that come with a conversation (Study C)."""

    model_config = ConfigDict(extra="ignore")

    critical_entities: list[str] = Field(default_factory=list)
    patient_summary: str = ""
    target_plan: str | None = None


def _iso_text(value: object) -> object:
    """Input times are ISO 8601 text: a bare number (seconds? milliseconds?) is refused."""
    if not isinstance(value, str | datetime):
        raise ValueError(f"expected an ISO 8601 date-time string, got {type(value).__name__}")
    if isinstance(value, str) and value.strip().lstrip("+-").replace(".", "", 1).isdigit():
        raise ValueError(f"expected an ISO 8601 date-time string, got the number {value!r}")
    return value


IsoDateTime = Annotated[datetime, BeforeValidator(_iso_text)]
StrictCount = Annotated[int, Strict()]  # no booleans, no floats, no numeric strings
StrictNumber = Annotated[float, Strict()]  # ints are fine; booleans and strings are not


class TurnEvent(BaseModel):
    """One conversation turn on `contraflow.turns` (key: session_id)."""

    model_config = ConfigDict(extra="ignore", str_strip_whitespace=False)

    event_id: str = Field(min_length=1, max_length=256, description="unique id of this turn; repeats are ignored")
    session_id: str = Field(min_length=1, max_length=256, description="conversation id; also the record key")
    turn_index: StrictCount = Field(
        ge=0, description="position in the conversation; at or below the last processed is ignored"
    )
    role: Role
    text: str = Field(description="the turn's text (limit: CONTRAFLOW_MAX_TEXT_CHARS)")
    ts: IsoDateTime = Field(description="when the turn happened, ISO 8601")
    tenant: str | None = None
    model: str | None = None
    candidates: list[str] = Field(default_factory=list, description="alternative sampled responses (NCP)")
    summary: str | None = Field(default=None, description="the model's own state summary at this turn")
    case: Case | None = None


class KnowledgeWrite(BaseModel):
    """One knowledge or memory write on `contraflow.knowledge.writes` (key: entry_id or subject)."""

    model_config = ConfigDict(extra="ignore")

    entry_id: str = Field(min_length=1, max_length=256, description="id of the stored entry; a repeat upserts it")
    collection: str = Field(min_length=1, description="one of CONTRAFLOW_KNOWLEDGE_COLLECTIONS")
    text: str = Field(min_length=1, description="the claim")
    subject: str | None = Field(None, description="structured memory: what the claim is about")
    predicate: str | None = Field(None, description="structured memory: which attribute")
    object_value: str | None = Field(None, description="structured memory: the value")
    source: Literal["memory", "db", "tool"] = Field("memory", description="where the write comes from")
    source_tool: str | None = Field(None, description="the tool that produced it, for source=tool")
    confidence: StrictNumber = Field(0.8, ge=0.0, le=1.0)
    reinforcement_count: StrictCount = Field(
        1, ge=1, description="times the source has confirmed this value (seed 004)"
    )
    created_at: IsoDateTime = Field(description="when the claim was made, ISO 8601")
    tenant: str | None = None

    @property
    def structured(self) -> bool:
        return bool(self.subject and self.predicate and self.object_value is not None)


class ResolutionVerdict(BaseModel):
    """A person's verdict on a conflict, on `contraflow.knowledge.resolutions` (key: conflict_id)."""

    model_config = ConfigDict(extra="ignore")

    conflict_id: str = Field(min_length=1)
    verdict: Literal["a_correct", "b_correct", "both_valid", "context_dependent"]
    explanation: str = ""
    resolved_by: str | None = None
    ts: IsoDateTime


class MemoryUpdate(BaseModel):
    """A stored entry's status or confidence changed, on `contraflow.memory.updates`."""

    update_id: str = Field(description="deterministic id from the entry, the cause and the new state")
    entry_id: str
    tenant: str | None = None
    collection: str | None = None
    subject: str | None = None
    predicate: str | None = None
    object_value: str | None = None
    previous_status: str
    status: str = Field(description="active, conflicted or superseded")
    previous_confidence: float
    confidence: float
    reinforcement_count: int = 1
    conflict_id: str | None = Field(None, description="the conflict that caused the change")
    reason: str
    ts: datetime


class NLIProbabilities(BaseModel):
    """Class probabilities of one NLI direction (premise -> hypothesis)."""

    entailment: float
    neutral: float
    contradiction: float

    @property
    def verdict(self) -> str:
        """The argmax label."""
        scores = {"entailment": self.entailment, "neutral": self.neutral, "contradiction": self.contradiction}
        return max(scores, key=scores.__getitem__)


class Claim(BaseModel):
    """One side of a conflict: what was said and where it came from."""

    text: str
    source: str = Field(description="where the claim came from, e.g. 'turn' or a knowledge source")
    turn_index: int | None = None
    event_id: str | None = None
    entry_id: str | None = None


class Resolution(BaseModel):
    """How a conflict was (or should be) resolved, in seed 004's transparent shape."""

    strategy: str
    chosen_value: str | None = None
    action: str
    rationale: str


class ConflictEvent(BaseModel):
    """A detected contradiction on `contraflow.conflicts`."""

    conflict_id: str = Field(description="deterministic id from the inputs (drop duplicates by it)")
    kind: str = Field(description="turn_self_contradiction, turn_revision, knowledge or memory")
    scope: str = Field(description="adjacent (K_Conflict pair), global, or store")
    session_id: str | None = None
    tenant: str | None = None
    model: str | None = None
    claim_a: Claim = Field(description="the earlier claim (NLI premise)")
    claim_b: Claim = Field(description="the later claim (NLI hypothesis)")
    nli_ab: NLIProbabilities | None = Field(
        default=None,
        description="NLI of (claim_a, claim_b); none for kind memory, which seed 004 decides on the values",
    )
    nli_ba: NLIProbabilities | None = Field(default=None, description="NLI of (claim_b, claim_a), when scored")
    p_contradiction: float | None = Field(
        default=None, description="the score the verdict used: mean p(contradiction) of both directions, when scored"
    )
    justified_by: Claim | None = Field(
        default=None, description="turn_revision: the user turn whose new fact justifies the change"
    )
    disagrees_on: str | None = Field(
        default=None,
        description="verdict regimen: the slot the two instructions disagree on (polarity, amount, frequency, "
        "time of day, food); null when the NLI threshold decided",
    )
    conflict_type: str = Field("factual", description="factual, temporal, methodological, scope or opinion")
    severity: str = Field(
        "medium", description="high (p(contradiction) >= 0.9, or instructions that disagree on a slot), medium or low"
    )
    resolution: Resolution | None = None
    detected_at: datetime = Field(description="event time of the later claim")


class EntityMetrics(BaseModel):
    """Entity recall of one turn against one gold set (seed 003)."""

    recall: float
    precision: float
    f1: float
    hallucinated_rate: float
    gold: int = Field(description="size of the gold set")
    matched: list[str] = Field(default_factory=list, description="gold entities recalled in this turn")


class ScoreEvent(BaseModel):
    """Per-assistant-turn metric snapshot of a session on `contraflow.scores`."""

    score_id: str = Field(description="deterministic id from session, event and turn")
    session_id: str
    turn_index: int
    event_id: str
    tenant: str | None = None
    model: str | None = None
    advice: str = Field(description="advice extracted from this turn ('' when none)")
    pair_evaluated: bool = Field(description="whether this turn's adjacent pair went to NLI")
    pair_nli: NLIProbabilities | None = Field(default=None, description="NLI of (previous advice, this advice)")
    pair_contradiction: bool = Field(False, description="whether that pair counted as a contradiction")
    evaluated_pairs: int
    contradictions: int
    revisions: int = Field(0, description="contradicting pairs justified by a new user fact, session so far")
    nli_pairs: int = Field(0, description="NLI pairs (each direction counts) this turn sent to the model")
    k_conflict: float | None = Field(description="contradictions / evaluated pairs; null before the first pair")
    status: ConflictStatus
    global_evaluated_pairs: int = Field(0, description="pairs of this advice with earlier advice, session so far")
    global_contradictions: int = Field(0, description="contradictions among those pairs")
    global_rate: float | None = Field(None, description="global contradictions / global pairs")
    assistant_turn: int = Field(1, description="1-based number of this assistant turn in the session (T)")
    entities_critical: EntityMetrics | None = Field(None, description="against the case's critical_entities")
    entities_extended: EntityMetrics | None = Field(None, description="against critical + patient-summary entities")
    recall_at_t10: float | None = Field(None, description="critical recall at T10, from the 10th assistant turn on")
    drift_slope: float | None = Field(None, description="least-squares slope of critical recall on T")
    ncp: float | None = Field(None, description="non-contradiction probability against `candidates` (seed 002)")
    alignment: float | None = Field(None, description="cosine(session actions, target plan); null without a plan")
    repetition_ratio: float = Field(0.0, description="share of repeated word 4-grams in the raw text")
    cleaned: bool = Field(False, description="whether the text was cleaned before joining the history")
    ts: datetime


class DriftAlert(BaseModel):
    """A drift alert on `contraflow.alerts`."""

    alert_id: str = Field(description="deterministic id from session, metric, event and new status")
    kind: str = Field(description="e.g. k_conflict_status")
    session_id: str | None = None
    tenant: str | None = None
    model: str | None = None
    turn_index: int | None = None
    metric: str
    value: float
    threshold: float
    previous_status: str
    status: str
    message: str
    ts: datetime
    window_seconds: int | None = Field(None, description="rate alerts: length of the tumbling window")
    window_start: datetime | None = Field(None, description="rate alerts: start of the window that was judged")
    pairs: int | None = Field(None, description="rate alerts: evaluated pairs in that window")


class RateSample(BaseModel):
    """One evaluated adjacent pair of a turn, re-keyed by model or tenant (`contraflow.rates.samples`)."""

    sample_id: str = Field(description="deterministic id from the score and the dimension")
    dimension: Literal["model", "tenant"]
    value: str = Field(min_length=1, description="the model or tenant name")
    pairs: int = Field(ge=0)
    contradictions: int = Field(ge=0)
    ts: datetime = Field(description="the turn's time: windows are event-time windows")

    @property
    def key(self) -> str:
        return f"{self.dimension}={self.value}"


class DeadLetter(BaseModel):
    """An input that could not be processed, on `contraflow.deadletter`."""

    deadletter_id: str = Field(description="deterministic id from topic, partition and offset")
    topic: str
    partition: int
    offset: int
    key: str | None = Field(default=None, description="the record key, decoded as UTF-8 with replacement")
    raw_base64: str = Field(description="the raw value, base64, cut at the configured bound")
    raw_size: int = Field(description="size of the whole raw value in bytes")
    raw_truncated: bool
    error_kind: str = Field(description="not_json, invalid, too_large or processing")
    error: str
    failed_at: datetime
