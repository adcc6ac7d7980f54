"""The LanceDB tables of the knowledge store (`lance.py`): their names and Arrow schemas,
the SQL prefilter of a search (filter values as string literals with single quotes doubled,
the only escape DataFusion string literals have), and rows to entries and reports."""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from contraflow.streams.core.knowledge.store import ConflictReportRecord, KnowledgeEntry

ENTRIES_TABLE = "entries"
REPORTS_TABLE = "conflict_reports"

ENTRY_FIELDS = (
    "entry_id",
    "collection",
    "tenant",
    "text",
    "subject",
    "predicate",
    "object_value",
    "source",
    "source_tool",
    "confidence",
    "created_at",
    "status",
    "reinforcement_count",
)
TIMESTAMP = pa.timestamp("us", tz="UTC")


def entries_schema(dim: int) -> pa.Schema:
    return pa.schema(
        [
            pa.field("entry_id", pa.string(), nullable=False),
            pa.field("collection", pa.string(), nullable=False),
            pa.field("tenant", pa.string()),
            pa.field("text", pa.string(), nullable=False),
            pa.field("subject", pa.string()),
            pa.field("predicate", pa.string()),
            pa.field("object_value", pa.string()),
            pa.field("source", pa.string(), nullable=False),
            pa.field("source_tool", pa.string()),
            pa.field("confidence", pa.float64(), nullable=False),
            pa.field("created_at", TIMESTAMP, nullable=False),
            pa.field("status", pa.string(), nullable=False),
            pa.field("reinforcement_count", pa.int64(), nullable=False),
            pa.field("vector", pa.list_(pa.float32(), dim)),
        ]
    )


def reports_schema() -> pa.Schema:
    return pa.schema(
        [
            pa.field("report_id", pa.string(), nullable=False),
            pa.field("topic", pa.string()),
            pa.field("entry_id", pa.string()),
            pa.field("tenant", pa.string()),
            pa.field("created_at", TIMESTAMP, nullable=False),
            pa.field("payload_json", pa.string(), nullable=False),
        ]
    )


def sql_literal(value: str) -> str:
    """A DataFusion SQL string literal: single quotes doubled, nothing else is special."""
    if "\x00" in value:
        raise ValueError("filter values must not contain NUL characters")
    return "'" + value.replace("'", "''") + "'"


def row_to_entry(row: dict[str, Any], *, with_vector: bool = True) -> KnowledgeEntry:
    data = {name: row[name] for name in ENTRY_FIELDS if name in row}
    vector = row.get("vector") if with_vector else None
    return KnowledgeEntry(**data, vector=list(vector) if vector is not None else None)


def row_to_report(row: dict[str, Any]) -> ConflictReportRecord:
    return ConflictReportRecord(
        report_id=row["report_id"],
        topic=row["topic"],
        entry_id=row["entry_id"],
        tenant=row["tenant"],
        created_at=row["created_at"],
        payload=row["payload_json"],
    )
