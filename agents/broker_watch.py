"""The worker's own view of its broker, for /readyz and the log: every few seconds it asks
the broker for its topics, recreates any that are missing (contraflow's and the tables'
changelogs: a broker that comes back empty gets them back), and remembers what is wrong.
Every change of that state is logged at WARNING."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import faust

from streams.kafka import BrokerUnavailable, ensure_topics
from streams.settings import Settings
from topics.catalog import ALL_TOPICS

log = logging.getLogger("contraflow.broker")

CHECK_EVERY_S = 2.0


@dataclass
class BrokerStatus:
    """What is wrong with the broker, as far as the worker knows; None when nothing is."""

    problem: str | None = None
    checked: bool = False

    def update(self, problem: str | None) -> None:
        self.checked = True
        if problem != self.problem:
            if problem is None:
                log.warning("broker fine again (was: %s)", self.problem)
            else:
                log.warning("broker problem: %s", problem)
        self.problem = problem


def attach_broker_watch(app: faust.App, settings: Settings) -> BrokerStatus:
    status = BrokerStatus()

    @app.timer(CHECK_EVERY_S)
    async def watch_broker() -> None:
        changelogs = {
            table.changelog_topic.get_topic_name(): {"cleanup.policy": "compact"} for table in app.tables.values()
        }
        try:
            created = await ensure_topics(settings, ALL_TOPICS, timeout_s=CHECK_EVERY_S, extra=changelogs)
        except BrokerUnavailable as exc:
            status.update(str(exc))
            return
        if created:
            log.warning("recreated missing topics: %s", ", ".join(sorted(created)))
        status.update(None)

    return status
