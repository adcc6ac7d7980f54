"""Deterministic ids: the same inputs always give the same id, so consumers can drop
the duplicates that at-least-once delivery allows."""

from __future__ import annotations

import hashlib


def stable_id(kind: str, *parts: object) -> str:
    """A 32-hex-digit id from a kind and the parts that identify one output."""
    digest = hashlib.sha256()
    digest.update(kind.encode())
    for part in parts:
        digest.update(b"\x1f")
        digest.update(str(part).encode())
    return f"{kind}-{digest.hexdigest()[:32]}"
