"""Embedded knowledge store on LanceDB (no server): the default backend.

Layout: one LanceDB database directory with two tables, `entries` (the entry fields and a
fixed-size float32 `vector` column) and `conflict_reports` (report fields and the JSON
payload). Everything is on disk after each call, so reopening the path restores the store.

Hybrid search, and why it is built this way: both halves are answered from an
`EntryIndex` in memory, which the store loads from the `entries` table when it opens
(~1 s at 10,000 entries) and keeps in step with every write, so it never disagrees with
the disk. Their scores are fused by `relative_score_fusion` (the formula of Weaviate's
default hybrid fusion, so both backends rank alike):

- vector: an exact cosine scan over the entries that pass the filters (tenant,
  collection, status). At 10k x 384 floats that costs ~1 ms, where LanceDB's own
  prefiltered scan cost ~30 ms; there is no ANN index (an IVF/HNSW index only pays off
  beyond ~100k rows and would make results approximate).
- keyword: BM25 over the entry texts (`keyword_index`: English stemming, stop words,
  lower-casing and ASCII folding, as LanceDB's full-text index did). LanceDB's own
  full-text query took ~15 ms at 10k rows, twice that while a sentence was being embedded
  on the other core, and grew with the small fragments one-row writes leave behind.

Each half ranks `limit * candidate_factor` candidates. This was chosen over reranking
vector candidates with a term-overlap score because a keyword-only match (a rare drug name,
an identifier) is found even when its embedding is not among the nearest vectors, and the
BM25 statistics come from the whole store instead of a handful of candidates. Memory:
~2 KB per entry (15 MB of vectors at 10k entries); past a few hundred thousand entries,
use the Weaviate backend.

Every one-row write still adds a LanceDB fragment, and reads and merges slow down with
their number, so `optimize()` (compaction, 0.1-0.5 s at 10k rows) runs after
`optimize_every` write calls or `optimize_rows` written rows, whichever is first.

Filter values are embedded in the SQL as string literals with single quotes doubled,
which is the only escape DataFusion string literals have; a quote in a tenant therefore
can neither break the query nor widen it. The tables' schemas, that SQL and the rows'
mapping to entries and reports are in `lance_tables`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import pyarrow as pa

from contraflow.streams.core.knowledge.entry_index import EntryIndex
from contraflow.streams.core.knowledge.lance_tables import (
    ENTRIES_TABLE,
    ENTRY_FIELDS,
    REPORTS_TABLE,
    entries_schema,
    reports_schema,
    row_to_entry,
    row_to_report,
    sql_literal,
)
from contraflow.streams.core.knowledge.store import (
    DEFAULT_DIM,
    DEFAULT_STATUSES,
    ConflictReportRecord,
    KnowledgeEntry,
    SearchHit,
    check_status,
    check_vector,
    dedupe_last,
    relative_score_fusion,
    search_vector,
    with_status,
)

log = logging.getLogger(__name__)


class LanceStore:
    """`KnowledgeStore` on an embedded LanceDB database under `path` (created if missing).

    Thread-safe for one process (writes are serialised); one process per path.
    """

    def __init__(
        self,
        path: str | Path,
        dim: int = DEFAULT_DIM,
        *,
        candidate_factor: int = 4,
        optimize_every: int = 50,
        optimize_rows: int = 2_000,
        keep_versions: timedelta = timedelta(minutes=10),
    ) -> None:
        import lancedb

        if min(dim, candidate_factor, optimize_every, optimize_rows) < 1:
            raise ValueError("dim, candidate_factor, optimize_every and optimize_rows must be >= 1")
        self.path = Path(path)
        self.dim = dim
        self.candidate_factor = candidate_factor
        self.optimize_every = optimize_every
        self.optimize_rows = optimize_rows
        self.keep_versions = keep_versions
        self._lock = threading.RLock()
        self._writes_since_optimize = 0
        self._rows_since_optimize = 0
        self.path.mkdir(parents=True, exist_ok=True)
        self._db: Any = lancedb.connect(str(self.path))
        self._entries: Any = self._table(ENTRIES_TABLE, entries_schema(dim))
        self._reports: Any = self._table(REPORTS_TABLE, reports_schema())
        self._index = EntryIndex(dim)
        self._load_index()

    # -- entries -----------------------------------------------------------------------

    def upsert(self, entries: list[KnowledgeEntry]) -> None:
        unique = dedupe_last(entries)
        if not unique:
            return
        rows = []
        for entry in unique:
            row = entry.model_dump(include=set(ENTRY_FIELDS))
            row["vector"] = check_vector(entry.vector, self.dim, f"entry {entry.entry_id!r}")
            rows.append(row)
        data = pa.Table.from_pylist(rows, schema=entries_schema(self.dim))
        with self._lock:
            tables = self._open()
            tables[0].merge_insert("entry_id").when_matched_update_all().when_not_matched_insert_all().execute(data)
            for entry, row in zip(unique, rows, strict=True):
                self._index.put(entry, row["vector"])
            self._wrote(len(rows))

    def get(self, entry_id: str) -> KnowledgeEntry | None:
        rows = self._open()[0].search().where(f"entry_id = {sql_literal(entry_id)}").limit(1).to_list()
        return row_to_entry(rows[0]) if rows else None

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
        with self._lock:
            self._open()
            similarity, keyword = self._index.candidates(
                limit * self.candidate_factor,
                query=query if alpha > 0.0 else None,
                text=text if alpha < 1.0 else None,
                tenant=tenant,
                collections=collections,
                statuses=statuses,
            )
            hits = []
            for entry_id, score in relative_score_fusion(similarity, keyword, alpha)[:limit]:
                entry = self._index.entry(entry_id)
                assert entry is not None  # both halves rank indexed entries only
                cosine = similarity[entry_id] if entry_id in similarity else self._index.similarity(entry_id, query)
                hits.append(SearchHit(entry=entry, score=score, vector_similarity=cosine))
        return hits

    def update_status(self, entry_id: str, status: str, confidence: float | None = None) -> KnowledgeEntry | None:
        check_status(status)
        with self._lock:
            current = self.get(entry_id)
            if current is None:
                return None
            updated = with_status(current, status, confidence)
            self._open()[0].update(
                where=f"entry_id = {sql_literal(entry_id)}",
                values={"status": updated.status, "confidence": updated.confidence},
            )
            self._index.update(updated)
            self._wrote(1)
            return updated

    def count(self) -> int:
        return int(self._open()[0].count_rows())

    # -- reports -----------------------------------------------------------------------

    def save_report(self, record: ConflictReportRecord) -> None:
        row = record.model_dump(exclude={"payload"})
        row["payload_json"] = record.payload_json()
        data = pa.Table.from_pylist([row], schema=reports_schema())
        with self._lock:
            tables = self._open()
            tables[1].merge_insert("report_id").when_matched_update_all().when_not_matched_insert_all().execute(data)
            self._wrote(1)

    def get_report(self, report_id: str) -> ConflictReportRecord | None:
        rows = self._open()[1].search().where(f"report_id = {sql_literal(report_id)}").limit(1).to_list()
        return row_to_report(rows[0]) if rows else None

    # -- maintenance -------------------------------------------------------------------

    def optimize(self) -> None:
        """Compact small fragments, fold recent rows into the full-text index and delete table
        versions older than `keep_versions` (LanceDB keeps every version by default)."""
        with self._lock:
            for table in self._open():
                table.optimize(cleanup_older_than=self.keep_versions)
            self._writes_since_optimize = self._rows_since_optimize = 0

    def close(self) -> None:
        """Release the tables (LanceDB keeps no server or lock to shut down); idempotent."""
        with self._lock:
            self._entries = self._reports = self._db = None

    def __enter__(self) -> LanceStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals ---------------------------------------------------------------------

    def _table(self, name: str, schema: pa.Schema) -> Any:
        """Open the table, or create it; an existing table must have exactly this schema."""
        try:
            table = self._db.open_table(name)
        except ValueError:  # "Table ... was not found"
            return self._db.create_table(name, schema=schema, exist_ok=True)
        if table.schema != schema:
            if name == ENTRIES_TABLE and pa.types.is_fixed_size_list(table.schema.field("vector").type):
                stored = table.schema.field("vector").type.list_size
                if stored != self.dim:
                    raise ValueError(f"{self.path} holds {stored}-d vectors, not {self.dim}-d")
            raise ValueError(f"table {name!r} in {self.path} has another schema: {table.schema}")
        return table

    def _load_index(self) -> None:
        """Fill the in-memory index from the entries table (vectors straight from Arrow)."""
        table = self._entries.to_arrow()
        vectors = table.column("vector").combine_chunks().flatten().to_numpy(zero_copy_only=False)
        vectors = vectors.reshape(table.num_rows, self.dim)
        for row, vector in zip(table.drop_columns(["vector"]).to_pylist(), vectors, strict=True):
            self._index.put(row_to_entry(row, with_vector=False), vector)

    def _open(self) -> tuple[Any, Any]:
        if self._entries is None:
            raise RuntimeError(f"LanceStore({self.path}) is closed")
        return self._entries, self._reports

    def _wrote(self, rows: int) -> None:
        self._writes_since_optimize += 1
        self._rows_since_optimize += rows
        if self._writes_since_optimize >= self.optimize_every or self._rows_since_optimize >= self.optimize_rows:
            try:
                self.optimize()
            except Exception:  # maintenance must never fail a write
                log.exception("LanceStore optimize failed")
