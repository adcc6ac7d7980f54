"""What the `sessions` table stores per session: the pipeline's state and the outputs of the
session's last few turns, so that a turn processed again after a crash (the same input
record, re-consumed) re-sends its outputs under the same ids instead of staying silent."""

from __future__ import annotations

from pydantic import BaseModel, Field

from contraflow.models.events import ConflictEvent, DriftAlert, ScoreEvent
from contraflow.models.state import SessionState


class TurnOutputs(BaseModel):
    """The events one input record (a turn) caused."""

    partition: int = Field(description="input partition of the turn's record")
    offset: int = Field(description="input offset of the turn's record")
    conflicts: list[ConflictEvent] = Field(default_factory=list)
    alerts: list[DriftAlert] = Field(default_factory=list)
    scores: list[ScoreEvent] = Field(default_factory=list)

    def caused_by(self, partition: int, offset: int) -> bool:
        return self.partition == partition and self.offset == offset


class StoredSession(BaseModel):
    """One value of the `sessions` table."""

    state: SessionState
    recent_outputs: list[TurnOutputs] = Field(default_factory=list, description="bounded, oldest first")

    @classmethod
    def load(cls, stored: dict) -> StoredSession:
        """A stored value; a bare SessionState (written before outputs were kept) too."""
        return cls.model_validate(stored) if "state" in stored else cls(state=SessionState.model_validate(stored))

    def outputs_of(self, partition: int, offset: int) -> TurnOutputs | None:
        return next((out for out in self.recent_outputs if out.caused_by(partition, offset)), None)
