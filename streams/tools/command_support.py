"""What the command groups share: the one-line user error, Settings from a command's flags,
the --broker option, the topic check and aiokafka kept quiet while a command reports."""

from __future__ import annotations

import argparse
import contextlib
import logging
from collections.abc import Iterator

from contraflow.streams.errors import UserError
from contraflow.streams.settings import Settings, load_settings


class CLIError(UserError, RuntimeError):
    """An error the user can fix; printed as one line."""


def settings_from(args: argparse.Namespace) -> Settings:
    overrides = {}
    if getattr(args, "broker", None):
        url = args.broker if "://" in args.broker else f"kafka://{args.broker}"
        overrides["broker_url"] = url
    if getattr(args, "model", None):
        overrides["nli_model"] = args.model
    if getattr(args, "web_port", None):
        overrides["web_port"] = args.web_port
    return load_settings(overrides, {"broker_url": "--broker", "nli_model": "--model", "web_port": "--web-port"})


@contextlib.contextmanager
def aiokafka_quiet() -> Iterator[None]:
    """aiokafka's own logging off while a command reports broker errors itself; a running
    worker keeps it (warnings and errors reach the worker's log)."""
    logger = logging.getLogger("aiokafka")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


def add_broker_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--broker", help="Kafka bootstrap server, host:port (default: CONTRAFLOW_BROKER_URL)")


def known_topics(topics: list[str], force: bool) -> None:
    """A misspelled topic is refused (unless --force): sending or listening to it would
    succeed silently and do nothing."""
    from contraflow.topics.catalog import ALL_TOPICS

    known = [spec.name for spec in ALL_TOPICS]
    unknown = [topic for topic in topics if topic not in known]
    if unknown and not force:
        raise CLIError(
            f"unknown topic {', '.join(map(repr, unknown))}: contraflow's topics are {', '.join(known)} "
            "(--force to use another)"
        )
