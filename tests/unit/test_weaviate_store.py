"""WeaviateStore: the pure schema/filter/query builders and the store's calls against a fake
client run everywhere; the protocol's behaviour checks (StoreContract) run against a live
server only when WEAVIATE_URL is set (WEAVIATE_API_KEY optional)."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest.mock import MagicMock

import pytest

from contraflow.streams.core.knowledge.store import ConflictReportRecord, KnowledgeEntry, KnowledgeStore
from contraflow.streams.core.knowledge.weaviate import WeaviateStore
from contraflow.streams.core.knowledge.weaviate_builders import (
    ENTRY_FIELDS,
    VECTOR_NAME,
    build_filters,
    build_hybrid_kwargs,
    connection_kwargs,
    entry_collection_config,
    entry_to_properties,
    object_uuid,
    properties_to_entry,
    properties_to_report,
    report_collection_config,
    report_to_properties,
)
from tests.store_contract import CREATED, StoreContract

ROOT = Path(__file__).resolve().parents[2]
WEAVIATE_URL = os.environ.get("WEAVIATE_URL")


def rest(filters: Any) -> dict[str, Any]:
    """The REST form of a v4 filter: a plain dict to compare against."""
    from weaviate.collections.filters import _FilterToREST

    return _FilterToREST.convert(filters)


def unit_vector(dim: int = 384) -> list[float]:
    return [1.0] + [0.0] * (dim - 1)


# -- pure builders ------------------------------------------------------------------------


def test_import_does_not_load_the_client() -> None:
    code = "import sys, contraflow.streams.core.knowledge.weaviate; print('weaviate' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_entry_collection_config() -> None:
    from weaviate.classes.config import DataType, Tokenization

    config = entry_collection_config("Entries")
    assert config["name"] == "Entries"
    props = {p.name: p for p in config["properties"]}
    assert tuple(props) == ENTRY_FIELDS
    assert props["text"].dataType == DataType.TEXT and props["text"].indexSearchable is True
    assert props["text"].tokenization == Tokenization.WORD
    for name in ("entry_id", "tenant", "collection", "status", "source"):
        assert props[name].tokenization == Tokenization.FIELD and props[name].indexSearchable is False
        assert props[name].indexFilterable is True
    assert props["confidence"].dataType == DataType.NUMBER
    assert props["created_at"].dataType == DataType.DATE
    assert props["reinforcement_count"].dataType == DataType.INT
    vectors = config["vector_config"]
    assert vectors.name == VECTOR_NAME
    assert vectors._to_dict() == {
        "vectorizer": {"none": {}},
        "vectorIndexType": "hnsw",
        "vectorIndexConfig": {"distance": "cosine"},
    }
    assert config["inverted_index_config"]._to_dict()["indexNullState"] is True


def test_report_collection_config() -> None:
    config = report_collection_config()
    assert config["name"] == "ConflictReports"
    names = [p.name for p in config["properties"]]
    assert {"report_id", "topic", "payload_json", "summary", "conflict_count", "sensitivity"} <= set(names)
    assert config["vector_config"]._to_dict()["vectorizer"] == {"none": {}}


def test_build_filters() -> None:
    assert rest(build_filters(None, None, None)) == {"operator": "IsNull", "path": ["tenant"], "valueBoolean": True}
    assert rest(build_filters("o'brien", ["A", "B'"], ["active"])) == {
        "operator": "And",
        "operands": [
            {"operator": "Equal", "path": ["tenant"], "valueText": "o'brien"},
            {"operator": "ContainsAny", "path": ["collection"], "valueTextArray": ["A", "B'"]},
            {"operator": "ContainsAny", "path": ["status"], "valueTextArray": ["active"]},
        ],
    }
    assert rest(build_filters("t", None, ("active", "conflicted")))["operands"][1] == {
        "operator": "ContainsAny",
        "path": ["status"],
        "valueTextArray": ["active", "conflicted"],
    }
    with pytest.raises(ValueError):
        build_filters("t", [], None)
    with pytest.raises(TypeError):
        build_filters("t", None, "active")


def test_build_hybrid_kwargs() -> None:
    from weaviate.classes.query import HybridFusion

    kwargs = build_hybrid_kwargs(
        "aspirin kidney", [0.5, 0.5], tenant="t1", collections=None, statuses=["active"], limit=7, alpha=0.3
    )
    assert kwargs["query"] == "aspirin kidney" and kwargs["alpha"] == 0.3 and kwargs["limit"] == 7
    assert kwargs["vector"] == [0.5, 0.5] and kwargs["target_vector"] == VECTOR_NAME
    assert kwargs["fusion_type"] == HybridFusion.RELATIVE_SCORE
    assert kwargs["query_properties"] == ["text"]
    assert kwargs["return_metadata"].score is True
    assert rest(kwargs["filters"])["operator"] == "And"
    blank = build_hybrid_kwargs("  ", [1.0], tenant=None, collections=None, statuses=None, limit=1, alpha=0.2)
    assert blank["query"] is None and blank["alpha"] == 1.0
    assert rest(blank["filters"])["operator"] == "IsNull"


def test_connection_kwargs() -> None:
    local = connection_kwargs("http://localhost:8080")
    assert (local["http_host"], local["http_port"], local["http_secure"]) == ("localhost", 8080, False)
    assert (local["grpc_host"], local["grpc_port"], local["grpc_secure"]) == ("localhost", 50051, False)
    assert local["auth_credentials"] is None and local["skip_init_checks"] is True
    assert local["additional_config"].trust_env is False
    cloud = connection_kwargs("https://abc.weaviate.cloud", "key", grpc_host="grpc-abc.weaviate.cloud", timeout_s=5)
    assert (cloud["http_port"], cloud["grpc_port"], cloud["grpc_secure"]) == (443, 443, True)
    assert cloud["grpc_host"] == "grpc-abc.weaviate.cloud" and cloud["auth_credentials"].api_key == "key"
    assert cloud["additional_config"].timeout.query == 5
    assert connection_kwargs("weaviate:8080", grpc_port=50052)["grpc_port"] == 50052
    with pytest.raises(ValueError):
        connection_kwargs("ftp://host")


def test_property_mapping_round_trip() -> None:
    entry = KnowledgeEntry(
        entry_id="e1",
        collection="memory",
        tenant=None,
        text="t",
        subject="user",
        predicate="likes",
        object_value="tea",
        source="memory",
        confidence=0.25,
        created_at=CREATED,
        reinforcement_count=4,
        vector=[0.1, 0.2],
    )
    props = entry_to_properties(entry)
    assert "tenant" not in props and "source_tool" not in props and "vector" not in props
    back = properties_to_entry(props, {VECTOR_NAME: [0.1, 0.2]})
    assert back.model_dump() == entry.model_dump() and back.vector == [0.1, 0.2]
    assert properties_to_entry({**props, "reinforcement_count": 4.0}, None).vector is None

    record = ConflictReportRecord(
        report_id="r1",
        topic="x",
        created_at=CREATED,
        payload={
            "summary": "two claims disagree",
            "sources_analyzed": 3,
            "conflicts": [{}, {}],
            "sensitivity": "strict",
        },
    )
    props = report_to_properties(record)
    assert props["conflict_count"] == 2 and props["summary"] == "two claims disagree"
    assert props["sources_analyzed"] == 3 and props["sensitivity"] == "strict"
    assert "entry_id" not in props
    assert properties_to_report(props) == record


def test_object_uuid_is_stable_and_kind_scoped() -> None:
    assert object_uuid("entry", "a") == object_uuid("entry", "a")
    assert object_uuid("entry", "a") != object_uuid("report", "a")
    assert uuid.UUID(object_uuid("entry", "a")).version == 5


# -- the store against a fake client --------------------------------------------------------


@pytest.fixture
def fake_client() -> MagicMock:
    client = MagicMock()
    client.collections.exists.return_value = False
    collections: dict[str, MagicMock] = {}

    def use(name: str) -> MagicMock:
        col = collections.setdefault(name, MagicMock(name=name))
        col.data.insert_many.return_value = SimpleNamespace(has_errors=False, errors={})
        return col

    client.collections.use.side_effect = use
    return client


def test_store_creates_collections_and_upserts(fake_client: MagicMock) -> None:
    store = WeaviateStore("http://unused", client=fake_client, dim=2, entries_collection="E", reports_collection="R")
    created = [call.kwargs["name"] for call in fake_client.collections.create.call_args_list]
    assert created == ["E", "R"]
    entry = KnowledgeEntry(entry_id="a", collection="c", tenant="t", text="x", vector=[0.6, 0.8])
    store.upsert([entry, entry.model_copy(update={"text": "y"})])
    (objects,) = store._entries.data.insert_many.call_args.args
    assert len(objects) == 1
    assert objects[0].uuid == object_uuid("entry", "a")
    assert objects[0].vector == {VECTOR_NAME: [0.6, 0.8]} and objects[0].properties["text"] == "y"
    with pytest.raises(ValueError):
        store.upsert([KnowledgeEntry(entry_id="b", collection="c", text="x", vector=[1.0, 0.0, 0.0])])
    store._entries.data.insert_many.return_value = SimpleNamespace(
        has_errors=True, errors={0: SimpleNamespace(message="boom")}
    )
    with pytest.raises(RuntimeError, match="boom"):
        store.upsert([entry])
    store.close()
    fake_client.close.assert_not_called()  # the caller's client stays open
    with pytest.raises(RuntimeError, match="closed"):
        store.count()


def test_store_search_update_and_reports(fake_client: MagicMock) -> None:
    store = WeaviateStore("http://unused", client=fake_client, dim=2)
    props = {
        "entry_id": "a",
        "collection": "c",
        "tenant": "t",
        "text": "x",
        "source": "tool",
        "confidence": 0.5,
        "created_at": CREATED,
        "status": "active",
        "reinforcement_count": 1,
    }
    store._entries.query.hybrid.return_value = SimpleNamespace(
        objects=[
            SimpleNamespace(properties=props, vector={VECTOR_NAME: [0.0, 1.0]}, metadata=SimpleNamespace(score=0.9))
        ]
    )
    hits = store.hybrid_search("x", [0.0, 2.0], tenant="t", collections=["c"], limit=3)
    kwargs = store._entries.query.hybrid.call_args.kwargs
    assert kwargs["limit"] == 3 and kwargs["alpha"] == 0.5
    assert rest(kwargs["filters"])["operands"][0] == {"operator": "Equal", "path": ["tenant"], "valueText": "t"}
    assert len(hits) == 1 and hits[0].score == 0.9 and hits[0].entry.vector is None
    assert hits[0].vector_similarity == pytest.approx(1.0)
    store._entries.query.hybrid.reset_mock()
    assert store.hybrid_search("x", [0.0, 1.0], tenant="t", statuses=[]) == []
    store._entries.query.hybrid.assert_not_called()

    store._entries.query.fetch_object_by_id.return_value = SimpleNamespace(
        properties=props, vector={VECTOR_NAME: [0.0, 1.0]}
    )
    updated = store.update_status("a", "superseded", 0.2)
    assert updated is not None and updated.status == "superseded" and updated.vector == [0.0, 1.0]
    store._entries.data.update.assert_called_once_with(
        uuid=object_uuid("entry", "a"), properties={"status": "superseded", "confidence": 0.2}
    )
    store._entries.query.fetch_object_by_id.return_value = None
    assert store.get("a") is None and store.update_status("a", "active") is None

    record = ConflictReportRecord(report_id="r", topic="x", created_at=CREATED, payload={"a": 1})
    store.save_report(record)
    (objects,) = store._reports.data.insert_many.call_args.args
    assert objects[0].uuid == object_uuid("report", "r") and objects[0].vector is None
    store._reports.query.fetch_object_by_id.return_value = SimpleNamespace(properties=objects[0].properties)
    assert store.get_report("r") == record


# -- live server ------------------------------------------------------------------------------


@pytest.mark.skipif(not WEAVIATE_URL, reason="set WEAVIATE_URL to run against a live Weaviate server")
class TestWeaviateStoreLive(StoreContract):
    @pytest.fixture
    def names(self) -> dict[str, str]:
        suffix = uuid.uuid4().hex[:10]
        return {
            "entries_collection": f"ContraflowTestEntries_{suffix}",
            "reports_collection": f"ContraflowTestReports_{suffix}",
        }

    def _open(self, names: dict[str, str]) -> WeaviateStore:
        assert WEAVIATE_URL is not None
        return WeaviateStore(WEAVIATE_URL, os.environ.get("WEAVIATE_API_KEY"), **names)

    @pytest.fixture
    def store(self, names: dict[str, str]) -> Iterator[WeaviateStore]:
        store = self._open(names)
        yield store
        store.close()
        cleanup = self._open(names)
        cleanup.drop_collections()
        cleanup.close()

    @pytest.fixture
    def reopen(self, names: dict[str, str]) -> Callable[[], KnowledgeStore]:
        return lambda: self._open(names)


def test_requests_built_by_the_real_client() -> None:
    """The real v4 client validates our arguments and builds the gRPC requests; only the
    transport is replaced (the connection pretends to be open, searches return nothing)."""
    import weaviate
    from weaviate.connect.v4 import _ServerVersion
    from weaviate.proto.v1 import search_get_pb2

    client = weaviate.WeaviateClient(
        weaviate.connect.ConnectionParams.from_url("http://127.0.0.1:9", 10), skip_init_checks=True
    )
    connection = client._connection
    connection._connected = True
    connection._weaviate_version = _ServerVersion.from_string("1.32.0")
    searches: list[Any] = []
    batches: list[Any] = []
    connection.grpc_search = lambda request: searches.append(request) or search_get_pb2.SearchReply()
    connection.grpc_batch_objects = lambda request, timeout, max_retries: batches.append(request) or {}
    client.collections.exists = lambda name: True  # type: ignore[method-assign]
    store = WeaviateStore("http://unused", client=client)

    vector = unit_vector()
    entry = KnowledgeEntry(
        entry_id="a", collection="c", tenant="o'b", text="aspirin", created_at=CREATED, vector=vector
    )
    store.upsert([entry])
    (obj,) = batches[-1].objects
    assert obj.uuid == object_uuid("entry", "a") and obj.collection == "KnowledgeEntries"
    assert [v.name for v in obj.vectors] == [VECTOR_NAME]
    assert obj.properties.non_ref_properties["tenant"] == "o'b"

    assert store.hybrid_search("aspirin kidney", vector, tenant="o'b", collections=["A"], alpha=0.3) == []
    request = searches[-1]
    assert request.collection == "KnowledgeEntries" and request.limit == 5
    assert request.hybrid_search.query == "aspirin kidney" and list(request.hybrid_search.properties) == ["text"]
    assert request.hybrid_search.alpha == pytest.approx(0.3)
    assert list(request.hybrid_search.targets.target_vectors) == [VECTOR_NAME]
    assert [f.target.property for f in request.filters.filters] == ["tenant", "collection", "status"]
    assert request.filters.filters[0].value_text == "o'b"
    assert list(request.metadata.vectors) == [VECTOR_NAME] and request.metadata.score

    assert store.get("a") is None
    assert searches[-1].filters.value_text == object_uuid("entry", "a")
    store.close()


def test_a_weaviate_store_without_the_client_installed_says_which_extra() -> None:
    code = (
        "import sys; sys.modules['weaviate'] = None\n"  # as if the [weaviate] extra were not installed
        "from contraflow.streams.runtime.services import open_store; from contraflow.streams.settings import Settings\n"
        "open_store(Settings(knowledge_store='weaviate', weaviate_url='http://127.0.0.1:1'))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode != 0 and "pip install 'contraflow[weaviate]'" in out.stderr
