import base64

import orjson
import pytest

from contraflow.models.events import TurnEvent
from contraflow.streams.core.deadletters import InputError, check_text_size, dead_letter, decode_event

GOOD = {
    "event_id": "e1",
    "session_id": "s1",
    "turn_index": 0,
    "role": "assistant",
    "text": "Take aspirin.",
    "ts": "2026-11-22T09:00:00Z",
}


def test_valid_turn_decodes() -> None:
    turn = decode_event(orjson.dumps(GOOD), TurnEvent)
    assert turn.session_id == "s1" and turn.role == "assistant" and turn.candidates == []


@pytest.mark.parametrize(
    ("raw", "kind", "message"),
    [
        (b"not json at all", "not_json", "value is not JSON"),
        (b"\xff\xfe\x00", "not_json", "value is not JSON"),
        (b"[1, 2]", "invalid", "expected an object"),
        (None, "invalid", "no value"),
        (orjson.dumps({**GOOD, "turn_index": "first"}), "invalid", "turn_index"),
        (orjson.dumps({**GOOD, "role": "robot"}), "invalid", "role"),
        (orjson.dumps({k: v for k, v in GOOD.items() if k != "text"}), "invalid", "text: Field required"),
        (orjson.dumps({**GOOD, "ts": "yesterday"}), "invalid", "ts"),
    ],
)
def test_bad_records_are_classified(raw: bytes | None, kind: str, message: str) -> None:
    with pytest.raises(InputError, match=message) as caught:
        decode_event(raw, TurnEvent)
    assert caught.value.kind == kind


def test_text_over_the_limit_is_too_large() -> None:
    check_text_size("x" * 10, 10)
    with pytest.raises(InputError, match="11 characters, over the limit of 10") as caught:
        check_text_size("x" * 11, 10)
    assert caught.value.kind == "too_large"


def test_dead_letter_keeps_a_bounded_raw_value_and_where_it_came_from() -> None:
    raw = b"y" * 100
    letter = dead_letter(
        topic="contraflow.turns", partition=3, offset=42, key=b"s1", raw=raw, kind="not_json", error="bad", max_bytes=10
    )
    assert (letter.topic, letter.partition, letter.offset, letter.key) == ("contraflow.turns", 3, 42, "s1")
    assert base64.b64decode(letter.raw_base64) == b"y" * 10
    assert letter.raw_size == 100 and letter.raw_truncated
    again = dead_letter(
        topic="contraflow.turns", partition=3, offset=42, key=b"s1", raw=raw, kind="not_json", error="bad", max_bytes=10
    )
    assert again.deadletter_id == letter.deadletter_id


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("turn_index", True, "turn_index"),
        ("turn_index", 2.0, "turn_index"),
        ("turn_index", "3", "turn_index"),
        ("ts", 12, "ISO 8601"),
        ("ts", 1.7e9, "ISO 8601"),
        ("ts", "12", "ISO 8601"),
        ("ts", True, "ISO 8601"),
    ],
)
def test_wrong_types_are_invalid_not_coerced(field: str, value: object, message: str) -> None:
    with pytest.raises(InputError) as caught:
        decode_event(orjson.dumps({**GOOD, field: value}), TurnEvent)
    assert caught.value.kind == "invalid" and message in str(caught.value)


def test_knowledge_inputs_are_strict_too() -> None:
    from contraflow.models.events import KnowledgeWrite, ResolutionVerdict

    write = {"entry_id": "k1", "collection": "default", "text": "x", "created_at": "2026-11-22T09:00:00Z"}
    assert decode_event(orjson.dumps({**write, "confidence": 1}), KnowledgeWrite).confidence == 1.0
    for bad in ({"confidence": True}, {"reinforcement_count": False}, {"created_at": 12}):
        with pytest.raises(InputError):
            decode_event(orjson.dumps({**write, **bad}), KnowledgeWrite)
    with pytest.raises(InputError):
        decode_event(orjson.dumps({"conflict_id": "c", "verdict": "a_correct", "ts": 12}), ResolutionVerdict)
