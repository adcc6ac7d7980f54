"""Knowledge store on Weaviate (weaviate-client v4), for deployments beyond one machine.

- Vectors are self-provided (no vectorizer module): one named vector, `default`, HNSW with
  cosine distance; the caller embeds (384-d MiniLM).
- Two collections: `KnowledgeEntries` and `ConflictReports` (seed 001, section 6; the
  report's JSON is kept whole in `payload_json`, and `summary`, `sources_analyzed`,
  `conflict_count` and `sensitivity` are copied out of it when present, for filtering).
- Object ids are UUIDv5 of the entry/report id, and inserts go through the batch API,
  which replaces an object with the same id: upserts are idempotent.
- Tenants are a filterable property (exact match, `None` = property absent, found with
  `is_none`, hence `index_null_state`), not Weaviate's native multi-tenancy, so that one
  query can cover the `None` tenant and no tenant has to be created before a write.
- Hybrid search is Weaviate's own (`relativeScoreFusion`, BM25 over `text` only, filters
  applied before ranking), the same fusion formula `LanceStore` implements.
- No phoning home: the module imports `weaviate` only when a store is built, and connects
  with `skip_init_checks=True`, which skips the client's PyPI version lookup and OIDC
  probe; readiness is checked with `/v1/.well-known/ready` instead. Proxies from the
  environment are ignored (`trust_env=False`). Server-side usage telemetry is a server
  setting: run Weaviate with `DISABLE_TELEMETRY=true`.

The schema, filter, query-argument and property-mapping builders are plain functions, so
they can be tested without a server.
"""

from __future__ import annotations

import contextlib
import uuid
import warnings
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from contraflow.streams.core.knowledge.store import (
    DEFAULT_DIM,
    DEFAULT_STATUSES,
    ConflictReportRecord,
    KnowledgeEntry,
    SearchHit,
    check_status,
    check_vector,
    cosine_similarity,
    dedupe_last,
    search_vector,
)

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


def _weaviate() -> Any:
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
    _weaviate()
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
    _weaviate()
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
    _weaviate()
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
    _weaviate()
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
    _weaviate()
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


