"""The orjson codec, registered with faust as 'orjson'.

Pydantic models are dumped in JSON mode (datetimes as ISO 8601, enums as values)."""

from __future__ import annotations

from typing import Any

import orjson
from faust.serializers import codecs
from pydantic import BaseModel

CODEC_NAME = "orjson"


def _default(obj: Any) -> Any:
    if isinstance(obj, BaseModel):
        return obj.model_dump(mode="json")
    raise TypeError(f"cannot serialise {type(obj).__name__} as JSON")


def dumps(obj: Any) -> bytes:
    """JSON bytes of a pydantic model or of plain data."""
    return orjson.dumps(obj, default=_default)


class OrjsonCodec(codecs.Codec):
    """faust codec that reads and writes JSON with orjson."""

    def _dumps(self, obj: Any) -> bytes:
        return dumps(obj)

    def _loads(self, s: bytes) -> Any:
        return orjson.loads(s)


def register() -> None:
    """Make 'orjson' usable as a faust key/value serializer (idempotent)."""
    codecs.register(CODEC_NAME, OrjsonCodec())
