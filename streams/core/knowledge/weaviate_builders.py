"""The plain builders of the Weaviate store (`weaviate.py`), testable without a server:
the collections' names, properties and configs, object ids, the filter and arguments of a
hybrid search, entries and reports to and from Weaviate properties, and the connection's
arguments. The `weaviate` package is imported on first use (`import_weaviate`)."""

from __future__ import annotations

import contextlib
import uuid
import warnings
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from contraflow.streams.core.knowledge.store import ConflictReportRecord, KnowledgeEntry

ENTRIES_COLLECTION = "KnowledgeEntries"
REPORTS_COLLECTION = "ConflictReports"
VECTOR_NAME = "default"
ID_NAMESPACE = uuid.UUID("3f0b6a52-8f0e-5d7c-9a51-6c0f1b7e2d44")

# (name, data type, searchable by BM25); every other text property is an exact-match filter field.
ENTRY_PROPERTIES: tuple[tuple[str, str, bool], ...] = (
    ("entry_id", "text", False),
    ("collection", "text", False),
    ("tenant", "text", False),
    ("text", "text", True),
    ("subject", "text", False),
    ("predicate", "text", False),
    ("object_value", "text", False),
    ("source", "text", False),
    ("source_tool", "text", False),
    ("confidence", "number", False),
    ("created_at", "date", False),
    ("status", "text", False),
    ("reinforcement_count", "int", False),
)
REPORT_PROPERTIES: tuple[tuple[str, str, bool], ...] = (
    ("report_id", "text", False),
    ("topic", "text", True),
    ("entry_id", "text", False),
    ("tenant", "text", False),
    ("created_at", "date", False),
    ("payload_json", "text", False),
    ("summary", "text", True),
    ("sources_analyzed", "int", False),
    ("conflict_count", "int", False),
    ("sensitivity", "text", False),
)
ENTRY_FIELDS = tuple(name for name, _, _ in ENTRY_PROPERTIES)


def import_weaviate() -> Any:
    """The weaviate package, imported on first use (authlib warns about httpx at import)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with contextlib.suppress(ImportError):
            import authlib.deprecate  # noqa: F401  (adds an "always" filter of its own on import)
        warnings.simplefilter("ignore", DeprecationWarning)
        import weaviate
        import weaviate.classes  # registers the submodules used below
    return weaviate


def object_uuid(kind: str, key: str) -> str:
    """Deterministic object id of an entry ("entry") or report ("report") id."""
    return str(uuid.uuid5(ID_NAMESPACE, f"{kind}:{key}"))


def _properties(spec: Sequence[tuple[str, str, bool]]) -> list[Any]:
    from weaviate.classes.config import DataType, Property, Tokenization

    types = {"text": DataType.TEXT, "number": DataType.NUMBER, "int": DataType.INT, "date": DataType.DATE}
    out = []
    for name, kind, searchable in spec:
        if kind == "text":
            out.append(
                Property(
                    name=name,
                    data_type=DataType.TEXT,
                    tokenization=Tokenization.WORD if searchable else Tokenization.FIELD,
                    index_filterable=True,
                    index_searchable=searchable,
                    skip_vectorization=True,
                )
            )
        else:
            out.append(Property(name=name, data_type=types[kind], index_filterable=True, index_range_filters=True))
    return out


def entry_collection_config(name: str = ENTRIES_COLLECTION) -> dict[str, Any]:
    """Keyword arguments of `client.collections.create` for the entries collection."""
    import_weaviate()
    from weaviate.classes.config import Configure, VectorDistances

    return {
        "name": name,
        "description": "contraflow knowledge entries (self-provided MiniLM vectors)",
        "properties": _properties(ENTRY_PROPERTIES),
        "vector_config": Configure.Vectors.self_provided(
            name=VECTOR_NAME,
            vector_index_config=Configure.VectorIndex.hnsw(distance_metric=VectorDistances.COSINE),
        ),
        "inverted_index_config": Configure.inverted_index(index_null_state=True),
    }


def report_collection_config(name: str = REPORTS_COLLECTION) -> dict[str, Any]:
    """Keyword arguments of `client.collections.create` for the conflict-report collection (no vectors)."""
    import_weaviate()
    from weaviate.classes.config import Configure

    return {
        "name": name,
        "description": "contraflow conflict reports (seed 001 ConflictReport JSON)",
        "properties": _properties(REPORT_PROPERTIES),
        "vector_config": Configure.Vectors.self_provided(name=VECTOR_NAME),
        "inverted_index_config": Configure.inverted_index(index_null_state=True),
    }


def build_filters(tenant: str | None, collections: Sequence[str] | None, statuses: Sequence[str] | None) -> Any:
    """Weaviate filter of a search: exact tenant (`is_none` for None), optional collection/status sets.

    Values travel as gRPC strings, so quotes need no escaping. An empty collection or status
    list matches nothing: the store returns [] without querying, and this raises.
    """
    import_weaviate()
    from weaviate.classes.query import Filter

    parts = [
        Filter.by_property("tenant").is_none(True) if tenant is None else Filter.by_property("tenant").equal(tenant)
    ]
    for prop, values in (("collection", collections), ("status", statuses)):
        if values is None:
            continue
        if isinstance(values, str):
            raise TypeError(f"{prop} filter must be a sequence of strings, not a string")
        if not values:
            raise ValueError(f"empty {prop} filter matches nothing; the caller should not search")
        parts.append(Filter.by_property(prop).contains_any(list(values)))
    return Filter.all_of(parts) if len(parts) > 1 else parts[0]


def build_hybrid_kwargs(
    text: str,
    vector: Sequence[float],
    *,
    tenant: str | None,
    collections: Sequence[str] | None,
    statuses: Sequence[str] | None,
    limit: int,
    alpha: float,
) -> dict[str, Any]:
    """Keyword arguments of `collection.query.hybrid`. Blank text searches by vector only."""
    import_weaviate()
    from weaviate.classes.query import HybridFusion, MetadataQuery

    return {
        "query": text if text.strip() else None,
        "vector": [float(x) for x in vector],
        "alpha": float(alpha) if text.strip() else 1.0,
        "fusion_type": HybridFusion.RELATIVE_SCORE,
        "query_properties": ["text"],
        "target_vector": VECTOR_NAME,
        "filters": build_filters(tenant, collections, statuses),
        "limit": limit,
        "include_vector": [VECTOR_NAME],
        "return_metadata": MetadataQuery(score=True),
        "return_properties": list(ENTRY_FIELDS),
    }


def entry_to_properties(entry: KnowledgeEntry) -> dict[str, Any]:
    """Weaviate properties of an entry; None values are left out (absent = null in filters)."""
    data = entry.model_dump(include=set(ENTRY_FIELDS))
    return {key: value for key, value in data.items() if value is not None}


def properties_to_entry(props: Mapping[str, Any], vector: Any = None) -> KnowledgeEntry:
    """An entry from Weaviate properties and the object's vector (a list or {name: list})."""
    if isinstance(vector, Mapping):
        vector = vector.get(VECTOR_NAME)
    data = {name: props[name] for name in ENTRY_FIELDS if props.get(name) is not None}
    data["reinforcement_count"] = int(data.get("reinforcement_count", 1))
    return KnowledgeEntry(**data, vector=[float(x) for x in vector] if vector else None)