class WeaviateStore:
    """`KnowledgeStore` on a Weaviate server (>= 1.27). Collections are created when missing.

    `client` lets a caller pass an already connected `weaviate.WeaviateClient` (then `url`
    and `api_key` are ignored and `close` leaves the client open).
    """

    def __init__(
        self,
        url: str,
        api_key: str | None = None,
        *,
        dim: int = DEFAULT_DIM,
        entries_collection: str = ENTRIES_COLLECTION,
        reports_collection: str = REPORTS_COLLECTION,
        grpc_host: str | None = None,
        grpc_port: int | None = None,
        headers: Mapping[str, str] | None = None,
        timeout_s: float = 30.0,
        create_collections: bool = True,
        client: Any = None,
    ) -> None:
        weaviate = _weaviate()
        self.dim = dim
        self.entries_name = entries_collection
        self.reports_name = reports_collection
        self._owns_client = client is None
        if client is None:
            kwargs = connection_kwargs(
                url, api_key, grpc_host=grpc_host, grpc_port=grpc_port, headers=headers, timeout_s=timeout_s
            )
            client = weaviate.connect_to_custom(**kwargs)
            if not client.is_ready():
                client.close()
                raise ConnectionError(f"Weaviate at {url} is not ready")
        self._client: Any = client
        if create_collections:
            self._ensure(entry_collection_config(entries_collection))
            self._ensure(report_collection_config(reports_collection))
        self._entries: Any = client.collections.use(entries_collection)
        self._reports: Any = client.collections.use(reports_collection)

    # -- entries -----------------------------------------------------------------------

    def upsert(self, entries: list[KnowledgeEntry]) -> None:
        from weaviate.classes.data import DataObject

        objects = [
            DataObject(
                uuid=object_uuid("entry", entry.entry_id),
                properties=entry_to_properties(entry),
                vector={VECTOR_NAME: check_vector(entry.vector, self.dim, f"entry {entry.entry_id!r}")},
            )
            for entry in dedupe_last(entries)
        ]
        if objects:
            self._insert(self._open()[0], objects)

    def get(self, entry_id: str) -> KnowledgeEntry | None:
        obj = self._open()[0].query.fetch_object_by_id(object_uuid("entry", entry_id), include_vector=[VECTOR_NAME])
        return None if obj is None else properties_to_entry(obj.properties, obj.vector)

    def hybrid_search(
        self,
        text: str,
        vector: Sequence[float],
        *,
        tenant: str | None,
        collections: Sequence[str] | None = None,
        statuses: Sequence[str] | None = DEFAULT_STATUSES,
        limit: int = 5,
        alpha: float = 0.5,
    ) -> list[SearchHit]:
        query = search_vector(vector, self.dim, limit, alpha, collections, statuses)
        if query is None:
            return []
        kwargs = build_hybrid_kwargs(
            text, query, tenant=tenant, collections=collections, statuses=statuses, limit=limit, alpha=alpha
        )
        result = self._open()[0].query.hybrid(**kwargs)
        hits = []
        for obj in result.objects:
            stored = properties_to_entry(obj.properties, obj.vector)
            similarity = cosine_similarity(stored.vector, query) if stored.vector else None
            score = obj.metadata.score if obj.metadata is not None and obj.metadata.score is not None else 0.0
            hits.append(
                SearchHit(entry=stored.model_copy(update={"vector": None}), score=score, vector_similarity=similarity)
            )
        return hits

    def update_status(self, entry_id: str, status: str, confidence: float | None = None) -> KnowledgeEntry | None:
        check_status(status)
        current = self.get(entry_id)
        if current is None:
            return None
        changes: dict[str, Any] = {"status": status}
        if confidence is not None:
            changes["confidence"] = confidence
        updated = KnowledgeEntry(**{**current.model_dump(), **changes}, vector=current.vector)
        self._open()[0].data.update(
            uuid=object_uuid("entry", entry_id),
            properties={"status": updated.status, "confidence": updated.confidence},
        )
        return updated

    def count(self) -> int:
        return int(self._open()[0].aggregate.over_all(total_count=True).total_count or 0)

    # -- reports -----------------------------------------------------------------------

    def save_report(self, record: ConflictReportRecord) -> None:
        from weaviate.classes.data import DataObject

        obj = DataObject(uuid=object_uuid("report", record.report_id), properties=report_to_properties(record))
        self._insert(self._open()[1], [obj])

    def get_report(self, report_id: str) -> ConflictReportRecord | None:
        obj = self._open()[1].query.fetch_object_by_id(object_uuid("report", report_id))
        return None if obj is None else properties_to_report(obj.properties)

    # -- lifecycle ---------------------------------------------------------------------

    def drop_collections(self) -> None:
        """Delete both collections and everything in them (tests, resets)."""
        self._client.collections.delete([self.entries_name, self.reports_name])

    def close(self) -> None:
        if self._client is not None and self._owns_client:
            self._client.close()
        self._client = self._entries = self._reports = None

    def __enter__(self) -> WeaviateStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _open(self) -> tuple[Any, Any]:
        if self._client is None:
            raise RuntimeError("WeaviateStore is closed")
        return self._entries, self._reports

    def _ensure(self, config: dict[str, Any]) -> None:
        if self._client.collections.exists(config["name"]):
            return
        try:
            self._client.collections.create(**config)
        except Exception:
            if not self._client.collections.exists(config["name"]):  # lost a race with another worker: fine
                raise

    @staticmethod
    def _insert(collection: Any, objects: list[Any]) -> None:
        result = collection.data.insert_many(objects)
        if result.has_errors:
            first = next(iter(result.errors.values()))
            raise RuntimeError(f"Weaviate rejected {len(result.errors)} of {len(objects)} objects: {first.message}")
