"""The worker's own view of its broker, for /readyz and the log: every `broker_check_s` it
asks the broker for its topics, recreates any that are missing (contraflow's and the tables'
changelogs: a broker that comes back empty gets them back), and remembers what is wrong.
A check still unanswered after `broker_check_s` already counts as a problem (a frozen broker
or a partition answers nothing, and the check's own timeout is longer, so that a slow broker
is not reported unreachable). Every change of the reported state is logged at WARNING."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

import faust

from contraflow.streams.runtime.kafka import BrokerUnavailable, ensure_topics
from contraflow.streams.settings import Settings
from contraflow.topics.catalog import ALL_TOPICS

log = logging.getLogger("contraflow.broker")

CHECK_TIMEOUT_CHECKS = 5  # a check gives up after this many check intervals


@dataclass
class BrokerStatus:
    """What is wrong with the broker, as far as the worker knows; None when nothing is."""

    problem: str | None = None
    checked: bool = False
    asking_since: float | None = None  # monotonic start of a check not yet answered
    answer_within_s: float = 1.0

    def asking(self) -> None:
        self.asking_since = time.monotonic()

    def current_problem(self) -> str | None:
        """The latest check's problem, or that the running check is overdue."""
        if self.problem is None and self.asking_since is not None:
            waited = time.monotonic() - self.asking_since
            if waited > self.answer_within_s:
                return f"no answer from the Kafka broker for {waited:.1f} s"
        return self.problem

    def update(self, problem: str | None) -> None:
        self.checked = True
        self.asking_since = None
        if problem != self.problem:
            if problem is None:
                log.warning("broker fine again (was: %s)", self.problem)
            else:
                log.warning("broker problem: %s", problem)
        self.problem = problem


def attach_broker_watch(app: faust.App, settings: Settings) -> BrokerStatus:
    status = BrokerStatus(answer_within_s=settings.broker_check_s)
    timeout_s = settings.broker_check_s * CHECK_TIMEOUT_CHECKS

    @app.timer(settings.broker_check_s)
    async def watch_broker() -> None:
        changelogs = {
            table.changelog_topic.get_topic_name(): {"cleanup.policy": "compact"} for table in app.tables.values()
        }
        status.asking()
        try:
            created = await ensure_topics(settings, ALL_TOPICS, timeout_s=timeout_s, extra=changelogs)
        except BrokerUnavailable as exc:
            status.update(str(exc))
            return
        if created:
            log.warning("recreated missing topics: %s", ", ".join(sorted(created)))
        status.update(None)

    return status
