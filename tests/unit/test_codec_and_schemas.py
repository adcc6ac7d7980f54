from datetime import UTC, datetime
from pathlib import Path

import orjson

from contraflow.models.events import Claim, ConflictEvent, NLIProbabilities
from contraflow.streams.runtime.codec import OrjsonCodec, dumps
from contraflow.topics.catalog import ALL_TOPICS
from contraflow.topics.schema import check_schemas, schemas

DOCS = Path(__file__).resolve().parents[2] / "docs" / "topics"


def test_codec_round_trips_an_event_as_json() -> None:
    event = ConflictEvent(
        conflict_id="conflict-1",
        kind="turn_self_contradiction",
        scope="adjacent",
        claim_a=Claim(text="a", source="turn", turn_index=1),
        claim_b=Claim(text="b", source="turn", turn_index=3),
        nli_ab=NLIProbabilities(entailment=0.1, neutral=0.1, contradiction=0.8),
        detected_at=datetime(2026, 11, 22, tzinfo=UTC),
    )
    codec = OrjsonCodec()
    data = codec.loads(codec.dumps(event))
    assert data["claim_b"]["turn_index"] == 3 and data["detected_at"] == "2026-11-22T00:00:00Z"
    assert ConflictEvent.model_validate(data) == event
    assert orjson.loads(dumps({"x": 1})) == {"x": 1}


def test_every_topic_has_a_schema_and_the_docs_are_current() -> None:
    assert len(schemas()) == 2 * len(ALL_TOPICS)
    assert check_schemas(DOCS) == [], "run `contraflow schemas` to refresh docs/topics"