def report_to_properties(record: ConflictReportRecord) -> dict[str, Any]:
    data = record.model_dump(exclude={"payload"})
    data["payload_json"] = record.payload_json()
    payload = record.payload
    if isinstance(payload.get("summary"), str):
        data["summary"] = payload["summary"]
    if isinstance(payload.get("sensitivity"), str):
        data["sensitivity"] = payload["sensitivity"]
    if isinstance(payload.get("sources_analyzed"), int):
        data["sources_analyzed"] = payload["sources_analyzed"]
    if isinstance(payload.get("conflicts"), list):
        data["conflict_count"] = len(payload["conflicts"])
    return {key: value for key, value in data.items() if value is not None}


def properties_to_report(props: Mapping[str, Any]) -> ConflictReportRecord:
    return ConflictReportRecord(
        report_id=props["report_id"],
        topic=props.get("topic"),
        entry_id=props.get("entry_id"),
        tenant=props.get("tenant"),
        created_at=props["created_at"],
        payload=props.get("payload_json") or "{}",
    )


def connection_kwargs(
    url: str,
    api_key: str | None = None,
    *,
    grpc_host: str | None = None,
    grpc_port: int | None = None,
    headers: Mapping[str, str] | None = None,
    timeout_s: float = 30.0,
) -> dict[str, Any]:
    """Keyword arguments of `weaviate.connect_to_custom` for an http(s)://host[:port] URL.

    gRPC defaults to the same host, port 50051 for http and 443 for https (Weaviate Cloud
    serves gRPC on `grpc-<host>`: pass grpc_host for it).
    """
    parts = urlsplit(url if "://" in url else f"http://{url}")
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"expected an http(s)://host[:port] Weaviate URL, got {url!r}")
    secure = parts.scheme == "https"
    import_weaviate()
    from weaviate.classes.init import AdditionalConfig, Auth, Timeout

    seconds = max(1, round(timeout_s))
    return {
        "http_host": parts.hostname,
        "http_port": parts.port or (443 if secure else 8080),
        "http_secure": secure,
        "grpc_host": grpc_host or parts.hostname,
        "grpc_port": grpc_port or (443 if secure else 50051),
        "grpc_secure": secure,
        "headers": dict(headers) if headers else None,
        "auth_credentials": Auth.api_key(api_key) if api_key else None,
        "additional_config": AdditionalConfig(
            timeout=Timeout(init=seconds, query=seconds, insert=seconds), trust_env=False
        ),
        "skip_init_checks": True,
    }
