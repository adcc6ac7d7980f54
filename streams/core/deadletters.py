"""Turning raw input records into events, and failures into dead letters.

Every way an input can fail has a kind: `not_json` (bytes that do not parse), `invalid`
(JSON that fails the event's schema), `too_large` (text over the configured limit) and
`processing` (the pipeline raised). Nothing is dropped without a dead letter.
"""

from __future__ import annotations

import base64
from datetime import UTC, datetime
from typing import TypeVar

import orjson
from pydantic import BaseModel, ValidationError

from contraflow.models.events import DeadLetter
from contraflow.models.ids import stable_id
from contraflow.streams.errors import BadInput

M = TypeVar("M", bound=BaseModel)


class InputError(BadInput):
    """An input record that cannot be processed, with its dead-letter kind."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def decode_event(raw: bytes | None, model: type[M]) -> M:
    """Parse and validate one JSON record as `model`; InputError on failure."""
    if raw is None:
        raise InputError("invalid", "the record has no value")
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise InputError("not_json", f"value is not JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise InputError("invalid", f"value is JSON {type(data).__name__}, expected an object")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'value'}: {e['msg']}" for e in exc.errors())
        raise InputError("invalid", f"{model.__name__} schema: {problems}") from exc


def check_text_size(text: str, limit: int, field: str = "text") -> None:
    """InputError when a text field is over the configured limit."""
    if len(text) > limit:
        raise InputError("too_large", f"{field} has {len(text)} characters, over the limit of {limit}")


def dead_letter(
    *,
    topic: str,
    partition: int,
    offset: int,
    key: bytes | None,
    raw: bytes | None,
    kind: str,
    error: str,
    max_bytes: int,
    now: datetime | None = None,
) -> DeadLetter:
    """A dead letter for one input record; its id is fixed by topic/partition/offset."""
    value = raw or b""
    return DeadLetter(
        deadletter_id=stable_id("deadletter", topic, partition, offset),
        topic=topic,
        partition=partition,
        offset=offset,
        key=key.decode("utf-8", errors="replace")[:1024] if key is not None else None,
        raw_base64=base64.b64encode(value[:max_bytes]).decode("ascii"),
        raw_size=len(value),
        raw_truncated=len(value) > max_bytes,
        error_kind=kind,
        error=error[:4096],
        failed_at=now or datetime.now(UTC),
    )
