"""The worker's HTTP endpoints, on faust's web server: /metrics, /healthz, /readyz.

/healthz answers 503 when the event loop has not ticked for `stall_s` (a CPU-bound call
on the loop, or a hang); a loop that is stuck altogether does not answer, which a probe
also counts as a failure. /readyz answers 200 once the app runs and is not rebalancing.
"""

from __future__ import annotations

import time

import faust

from streams.observability.metrics import WorkerMetrics


def attach_endpoints(app: faust.App, metrics: WorkerMetrics, stall_s: float = 30.0) -> None:
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
        ready = beat["last"] is not None and not app.rebalancing
        return web.json({"ready": ready, "rebalancing": app.rebalancing}, status=200 if ready else 503)
