"""`contraflow broker | worker | send | tail`: the commands that run or talk to the service."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
from collections.abc import Callable
from pathlib import Path

import orjson

from contraflow.streams.settings import Settings
from contraflow.streams.tools.command_support import CLIError, aiokafka_quiet, known_topics, settings_from


def cmd_broker(args: argparse.Namespace) -> int:
    import time

    from contraflow.streams.runtime.signals import sigterm_interrupts
    from contraflow.streams.tools.broker import TansuBroker

    sigterm_interrupts()
    # the whole block: a SIGTERM that lands between the announcement and the wait (a loaded
    # machine) still stops the broker and exits 0 rather than escaping as an interrupt
    try:
        with TansuBroker(port=args.port or None) as broker:
            print(
                f"Tansu broker on {broker.bootstrap} (memory only). Use --broker {broker.bootstrap}. Ctrl-C stops it."
            )
            while broker.running:
                time.sleep(0.5)
    except KeyboardInterrupt:
        return 0
    raise CLIError("the broker exited on its own")


def cmd_worker(args: argparse.Namespace) -> int:
    from contraflow.streams.core.nli.scorer import check_dialogue_head, check_installed, resolve_model_dir
    from contraflow.streams.runtime.kafka import ensure_topics
    from contraflow.streams.runtime.model_host import ModelHost, needs_models
    from contraflow.streams.runtime.services import uses_dialogue_head
    from contraflow.topics.catalog import ALL_TOPICS

    settings = settings_from(args)
    # quick checks first: the model is there (and its dialogue head, when the verdict judges
    # with one), its backend installed,
    if needs_models(settings):
        model_dir = resolve_model_dir(settings.nli_model_path)
        check_installed(model_dir, settings.nli_backend)
        if uses_dialogue_head(settings):
            check_dialogue_head(model_dir)
    with aiokafka_quiet():  # (its connection errors become our one-line error)
        asyncio.run(ensure_topics(settings, ALL_TOPICS))  # the broker answers; then the slow imports and loading
    print(f"contraflow worker: broker {settings.broker_url} answers, topics in place; starting", flush=True)
    # the models load in their own process from here on, while faust is imported and started
    host = ModelHost(settings, logging.getLevelName(args.loglevel.upper())) if needs_models(settings) else None
    from contraflow.agents.worker import run_worker

    run_worker(settings, host, args.loglevel)
    return 0


def cmd_send(args: argparse.Namespace) -> int:
    path = Path(args.file)
    if not path.is_file():
        raise CLIError(f"no such file: {path}")
    known_topics([args.topic], args.force)
    numbered = [(n, line.strip()) for n, line in enumerate(path.read_bytes().splitlines(), 1) if line.strip()]
    lines = [line for _, line in numbered]
    for number, line in [] if args.force else numbered:
        try:
            orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            raise CLIError(
                f"{path}:{number} is not JSON ({exc}); fix it, or pass --force to send every line as it is "
                "(the worker dead-letters what it cannot read)"
            ) from None
    from contraflow.streams.runtime.kafka import produce_lines

    sent = asyncio.run(produce_lines(settings_from(args), args.topic, lines, args.key_field))
    print(f"sent {sent} records to {args.topic}")
    return 0


async def tail_topics(
    settings: Settings, topics: list[str], emit: Callable[[str, dict], None], limit: int | None, idle_s: float | None
) -> int:
    """Print events from `topics` until `limit` events or `idle_s` seconds without one."""
    from contraflow.streams.runtime.kafka import OutputReader

    seen = 0
    async with OutputReader(settings, topics) as reader:
        while limit is None or seen < limit:
            records = await reader.poll(idle_s if idle_s is not None else 3600.0)
            if not records and idle_s is not None:
                break
            for topic, _key, value in records[: None if limit is None else limit - seen]:
                emit(topic, orjson.loads(value) if value else {})
                seen += 1
    return seen


def cmd_tail(args: argparse.Namespace) -> int:
    from contraflow.streams.tools.render import render
    from contraflow.topics.catalog import OUTPUT_TOPICS

    known_topics(args.topics, args.force)
    topics = args.topics or [spec.name for spec in OUTPUT_TOPICS if spec.name != "contraflow.scores" or args.scores]

    def emit(topic: str, event: dict) -> None:
        print(
            orjson.dumps({"topic": topic, "event": event}).decode() if args.json else render(topic, event), flush=True
        )

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(tail_topics(settings_from(args), topics, emit, args.limit, args.idle))
    return 0
