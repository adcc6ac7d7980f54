"""Every topic contraflow reads or writes: name, key, value event, retention.

The one place topic names live; the worker creates them on start."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from contraflow.models.events import (
    ConflictEvent,
    DeadLetter,
    DriftAlert,
    KnowledgeWrite,
    MemoryUpdate,
    RateSample,
    ResolutionVerdict,
    ScoreEvent,
    TurnEvent,
)

DAY_MS = 24 * 60 * 60 * 1000


class TopicSpec(BaseModel):
    """One topic: its name, what its key holds, the event of its values, and retention."""

    model_config = ConfigDict(arbitrary_types_allowed=True, frozen=True)

    name: str
    key: str
    value: type[BaseModel]
    direction: str
    retention_ms: int = 7 * DAY_MS
    description: str


TURNS = TopicSpec(
    name="contraflow.turns",
    key="session_id",
    value=TurnEvent,
    direction="input",
    description="conversation turns from the chat systems",
)
KNOWLEDGE_WRITES = TopicSpec(
    name="contraflow.knowledge.writes",
    key="subject for structured memory, else entry_id",
    value=KnowledgeWrite,
    direction="input",
    description="knowledge and memory writes, checked for conflicts before they are stored",
)
KNOWLEDGE_RESOLUTIONS = TopicSpec(
    name="contraflow.knowledge.resolutions",
    key="conflict_id",
    value=ResolutionVerdict,
    direction="input",
    description="a person's verdict on a conflict",
)
MEMORY_UPDATES = TopicSpec(
    name="contraflow.memory.updates",
    key="entry_id",
    value=MemoryUpdate,
    direction="output",
    description="a stored entry's status or confidence changed, with the conflict that caused it",
)
CONFLICTS = TopicSpec(
    name="contraflow.conflicts",
    key="session_id (turns) or subject (knowledge)",
    value=ConflictEvent,
    direction="output",
    retention_ms=30 * DAY_MS,
    description="every detected contradiction",
)
SCORES = TopicSpec(
    name="contraflow.scores",
    key="session_id",
    value=ScoreEvent,
    direction="output",
    description="per-assistant-turn metric snapshot of a session",
)
ALERTS = TopicSpec(
    name="contraflow.alerts",
    key="session_id, model or tenant",
    value=DriftAlert,
    direction="output",
    retention_ms=30 * DAY_MS,
    description="drift alerts: K_Conflict status changes and other drift signals",
)
RATE_SAMPLES = TopicSpec(
    name="contraflow.rates.samples",
    key="dimension=value, e.g. model=gpt-x",
    value=RateSample,
    direction="internal",
    description="evaluated pairs re-keyed by model and tenant, for the windowed contradiction rates",
)
DEADLETTER = TopicSpec(
    name="contraflow.deadletter",
    key="the input record's key",
    value=DeadLetter,
    direction="output",
    retention_ms=30 * DAY_MS,
    description="inputs that could not be processed, with the error",
)

ALL_TOPICS: tuple[TopicSpec, ...] = (
    TURNS,
    KNOWLEDGE_WRITES,
    KNOWLEDGE_RESOLUTIONS,
    CONFLICTS,
    SCORES,
    ALERTS,
    MEMORY_UPDATES,
    RATE_SAMPLES,
    DEADLETTER,
)
OUTPUT_TOPICS: tuple[TopicSpec, ...] = tuple(t for t in ALL_TOPICS if t.direction == "output")

# The worker's tables; faust keeps each one's changes in the topic `changelog_topic` names.
SESSIONS_TABLE = "sessions"
RATES_TABLE = "rate-windows"
SLOTS_TABLE = "memory-slots"


def changelog_topic(app_id: str, table: str) -> str:
    """The topic faust writes a table's changes to (and recovers the table from)."""
    return f"{app_id}-{table}-changelog"
