"""A worker's knowledge store in a process of its own (streams/runtime/child_process.py says why):
importing LanceDB alone is seconds of Python work, which in the worker's own process held up
its first turns after every restart. The store opens in the child once the models are
loaded; every call is a blocking call into the child, as the `KnowledgeStore` protocol has
them (callers run them in threads)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from contraflow.streams.core.knowledge.store import ConflictReportRecord, KnowledgeEntry, SearchHit
from contraflow.streams.runtime.child_process import ChildProcess
from contraflow.streams.settings import Settings


class StoreProcess:
    """The configured knowledge store (`streams.services.open_store`), opened in a child process."""

    def __init__(self, settings: Settings, log_level: int = logging.WARNING) -> None:
        self._process = ChildProcess(
            "the knowledge store process",
            "contraflow.streams.runtime.services.open_store",
            settings,
            log_level=log_level,
        )
        self._closed = False

    def wait_open(self) -> int:
        """Block until the store is open; the store process's pid. Raises what opening raised."""
        return self._process.wait_built()

    def upsert(self, entries: list[KnowledgeEntry]) -> None:
        self._process.call("upsert", entries).result()

    def get(self, entry_id: str) -> KnowledgeEntry | None:
        return self._process.call("get", entry_id).result()

    def hybrid_search(self, text: str, vector: Sequence[float], **options: Any) -> list[SearchHit]:
        """The store's `hybrid_search`, with its own keyword options and defaults."""
        return self._process.call("hybrid_search", text, vector, **options).result()

    def update_status(self, entry_id: str, status: str, confidence: float | None = None) -> KnowledgeEntry | None:
        return self._process.call("update_status", entry_id, status, confidence).result()

    def save_report(self, record: ConflictReportRecord) -> None:
        self._process.call("save_report", record).result()

    def get_report(self, report_id: str) -> ConflictReportRecord | None:
        return self._process.call("get_report", report_id).result()

    def count(self) -> int:
        return self._process.call("count").result()

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._process.call("close").result()
            self._process.close()
