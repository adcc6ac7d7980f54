"""The worker's HTTP endpoints, on faust's web server: /metrics, /healthz, /readyz.

/healthz answers 503 when the event loop has not ticked for `stall_s` (a CPU-bound call
on the loop, or a hang); a loop that is stuck altogether does not answer, which a probe
also counts as a failure. /readyz answers 200 once the app runs, its models are loaded
(agents/loading.py), it is not rebalancing, has reached the broker on its latest check, which
is not overdue (agents/broker_watch.py), and its latest offset commit succeeded; otherwise 503 with the
reason.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import faust

from contraflow.agents.broker_watch import BrokerStatus
from contraflow.agents.loading import Loading
from contraflow.streams.runtime.observability.metrics import WorkerMetrics


def not_ready_because(
    app: faust.App, broker: BrokerStatus, started: bool, loading: Sequence[Loading] = ()
) -> str | None:
    """Why the worker is not ready, or None when it is."""
    commits = getattr(app.consumer, "commit_health", None)
    if not started:
        return "starting"
    pending = [part.what for part in loading if part.pending]
    if pending:
        return f"loading {' and '.join(pending)}"
    if app.rebalancing:
        return "rebalancing"
    if not broker.checked:
        return "broker not checked yet"
    problem = broker.current_problem()
    if problem is not None:
        return problem
    if commits is not None and not commits.ok:
        return f"the latest offset commit failed: {commits.error}"
    return None


def attach_endpoints(
    app: faust.App,
    metrics: WorkerMetrics,
    broker: BrokerStatus,
    loading: Sequence[Loading] = (),
    stall_s: float = 30.0,
) -> None:
    beat: dict[str, float | None] = {"last": None}

    @app.timer(1.0)
    async def heartbeat() -> None:
        beat["last"] = time.monotonic()

    @app.page("/metrics")
    async def metrics_page(web: faust.web.View, request: faust.web.Request) -> faust.web.Response:
        return web.bytes(metrics.exposition(), content_type=metrics.content_type)

    @app.page("/healthz")
    async def healthz(web: faust.web.View, request: faust.web.Request) -> faust.web.Response:
        last = beat["last"]
        stalled = None if last is None else round(time.monotonic() - last, 3)
        alive = stalled is None or stalled < stall_s
        return web.json({"alive": alive, "loop_stalled_s": stalled}, status=200 if alive else 503)

    @app.page("/readyz")
    async def readyz(web: faust.web.View, request: faust.web.Request) -> faust.web.Response:
        reason = not_ready_because(app, broker, started=beat["last"] is not None, loading=loading)
        body = {"ready": reason is None, "rebalancing": app.rebalancing, "reason": reason}
        return web.json(body, status=200 if reason is None else 503)
