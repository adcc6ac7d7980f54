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

The schema, filter, query-argument, property-mapping and connection builders are plain
functions in `weaviate_builders`, so they can be tested without a server.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

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
    with_status,
)
from contraflow.streams.core.knowledge.weaviate_builders import (
    ENTRIES_COLLECTION,
    REPORTS_COLLECTION,
    VECTOR_NAME,
    build_hybrid_kwargs,
    connection_kwargs,
    entry_collection_config,
    entry_to_properties,
    import_weaviate,
    object_uuid,
    properties_to_entry,
    properties_to_report,
    report_collection_config,
    report_to_properties,
)


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
        weaviate = import_weaviate()
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
        updated = with_status(current, status, confidence)
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
